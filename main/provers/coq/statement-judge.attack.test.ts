import { describe, expect, it } from 'vitest';
import { finished, quoted as q, useRealShell } from './testing/real-shell.ts';

/**
 * The clean reading runs the document's library sentences (`Require`, `Import`/`Export`, `Open Scope`).
 * Attacked through the real arbor-shell: a document tries to get its own notations into the clean reading
 * through those sentences (an Import/Export of its own module, a module named like a library, a scope of
 * its own named like the library's, `From … Require`), and one channel's library sentences must not stay
 * in the shared clean environment for another's reading. All held when written.
 */

describe('the document cannot make its own notations the clean reading, or hide them', () => {
  const { session } = useRealShell(['--timeout', '20']);

  const lies: { name: string; define: string; goal: string; tactic: string; elaborated: RegExp }[] = [
    { name: 'Import of its own module', define: 'Module N. Notation "\'False\'" := True. End N. Import N.', goal: 'False', tactic: 'exact I', elaborated: /^Coq\.Init\.Logic\.True$/ },
    { name: 'Export through a second module', define: 'Module N. Notation "\'False\'" := True. End N. Module W. Export N. End W. Import W.', goal: 'False', tactic: 'exact I', elaborated: /^Coq\.Init\.Logic\.True$/ },
    {
      name: 'a module named like an installed library',
      define: 'Module Coq. Module Arith. Module PeanoNat. Notation "\'False\'" := True. End PeanoNat. End Arith. End Coq. Import Coq.Arith.PeanoNat.',
      goal: 'False', tactic: 'exact I', elaborated: /^Coq\.Init\.Logic\.True$/,
    },
    {
      name: 'a scope of its own named like the library\'s R_scope',
      define: 'Declare Scope R_scope. Delimit Scope R_scope with R. Notation "x + y" := (Nat.mul x y) : R_scope. Open Scope R_scope.',
      goal: '2 + 2 = 4', tactic: 'reflexivity', elaborated: /Nat\.mul/,
    },
    {
      name: 'From … Require Import, then its own notation in the library\'s scope',
      define: 'From Coq Require Import ZArith. Local Notation "x ++ y" := (Z.mul x y) : Z_scope. Open Scope Z_scope.',
      goal: '2 ++ 2 = 4', tactic: 'reflexivity', elaborated: /Z\.mul/,
    },
    {
      name: 'Import of a module that shadows a library module after requiring it',
      define: 'Require Coq.Lists.List. Module List. Notation "\'False\'" := True. End List. Import List.',
      goal: 'False', tactic: 'exact I', elaborated: /^Coq\.Init\.Logic\.True$/,
    },
    // Broke before the fix in statement-judge.ts: with a word of the document's own in the text (so the clean
    // reading fails with "not found"), a `where` notation was not seen as changing the reading.
    {
      name: 'a lonely notation declared by a Fixpoint\'s where clause, beside a word of the document\'s own',
      define: 'Definition d := 1. Fixpoint mymul (n m : nat) : nat := match n with O => O | S p => Nat.add m (mymul p m) end where "n + m" := (mymul n m).',
      goal: 'd + d = d', tactic: 'reflexivity', elaborated: /Top\.mymul/,
    },
    {
      name: 'an Inductive\'s where clause redefining <=',
      define: 'Definition d := 1. Inductive le\' : nat -> nat -> Prop := le_any : forall n m, n <= m where "n <= m" := (le\' n m).',
      goal: 'd + 1 <= d', tactic: 'apply le_any', elaborated: /Top\.le'/,
    },
  ];
  for (const l of lies) {
    it(`STATEMENT shows it: ${l.name}`, async () => {
      const rs = await session([`DEFINE ${q(l.define)}`, `GOAL ${q(l.goal)}`, `APPLY (${l.tactic})`, 'END']);
      expect(rs[0]?.ERR, l.define).toBe('');
      const end = rs.at(-1);
      // Either the trick does not take in the document either (the proof fails), or the answer shows it.
      if (finished(end)) expect(end?.STATEMENT?.elaborated, JSON.stringify(end?.STATEMENT)).toMatch(l.elaborated);
      else expect(l.name, JSON.stringify(rs.map((r) => r.ERR))).toMatch(/named like an installed library/);
    }, 180_000);
  }

  it('one channel\'s library sentences do not stay in the shared clean reading of another', async () => {
    const a = await session([`DEFINE ${q('Require Import Reals. Open Scope R_scope.')}`, `GOAL ${q('forall x : R, x + 0 = x')}`, 'APPLY (intro x; ring)', 'END']);
    expect(finished(a.at(-1)), JSON.stringify(a.map((r) => r.ERR))).toBe(true);
    expect(a.at(-1)?.STATEMENT).toBeUndefined();
    // A second channel with no library sentences: its own `+` on nat (multiplication) must differ from a
    // clean reading on nat, not agree with a reading still under R_scope (nor be judged there at all).
    const b = await session([`DEFINE ${q('Notation "x + y" := (Nat.mul x y).')}`, `GOAL ${q('2 + 2 = 4')}`, 'APPLY reflexivity', 'END']);
    expect(finished(b.at(-1)), JSON.stringify(b.map((r) => r.ERR))).toBe(true);
    expect(JSON.stringify(b.at(-1)?.STATEMENT ?? null)).toMatch(/Nat\.add/);
    // And an honest nat statement after both: no STATEMENT.
    const c = await session([`GOAL ${q('2 + 2 = 4')}`, 'APPLY reflexivity', 'END']);
    expect(finished(c.at(-1))).toBe(true);
    expect(c.at(-1)?.STATEMENT).toBeUndefined();
  }, 300_000);
});

/**
 * The elaborated statement is the theorem's type as the kernel stored it (`Arbor_statement`, docs/arbor-plugin.md),
 * its printed names resolved as `Locate Term` resolves them there. `Check T` read it before: with implicit binders
 * it printed existentials ("could not be read back"), and it beta-reduced a redex the clean reading keeps, so two
 * honest statements were shown as meaning something else. Names the printer qualifies (a bound variable or a
 * document's own name in the way) are still the kernel's.
 */
describe('the statement read from the kernel: honest texts read the same, lies still show', () => {
  const { session } = useRealShell(['--timeout', '20']);

  const honest: { name: string; define?: string; goal: string; tactic: string }[] = [
    { name: 'implicit binders', goal: 'forall {A : Type} (x : A), x = x', tactic: 'reflexivity' },
    { name: 'a beta-redex', goal: '(fun P : Prop => P) (forall b : bool, negb (negb b) = b)', tactic: 'intros b; destruct b; reflexivity' },
    { name: 'a bound variable named like a library constant', goal: 'forall negb : nat, negb = negb /\\ Datatypes.negb true = false', tactic: 'split; reflexivity' },
    { name: 'a match in the statement (constructors as patterns)', goal: 'forall n : nat, match n with O => True | S _ => 1 + n = S n end', tactic: 'destruct n; simpl; auto' },
    { name: 'a qualified library name beside a document name of the same short name', define: 'Definition negb := 3.', goal: 'forall b : bool, Datatypes.negb (Datatypes.negb b) = b', tactic: 'destruct b; reflexivity' },
  ];
  for (const h of honest) {
    it(`no STATEMENT: ${h.name}`, async () => {
      const rs = await session([...(h.define ? [`DEFINE ${q(h.define)}`] : []), `GOAL ${q(h.goal)}`, `APPLY (${h.tactic})`, 'END']);
      const end = rs.at(-1);
      expect(finished(end), JSON.stringify(rs.map((r) => r.ERR))).toBe(true);
      expect(end?.STATEMENT, JSON.stringify(end?.STATEMENT)).toBeUndefined();
    }, 180_000);
  }

  it('a document constant that shadows a library one still shows, beside the library one written qualified', async () => {
    const rs = await session([`DEFINE ${q('Definition negb (b : bool) := b.')}`, `GOAL ${q('forall b : bool, negb (Datatypes.negb b) = Datatypes.negb b')}`, 'APPLY (reflexivity)', 'END']);
    const end = rs.at(-1);
    expect(finished(end), JSON.stringify(rs.map((r) => r.ERR))).toBe(true);
    expect(end?.STATEMENT?.elaborated).toMatch(/Top\.negb \(Coq\.Init\.Datatypes\.negb b\)/);
    expect(JSON.stringify(end?.STATEMENT?.differences)).toMatch(/document's own `Top\.negb`/);
  }, 180_000);
});
