import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ShellProcess } from '../../../cli/shell-process.ts';
import { unfoldableDefinitions } from './unfold-definitions.ts';

describe('the document\'s own definitions a goal mentions (pure)', () => {
  it('names non-recursive Definitions the goal uses, not Fixpoints or names it does not mention', () => {
    const decls = ['Fixpoint itr (l acc : list nat) := match l with [] => acc | h :: t => itr t (h :: acc) end.', 'Definition rv (l : list nat) := itr l [].', 'Definition unused := 0.', "Definition rv' := rv."];
    expect(unfoldableDefinitions(decls, 'rv (l1 ++ l2) = rv l2 ++ rv l1')).toEqual(['rv']);
    expect(unfoldableDefinitions(decls, "rv' l = l")).toEqual(["rv'"]);
    expect(unfoldableDefinitions(decls, 'itr l [] = l')).toEqual([]);
  });

  it('a definition shown through its notation (Notation, Infix, an abbreviation) is mentioned (attack: notations)', () => {
    const decls = ['Definition plus2 (a b : nat) := a + b + 2.', 'Notation "a <+> b" := (plus2 a b) (at level 50, left associativity).',
      'Definition catl (l m : list nat) := m ++ l.', 'Infix "+++" := catl (at level 60).', 'Definition sq (n : nat) := n * n.', 'Notation square := sq.',
      'Definition tw (n : nat) := 2 * n.', "Notation \"'twice' x\" := (tw x) (at level 10)."];
    expect(unfoldableDefinitions(decls, 'a <+> b <+> c = c <+> b <+> a')).toEqual(['plus2']);
    expect(unfoldableDefinitions(decls, 'l +++ m = m ++ l')).toEqual(['catl']);
    expect(unfoldableDefinitions(decls, 'square n = n * n')).toEqual(['sq']);
    expect(unfoldableDefinitions(decls, 'twice n = n + n')).toEqual(['tw']);
    // Not shown: a goal without the notation's symbol mentions none of them.
    expect(unfoldableDefinitions(decls, 'a + b = b + a')).toEqual([]);
  });
});

describe('HAMMER unfolds the document\'s definitions, then uses its lemmas (real coqidetop)', () => {
  let shell: ShellProcess;
  beforeAll(() => {
    shell = new ShellProcess(['--timeout', '60', '--max-channels', '4', '--pool', '0']);
  });
  afterAll(async () => {
    expect(await shell.end()).toBe(0);
  });

  // `twice` hides `dbl`: no lemma mentions `twice`, so neither the rewrites nor premise search reach the
  // document's `dbl_plus` until it is unfolded (without this, HAMMER finds a longer proof by induction late in its
  // budget; the unfolded goal is closed in the first, whole-goal stage).
  const defs = 'Fixpoint dbl (n : nat) : nat := match n with 0 => 0 | S k => S (S (dbl k)) end. '
    + 'Definition twice (n : nat) : nat := dbl n. '
    + 'Lemma dbl_plus : forall n, dbl n = n + n. Proof. induction n; simpl; lia. Qed.';
  const goal = 'forall n m : nat, twice (n + m) = twice n + twice m';
  it(`closes ${goal}`, async () => {
    const c = ((await shell.request('NEW_CHANNEL', 0)).RESPONSE as { ID: number }).ID;
    expect((await shell.request(`${c} DEFINE "${defs}"`, c)).ERR).toBe('');
    expect((await shell.request(`${c} GOAL "${goal}"`, c)).ERR).toBe('');
    const t0 = performance.now();
    const r = await shell.request(`${c} HAMMER 20`, c);
    expect(performance.now() - t0).toBeLessThan(21_000);
    expect(r.ERR).toBe('');
    expect(r.HAMMER_REPORT?.closedWith).toMatch(/unfold twice/);
    expect((await shell.request(`${c} END`, c)).ERR).toBe('');
  }, 120_000);
});
