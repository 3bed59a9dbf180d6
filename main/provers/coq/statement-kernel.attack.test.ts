import { describe, expect, it } from 'vitest';
import { finished, quoted as q, useRealShell } from './testing/real-shell.ts';

/**
 * Attacks on the kernel-read statement judge (END reads the theorem's stored type with the plugin's
 * `Arbor_statement`; the clean environment reads `Axiom arbor_clean_reading : (TEXT).` the same way), through
 * the real arbor-shell and real coqidetop (by a helper who did not build it). Every break it found is fixed
 * (the kernel term now decides, statement-meaning.ts; see docs/statement-kernel-attacks.md); all cases are plain tests.
 */
describe('honest statements are not flagged (false alarms)', () => {
  const { session } = useRealShell(['--timeout', '20']);

  const honest: { name: string; goal: string; tactic: string }[] = [
    { name: 'stdlib rev_involutive', goal: 'forall (A : Type) (l : list A), rev (rev l) = l', tactic: 'exact rev_involutive' },
    { name: 'a sig type', goal: '{n : nat | n = 3}', tactic: 'exists 3; reflexivity' },
    { name: 'a destructuring let (a match)', goal: 'forall p : nat * nat, fst p + snd p = let (a, b) := p in a + b', tactic: 'intros [a b]; reflexivity' },
    { name: 'a pattern lambda', goal: "(fun '(a, b) => a + b) (1, 2) = 3", tactic: 'reflexivity' },
    // Passed before only because both readings were elided below the printing depth; now its kernel term decides.
    { name: 'a 3000-character string literal', goal: `String.length "${'a'.repeat(3000)}" = 3000`, tactic: 'reflexivity' },
  ];
  for (const h of honest) {
    it(`no STATEMENT: ${h.name}`, async () => {
      const define = /String\./.test(h.goal) ? [`DEFINE ${q('Require Import String. Open Scope string_scope.')}`] : [];
      const rs = await session([...define, `GOAL ${q(h.goal)}`, `APPLY (${h.tactic})`, 'END']);
      expect(finished(rs.at(-1)), JSON.stringify(rs.map((r) => r.ERR))).toBe(true);
      expect(rs.at(-1)?.STATEMENT, JSON.stringify(rs.at(-1)?.STATEMENT)).toBeUndefined();
    }, 120_000);
  }

  // Broke before the fix (now the kernel term decides): the statement parser (coq-sexp.ts) reads neither `fix` nor a cast (`(x : T)`, `(x <: T)`), so the judge says it
  // "could not read the elaborated statement term by term" although both readings are the very same text.
  const unread: { name: string; goal: string; tactic: string }[] = [
    { name: 'an anonymous fixpoint applied', goal: '(fix f (n : nat) : nat := match n with 0 => 0 | S m => f m end) 3 = 0', tactic: 'reflexivity' },
    { name: 'a let-bound fixpoint', goal: 'let f := fix g (n : nat) : nat := n in f 0 = 0', tactic: 'reflexivity' },
    { name: 'a VM cast', goal: 'forall x : nat, (x <: nat) = x', tactic: 'reflexivity' },
    // A plain type ascription is kept in the stored type as a cast (`@eq nat (Init.Nat.add (x : nat) O) x`): the
    // most common way to say which `0` is meant, flagged on every honest statement that writes one.
    { name: 'a type ascription on a variable', goal: 'forall x : nat, (x : nat) + 0 = x', tactic: 'intros; lia' },
    { name: 'a type ascription on a literal', goal: 'forall z : Z, (z + (0 : Z))%Z = z', tactic: 'intros; lia' },
  ];
  for (const h of unread) {
    it(`no STATEMENT: ${h.name}`, async () => {
      const rs = await session([`GOAL ${q(h.goal)}`, `APPLY (${h.tactic})`, 'END']);
      expect(finished(rs.at(-1)), JSON.stringify(rs.map((r) => r.ERR))).toBe(true);
      expect(rs.at(-1)?.STATEMENT, JSON.stringify(rs.at(-1)?.STATEMENT)).toBeUndefined();
    }, 120_000);
  }
});

/**
 * Broke before the fix (soundness): the statement parser's tokenizer (coq-sexp.ts, TOKEN) does not read every character Coq
 * takes in a name. A no-break space (U+00A0) is part of a Coq name yet a blank to `\s`; `µ` (U+00B5, a letter
 * to Coq) is below the tokenizer's letter range. So the document's own one-argument `and P` (one name, with a
 * no-break space) applied to `P` prints as `and P P`, which the judge reads as Coq's `and` applied to `P` twice:
 * exactly the clean reading of `P /\ P`. The document's notation makes `A /\ B` its `and P B` (always True),
 * and `forall P : Prop, P /\ P` — every proposition holds — is proved by `exact I` and said to mean what it says.
 */
describe('a name Coq reads as one word and the judge as two', () => {
  const { session } = useRealShell(['--timeout', '20']);

  const lies: { name: string; define: string; goal: string }[] = [
    {
      name: 'a no-break space inside the name (the text is plain ASCII)',
      define: 'Definition and\u00a0P (Q : Prop) := True. Notation "A /\\ B" := (and\u00a0P B) : type_scope.',
      goal: 'forall P : Prop, P /\\ P',
    },
    {
      name: 'a micro sign (a letter to Coq) inside the name',
      define: 'Definition and\u00b5 (Q : Prop) := True. Notation "A /\\ B" := (and\u00b5 B) : type_scope.',
      goal: 'forall \u00b5 : Prop, \u00b5 /\\ \u00b5',
    },
  ];
  for (const l of lies) {
    it(`STATEMENT shows it: ${l.name}`, async () => {
      const rs = await session([`DEFINE ${q(l.define)}`, `GOAL ${q(l.goal)}`, 'APPLY (intros; exact I)', 'END']);
      expect(rs[0]?.ERR, l.define).toBe('');
      const end = rs.at(-1);
      // The trick takes in the document (the proof is `exact I`), so the answer must show what the statement means.
      expect(finished(end), JSON.stringify(rs.map((r) => r.ERR))).toBe(true);
      expect(end?.STATEMENT, JSON.stringify(end)).toBeDefined();
    }, 120_000);
  }
});

/**
 * Broke before the fix (soundness): a document's own word is let through as "only new words" (statement-judge.ts, onlyNewWords)
 * unless one of its names has a non-ASCII character ("it may look like another name"). The names it checks are the
 * parser's tokens, and the tokenizer reads a no-break space as a blank: the document's own `double 4` (one name,
 * a no-break space inside, defined as 7) is checked as the two ASCII words `double` and `4`. The text
 * `double 4 = 7`, beside `Definition double (n : nat) := n + n`, is proved by reflexivity and said to mean what it
 * says. (DEFINE's own answer lists the sneaky definition as a second `double : nat -> nat`.)
 */
describe('a document name with a no-break space passes as plain own words', () => {
  const { session } = useRealShell(['--timeout', '20']);

  it('STATEMENT shows `double 4 = 7` is not about double', async () => {
    const rs = await session([`DEFINE ${q('Definition double (n : nat) := n + n. Definition double\u00a04 := 7.')}`, `GOAL ${q('double\u00a04 = 7')}`, 'APPLY reflexivity', 'END']);
    expect(rs[0]?.ERR).toBe('');
    const end = rs.at(-1);
    expect(finished(end), JSON.stringify(rs.map((r) => r.ERR))).toBe(true);
    expect(end?.STATEMENT, JSON.stringify(end)).toBeDefined();
  }, 120_000);
});

/**
 * Broke before the fix (soundness): Coq's printer elides what lies deeper than its printing depth as `...` (`Arbor_statement`
 * prints with Coq's default depth, as `Check` did), on both sides alike, and the judge compares the elided texts:
 * whatever differs below that depth is never seen. With the document's `x + y` := `S (x + y)`, the 31st conjunct
 * of `0 = 0 /\ … /\ 2 + 2 = 5` (or the last element of a 41-element list) is out of sight, and the lie is proved
 * and said to mean what it says. No unicode, no unusual declaration: one notation override.
 */
describe('a difference deeper than the printer prints', () => {
  const { session } = useRealShell(['--timeout', '20']);

  const zeros = Array.from({ length: 40 }, () => '0').join('; ');
  const lies: { name: string; define: string; goal: string; tactic: string }[] = [
    { name: '2 + 2 = 5 as the 31st conjunct', define: 'Notation "x + y" := (S (Nat.add x y)).', goal: `${Array.from({ length: 30 }, () => '0 = 0').join(' /\\ ')} /\\ 2 + 2 = 5`, tactic: 'repeat split' },
    { name: '1 + 1 = 1 as the last element of a long list', define: 'Notation "x + y" := (Nat.mul x y).', goal: `[${zeros}; 1 + 1] = [${zeros}; 1]`, tactic: 'reflexivity' },
  ];
  for (const l of lies) {
    it(`STATEMENT shows it: ${l.name}`, async () => {
      const rs = await session([`DEFINE ${q(l.define)}`, `GOAL ${q(l.goal)}`, `APPLY (${l.tactic})`, 'END']);
      expect(rs[0]?.ERR, l.define).toBe('');
      const end = rs.at(-1);
      expect(finished(end), JSON.stringify(rs.map((r) => r.ERR))).toBe(true);
      expect(end?.STATEMENT, JSON.stringify(end)).toBeDefined();
    }, 120_000);
  }
});

/** Held when written: lies and unlucky cases the kernel-read judge got right. */
describe('held: lies shown, unchecked meanings said so', () => {
  const { session } = useRealShell(['--timeout', '20']);

  it('a section variable named like the library\'s negb is not read as negb', async () => {
    const rs = await session([`DEFINE ${q('Section S. Variable negb : bool -> bool. Hypothesis H : forall b, negb b = b.')}`, `GOAL ${q('negb true = true')}`, 'APPLY (apply H)', 'END']);
    expect(finished(rs.at(-1)), JSON.stringify(rs.map((r) => r.ERR))).toBe(true);
    expect(JSON.stringify(rs.at(-1)?.STATEMENT ?? null)).toMatch(/Coq\.Init\.Datatypes\.negb/);
  }, 120_000);

  it('a local definition (Let) named like negb is not read as negb', async () => {
    const rs = await session([`DEFINE ${q('Section S. Let negb := fun b : bool => b.')}`, `GOAL ${q('negb true = true')}`, 'APPLY reflexivity', 'END']);
    expect(finished(rs.at(-1)), JSON.stringify(rs.map((r) => r.ERR))).toBe(true);
    expect(rs.at(-1)?.STATEMENT).toBeDefined();
  }, 120_000);

  it('a text cannot close the clean reading\'s parenthesis or sentence', async () => {
    for (const goal of ['False). Axiom arbor_x : (True', 'True. Axiom arbor_x : False', 'True) (* ']) {
      const rs = await session([`GOAL ${q(goal)}`]);
      expect(rs[0]?.ERR, goal).not.toBe('');
    }
  }, 120_000);

  it('a statement the clean environment cannot read in time is said to be unchecked, and the next lie is still shown', async () => {
    const rs = await session([
      `GOAL ${q('ltac:(do 15000000 idtac; exact (1 = 1))')}`, 'APPLY reflexivity', 'END',
      `DEFINE ${q('Notation "\'False\'" := True.')}`, `GOAL ${q('False')}`, 'APPLY (exact I)', 'END',
    ]);
    const slow = rs[2];
    if (finished(slow)) expect(slow?.STATEMENT, JSON.stringify(slow)).toBeDefined();
    expect(finished(rs.at(-1)), JSON.stringify(rs.map((r) => r.ERR))).toBe(true);
    expect(rs.at(-1)?.STATEMENT?.elaborated).toMatch(/Coq\.Init\.Logic\.True/);
  }, 180_000);
});
