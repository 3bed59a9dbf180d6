import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ShellProcess } from '../../../cli/shell-process.ts';
import { combinations, refutationPlan, smallValues } from './instance-refutation.ts';

describe('small values for the counterexample search', () => {
  const tree = new Map([['tree', [{ name: 'Leaf', args: [] }, { name: 'Node', args: ['tree', 'nat', 'tree'] }]]]);
  it('covers structured types and the document\'s own inductive types', () => {
    expect(smallValues('nat', new Map())).toEqual(['0', '1', '2', '3']);
    expect(smallValues('list nat', new Map())?.[0]).toBe('(@nil (nat))');
    expect(smallValues('option bool', new Map())).toEqual(['(@None (bool))', '(Some true)', '(Some false)']);
    expect(smallValues('nat * bool', new Map())).toContain('(1, false)');
    expect(smallValues('tree', tree)?.slice(0, 2)).toEqual(['Leaf', '(Node Leaf 0 Leaf)']);
    expect(smallValues('nat -> nat', new Map())).toBeUndefined();
    expect(smallValues('T', new Map())).toBeUndefined();
  });
  it('instantiates every variable, proves premises by computation, and reads instances back', () => {
    const plan = refutationPlan([{ kind: 'var', name: 'A', text: 'Type' }, { kind: 'var', name: 'l', text: 'list A' }, { kind: 'hyp', name: 'H', text: 'length l > 0' }], 'l = []', new Map());
    expect(plan?.statement).toBe('forall (A : Type), forall (l : list A), (length l > 0) -> (l = [])');
    expect(plan?.instances).toContain('A = nat, l = [1]');
    expect(plan?.tactic).toMatch(/ltac:\(vm_compute/);
    expect(combinations([['a', 'b'], ['1', '2', '3']], 100)).toHaveLength(6);
  });
});

/** In the document's environment (real arbor-shell and coqidetop): its definitions mean what it says. */
describe('HAMMER refutes in the document\'s environment (real coqidetop)', () => {
  let shell: ShellProcess;
  beforeAll(() => {
    shell = new ShellProcess(['--timeout', '20', '--max-channels', '8', '--pool', '0']);
  });
  afterAll(async () => {
    expect(await shell.end()).toBe(0);
  });
  const channel = async (): Promise<number> => ((await shell.request('NEW_CHANNEL', 0)).RESPONSE as { ID: number }).ID;

  it('a document\'s own max: the true goal is not called false (and is proved)', async () => {
    const c = await channel();
    expect((await shell.request(`${c} DEFINE "Definition max (a b : nat) : nat := a + b."`, c)).ERR).toBe('');
    await shell.request(`${c} GOAL "forall a b, max a b = a + b"`, c);
    const r = await shell.request(`${c} HAMMER 10`, c);
    expect(r.ERR).not.toMatch(/the goal is false/);
    expect(r.ERR).toBe('');
  }, 60_000);

  it('a false HAVE about the document\'s own function answers n = 1', async () => {
    const c = await channel();
    expect((await shell.request(`${c} DEFINE "Fixpoint sum_list (l : list nat) : nat := match l with [] => 0 | x :: t => x + sum_list t end."`, c)).ERR).toBe('');
    await shell.request(`${c} GOAL "sum_list [] = 0"`, c);
    await shell.request(`${c} HAVE "forall n, sum_list [n] = 0"`, c);
    const r = await shell.request(`${c} END`, c);
    expect(r.ERR).toMatch(/^fail: the goal is false: n = 1 /);
    expect(r.HAMMER_REPORT?.stages[0]).toMatchObject({ stage: 'refutation', outcome: 'refuted' });
  }, 60_000);

  it('finds counterexamples among the document\'s own inductive values and among pairs', async () => {
    const c = await channel();
    await shell.request(`${c} DEFINE "Inductive tree := Leaf | Node (l : tree) (n : nat) (r : tree). Fixpoint size (t : tree) : nat := match t with Leaf => 0 | Node l _ r => S (size l + size r) end."`, c);
    await shell.request(`${c} GOAL "forall t : tree, size t = 0"`, c);
    const r = await shell.request(`${c} HAMMER 10`, c);
    expect(r.ERR).toMatch(/^fail: the goal is false: t = \(Node Leaf 0 Leaf\)/);
    await shell.request(`${c} GOAL "forall p : nat * bool, fst p = 0"`, c);
    const q = await shell.request(`${c} HAMMER 10`, c);
    expect(q.ERR).toMatch(/^fail: the goal is false: p = \(1, /);
  }, 60_000);
});
