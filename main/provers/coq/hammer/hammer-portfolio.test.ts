import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ShellProcess } from '../../../cli/shell-process.ts';
import { deepRecursors, recursionDepths, wantsWitness } from './hammer-portfolio.ts';

describe('what HAMMER\'s induction and witness stages look for', () => {
  it('finds functions that recurse two steps at a time, not one', () => {
    expect(deepRecursors([
      'Fixpoint evenb (n : nat) : bool := match n with 0 => true | 1 => false | S (S k) => evenb k end.',
      'Fixpoint dbl (n : nat) : nat := match n with 0 => 0 | S k => S (S (dbl k)) end.',
      'Fixpoint pairs (l : list nat) : nat := match l with x :: y :: t => 1 + pairs t | _ => 0 end.',
    ])).toEqual(['evenb', 'pairs']);
  });
  it('reads the recursion depth the patterns peel, whatever it is', () => {
    expect([...recursionDepths([
      'Fixpoint mod3 (n : nat) : nat := match n with 0 => 0 | 1 => 1 | 2 => 2 | S (S (S k)) => mod3 k end.',
      'Fixpoint evenb (n : nat) : bool := match n with 0 => true | 1 => false | S (S k) => evenb k end.',
      "Fixpoint f' (n : nat) : nat := match n with S (S (S (S k))) => f' k | _ => 0 end.",
      'Fixpoint dbl (n : nat) : nat := match n with 0 => 0 | S k => S (S (dbl k)) end.',
    ])]).toEqual([['mod3', 3], ['evenb', 2], ["f'", 4]]);
  });
  it('asks for witnesses on existential and divisibility goals only', () => {
    expect(wantsWitness('exists m : nat, m > n')).toBe(true);
    expect(wantsWitness('(2 | 2 * n + 2)')).toBe(true);
    expect(wantsWitness('Nat.divide 2 (2 * n)')).toBe(true);
    expect(wantsWitness('n + 0 = n')).toBe(false);
    expect(wantsWitness('(exists m, m > n) \\/ n = 0')).toBe(false);
  });
});

/** HAMMER's portfolio, induction and refutation through the real arbor-shell and coqidetop (issue 13). */
describe('HAMMER portfolio (real coqidetop)', () => {
  let shell: ShellProcess;
  beforeAll(() => {
    shell = new ShellProcess(['--timeout', '20', '--max-channels', '8']);
  });
  afterAll(async () => {
    expect(await shell.end()).toBe(0);
  });
  const channel = async (): Promise<number> => ((await shell.request('NEW_CHANNEL', 0)).RESPONSE as { ID: number }).ID;
  /** A new channel with the document's declaration (if any) and the goal, then `HAMMER seconds`: the channel and the answer. */
  const hammerOn = async (define: string | undefined, goal: string, seconds = 20): Promise<{ c: number; r: Awaited<ReturnType<ShellProcess['request']>> }> => {
    const c = await channel();
    if (define !== undefined) await shell.request(`${c} DEFINE "${define}"`, c);
    await shell.request(`${c} GOAL "${goal}"`, c);
    return { c, r: await shell.request(`${c} HAMMER ${seconds}`, c) };
  };
  /** END on the channel (the kernel's check and its assumptions), then the channel is released. */
  const endAndRelease = async (c: number): Promise<Awaited<ReturnType<ShellProcess['request']>>> => {
    const end = await shell.request(`${c} END`, c);
    await shell.request(`${c} RELEASE_CHANNEL`, c);
    return end;
  };

  it('never does worse than its stages alone: the whole goal goes to sauto, not only CRUSH\'s pieces', async () => {
    const c = await channel();
    await shell.request(`${c} GOAL "forall (A : Type) (l : list A) (x : A), length (l ++ [x]) > 0 /\\ l ++ [x] <> []"`, c);
    const r = await shell.request(`${c} HAMMER 20`, c);
    expect(r.ERR).toBe('');
    expect(r.RESPONSE).toMatchObject({ goal: 'True' });
    expect(['decision', 'rewrite', 'premises', 'sauto']).toContain(r.HAMMER_REPORT?.stages.find((s) => s.outcome === 'closed')?.stage);
    expect((await shell.request(`${c} END`, c)).ASSUMPTIONS).toEqual([]);
  }, 120_000);

  it('tries the obvious rewrite before any search', async () => {
    const c = await channel();
    await shell.request(`${c} GOAL "forall (l' : list nat) (x : nat), length (l' ++ [x]) = S (length l')"`, c);
    const r = await shell.request(`${c} HAMMER 20`, c);
    expect(r.ERR).toBe('');
    expect(r.HAMMER_REPORT?.closedWith).toMatch(/rewrite|lia|sauto/);
  }, 120_000);

  it('rewrites again what a rewrite uncovers (map_length leaves an app_length), before any search', async () => {
    const c = await channel();
    // bench:hammer's maplen family: one pass of the list rewrites left length (l ++ l) and every stage failed.
    await shell.request(`${c} GOAL "forall (l : list nat), length (map (fun x => x + 3) (l ++ l)) = 2 * length l"`, c);
    const r = await shell.request(`${c} HAMMER 20`, c);
    expect(r.ERR).toBe('');
    expect(r.HAMMER_REPORT?.stages.find((s) => s.outcome === 'closed')?.stage).toBe('rewrite');
    expect((await shell.request(`${c} END`, c)).ASSUMPTIONS).toEqual([]);
  }, 120_000);

  it('proves by induction what needs it, on the document\'s own recursive function, and the kernel accepts it', async () => {
    const c = await channel();
    await shell.request(`${c} DEFINE "Fixpoint double (n : nat) : nat := match n with 0 => 0 | S k => S (S (double k)) end."`, c);
    await shell.request(`${c} GOAL "forall n, double n = n + n"`, c);
    const r = await shell.request(`${c} END`, c);
    expect(r.ERR).toBe('');
    expect(r.HAMMER_REPORT?.stages.find((s) => s.outcome === 'closed')?.stage).toBe('induction');
    expect(r.HAMMER_REPORT?.closedWith).toMatch(/induction n/);
    expect(r.ASSUMPTIONS).toEqual([]);
  }, 120_000);

  it('inducts the way a function recurses three steps at a time (functional induction from the recursion, any depth), and the kernel accepts it', async () => {
    const { c, r } = await hammerOn('Fixpoint mod3 (n : nat) : nat := match n with 0 => 0 | 1 => 1 | 2 => 2 | S (S (S k)) => mod3 k end.', 'forall n, mod3 n < 3');
    expect(r.ERR).toBe('');
    expect(r.HAMMER_REPORT?.closedWith).toMatch(/lt_wf_ind; intros; destruct n as \[\|\[\|\[\|n\]\]\]/);
    expect((await endAndRelease(c)).ASSUMPTIONS).toEqual([]);
  }, 120_000);

  it('rewrites with a generalised induction hypothesis (rev-acc-spec: rewrite IHl, <- app_assoc), the type parameter left in place', async () => {
    const { c, r } = await hammerOn('Fixpoint rev_onto {A : Type} (l acc : list A) : list A := match l with [] => acc | x :: t => rev_onto t (x :: acc) end.', 'forall (A : Type) (l acc : list A), rev_onto l acc = rev l ++ acc');
    expect(r.ERR).toBe('');
    expect(r.HAMMER_REPORT?.stages.find((s) => s.outcome === 'closed')?.stage).toBe('induction');
    // acc generalised, A not (l depends on it: `revert A acc` is refused by Coq).
    expect(r.HAMMER_REPORT?.closedWith).toMatch(/revert acc; induction l/);
    expect((await endAndRelease(c)).ASSUMPTIONS).toEqual([]);
  }, 120_000);

  it('nests induction for a two-variable lemma no single induction proves (commutativity of an add recursing on its second argument)', async () => {
    const { c, r } = await hammerOn('Fixpoint addr (n m : nat) : nat := match m with 0 => n | S p => S (addr n p) end.', 'forall n m, addr n m = addr m n');
    expect(r.ERR).toBe('');
    const stages = r.HAMMER_REPORT?.stages ?? [];
    // Every single induction was tried first and failed.
    const single = stages.filter((s) => s.stage === 'induction' && (s.tactic ?? '').split('induction ').length === 2);
    expect(single.length).toBe(4);
    expect(single.map((s) => s.outcome)).not.toContain('closed');
    expect(r.HAMMER_REPORT?.closedWith).toMatch(/induction (n|m); intros (m|n); induction (m|n)/);
    expect((await endAndRelease(c)).ASSUMPTIONS).toEqual([]);
  }, 120_000);

  it('inducts the way a two-step recursive function recurses (strong induction, cases 0, 1, S (S k)) where structural induction fails', async () => {
    // A generous budget: on a loaded machine the whole-goal stages take their (stretched) share first.
    const { c, r } = await hammerOn('Fixpoint evb (n : nat) : bool := match n with 0 => true | 1 => false | S (S k) => evb k end.', 'forall n, evb n = true -> evb (S n) = false', 40);
    expect(r.ERR).toBe('');
    expect(r.HAMMER_REPORT?.stages.find((s) => s.outcome === 'closed')?.stage).toBe('induction');
    expect(r.HAMMER_REPORT?.closedWith).toMatch(/using (?:Coq\.Arith\.Wf_nat\.)?lt_wf_ind; intros; destruct n as \[\|\[\|n\]\]/);
    const end = await endAndRelease(c);
    expect(end.ASSUMPTIONS).toEqual([]);
    // The script that goes into the document is ordinary tactics, re-checked at Qed.
    expect(end.SCRIPT).toMatch(/lt_wf_ind/);
  }, 240_000);

  it('finds a witness built from the goal\'s variables for divisibility (bench div-*: exists (n + 1); lia)', async () => {
    const { c, r } = await hammerOn(undefined, 'forall n : nat, Nat.divide 3 (3 * n + 3)');
    expect(r.ERR).toBe('');
    expect(r.HAMMER_REPORT?.stages.find((s) => s.outcome === 'closed')?.stage).toBe('witness');
    expect(r.HAMMER_REPORT?.closedWith).toMatch(/exists \(n \+ 1\); lia/);
    expect((await endAndRelease(c)).ASSUMPTIONS).toEqual([]);
  }, 120_000);

  it('uses the document\'s own earlier theorems first', async () => {
    const c = await channel();
    await shell.request(`${c} DEFINE "Fixpoint tw (n : nat) : nat := match n with 0 => 0 | S k => S (S (tw k)) end."`, c);
    await shell.request(`${c} GOAL tw_plus "forall n, tw n = n + n"`, c);
    expect((await shell.request(`${c} END`, c)).ERR).toBe('');
    // Needs tw_plus (no induction can see through tw (tw n) quickly): the document's lemma is a rewrite.
    await shell.request(`${c} GOAL "forall n, tw (tw n) = 4 * n"`, c);
    const r = await shell.request(`${c} HAMMER 20`, c);
    expect(r.ERR).toBe('');
    expect(r.HAMMER_REPORT?.closedWith).toMatch(/tw_plus/);
  }, 120_000);

  it('refutes a false goal first and shows the instance (a false HAVE says why it fails)', async () => {
    const c = await channel();
    await shell.request(`${c} GOAL "forall n : nat, n + 0 = n"`, c);
    await shell.request(`${c} APPLY intro n`, c);
    await shell.request(`${c} HAVE "n = 0"`, c);
    const r = await shell.request(`${c} END`, c);
    expect(r.ERR).toMatch(/^fail: the goal is false: n = [1-9]/);
    expect(r.HAMMER_REPORT?.stages[0]).toMatchObject({ stage: 'refutation', outcome: 'refuted' });
  }, 120_000);
});

describe('HAMMER cancelled (real coqidetop)', () => {
  it('leaves no coqidetop behind, so the shell ends when its input does', async () => {
    const shell = new ShellProcess(['--timeout', '20', '--max-channels', '4', '--pool', '0']);
    const c = ((await shell.request('NEW_CHANNEL', 0)).RESPONSE as { ID: number }).ID;
    await shell.request(`${c} DEFINE "Fixpoint evb (n : nat) : bool := match n with 0 => true | 1 => false | S (S k) => evb k end."`, c);
    // bench:hammer's evenb family: no stage closes it within the budget, so HAMMER is still running when cancelled.
    await shell.request(`${c} GOAL "forall n, evb (n + n + 2) = true"`, c);
    const hammering = shell.request(`${c} HAMMER 20`, c);
    // Answered out of band once the shell has read past the HAMMER line (its work has started).
    await shell.request('NEW_CHANNEL', 0);
    const [h, cancel] = await Promise.all([hammering, shell.request(`${c} CANCEL`, c)]);
    expect([h.ERR, cancel.ERR]).toContain('cancelled');
    // Before the fix a crashed stage restarted coqidetop after the channel was closed, and the shell never ended.
    expect(await shell.end()).toBe(0);
  }, 120_000);
});

