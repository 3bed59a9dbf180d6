import { describe, expect, it } from 'vitest';
import { finished, quoted as q, useRealShell } from './testing/real-shell.ts';
import { useRealClient } from './testing/real-client.ts';
import { theoremMeaning } from './theorem-meaning.ts';

/**
 * Attacks on the statement judge's identity (session 13): two readings are the same statement exactly when the
 * plugin's kernel texts (`Arbor_statement`'s `Kernel`: canonical kernel names, de Bruijn indices, no binder names,
 * no universe levels) are equal. Through the real arbor-shell and real coqidetop, by a helper who did not build it.
 * Every break it found is fixed (docs/statement-identity-attacks.md, "Fixed"); all cases are plain tests.
 */
describe('universe levels the kernel text leaves out', () => {
  const { session } = useRealShell(['--timeout', '20']);

  /**
   * Break (soundness). `Type` stands for a level, and the kernel text writes every level `Type`. The proof of a
   * monomorphic theorem fixes the statement's levels: Hurkens' paradox (`Coq.Logic.Hurkens`, no axiom) proves
   * `forall A : Type, Type = A -> False` once its proof has made both `Type`s the same level; the clean reading
   * (an axiom, its levels free) is refuted by `fun H => H Type eq_refl`, and the document proves exactly that
   * refutation as a second theorem. Both theorems — a text and its negation — pass as meaning what they say.
   */
  it('a text and its literal negation are not both "means what it says"', async () => {
    const rs = await session([
      `DEFINE ${q('Require Coq.Logic.Hurkens.')}`,
      `GOAL t1 ${q('forall A : Type, Type = A -> False')}`, 'APPLY (intros A h; exact (Hurkens.TypeNeqSmallType.paradox A h))', 'END',
      `GOAL t2 ${q('~ (forall A : Type, Type = A -> False)')}`, 'APPLY (intro H; exact (H Type eq_refl))', 'END',
    ]);
    const t1 = rs[3];
    const t2 = rs[6];
    expect(finished(t1), JSON.stringify(rs.map((r) => r.ERR))).toBe(true);
    expect(finished(t2), JSON.stringify(rs.map((r) => r.ERR))).toBe(true);
    expect(t1?.ASSUMPTIONS).toEqual([]);
    expect(t2?.ASSUMPTIONS).toEqual([]);
    // At most one of two contradictory texts may be said to mean what it says.
    expect(t1?.STATEMENT !== undefined || t2?.STATEMENT !== undefined, JSON.stringify([t1, t2].map((r) => r?.STATEMENT ?? null))).toBe(true);
  }, 120_000);

  /** The same, shorter: `Type <> Type` (Hurkens, the two levels made one below the other) and `Type = Type` (`reflexivity`). */
  it('`Type <> Type` and `Type = Type` are not both "means what it says"', async () => {
    const rs = await session([
      `DEFINE ${q('Require Coq.Logic.Hurkens.')}`,
      `GOAL t3 ${q('~ (Type = Type)')}`, 'APPLY (intro h; exact (Hurkens.TypeNeqSmallType.paradox _ h))', 'END',
      `GOAL t4 ${q('Type = Type')}`, 'APPLY reflexivity', 'END',
    ]);
    const [t3, t4] = [rs[3], rs[6]];
    expect(finished(t3) && finished(t4), JSON.stringify(rs.map((r) => r.ERR))).toBe(true);
    expect(t3?.ASSUMPTIONS).toEqual([]);
    expect(t3?.STATEMENT !== undefined || t4?.STATEMENT !== undefined, JSON.stringify([t3, t4].map((r) => r?.STATEMENT ?? null))).toBe(true);
  }, 120_000);
});

/**
 * Break (false alarm). The clean environment runs the document's library sentences (`Open Scope`, `Import`) one
 * after the other at its top level, but in the document a scope opened inside a `Section` or a `Module` is closed
 * again at its `End`. An honest `1 + 1 = 2` on nat, written after it, is read on Z in the clean environment and
 * flagged ("here … nat … stands where a clean reading has … Z …").
 */
describe('a scope the document opened and closed again', () => {
  const { session } = useRealShell(['--timeout', '20']);

  const honest: { name: string; define: string; goal: string }[] = [
    { name: 'opened inside a Section', define: 'Section S. Open Scope Z_scope. End S.', goal: '1 + 1 = 2' },
    { name: 'opened inside a Module', define: 'Module M. Open Scope Z_scope. End M.', goal: '0 - 1 = 0' },
  ];
  for (const h of honest) {
    it(`no STATEMENT: ${h.name}`, async () => {
      const rs = await session([`DEFINE ${q(h.define)}`, `GOAL ${q(h.goal)}`, 'APPLY reflexivity', 'END']);
      expect(finished(rs.at(-1)), JSON.stringify(rs.map((r) => r.ERR))).toBe(true);
      expect(rs.at(-1)?.STATEMENT, JSON.stringify(rs.at(-1)?.STATEMENT)).toBeUndefined();
    }, 120_000);
  }
});

/** The same universe break without the plugin on the document's side (the printed text decides): both pass too. */
describe('universe levels, without the plugin in the document', () => {
  const client = useRealClient();

  it('a text and its literal negation are not both "means what it says" (printed path)', async () => {
    const c = client();
    const declarations = ['Require Coq.Logic.Hurkens.'];
    for (const s of [...declarations,
      'Theorem t1 : (forall A : Type, Type = A -> False).', 'Proof.', 'intros A h; exact (Hurkens.TypeNeqSmallType.paradox A h).', 'Qed.',
      'Theorem t2 : (~ (forall A : Type, Type = A -> False)).', 'Proof.', 'intro H; exact (H Type eq_refl).', 'Qed.']) await c.add(s, 60_000);
    const m1 = await theoremMeaning(c, {}, 't1', 'forall A : Type, Type = A -> False', declarations);
    const m2 = await theoremMeaning(c, {}, 't2', '~ (forall A : Type, Type = A -> False)', declarations);
    expect(m1 !== undefined || m2 !== undefined, JSON.stringify([m1, m2])).toBe(true);
  }, 120_000);
});

/**
 * Break (false alarm). Equal kernel texts are meant to decide ("means what it says, full stop"), yet after them the
 * judge still reads the printed term for project names nobody wrote (`unwrittenProjectNames`), with no project at all.
 * A primitive integer prints `0x3` under `Set Printing All`; the printed-term reader takes it for `0` applied to a
 * name `x3`, which is no `Coq.` name, so it is "the project's `x3`… not written in the text": an honest statement on
 * primitive arrays is flagged although both kernel texts are the same.
 */
describe('equal kernel texts, flagged by what the printed reader makes of a primitive integer', () => {
  const { session } = useRealShell(['--timeout', '20']);

  it('no STATEMENT: PArray.get (PArray.make 3 7) 1 = 7', async () => {
    const rs = await session([`DEFINE ${q('From Coq Require Import Uint63 PArray.')}`, `GOAL ${q('PArray.get (PArray.make 3 7) 1 = 7')}`, 'APPLY reflexivity', 'END']);
    expect(finished(rs.at(-1)), JSON.stringify(rs.map((r) => r.ERR))).toBe(true);
    expect(rs.at(-1)?.STATEMENT, JSON.stringify(rs.at(-1)?.STATEMENT)).toBeUndefined();
  }, 120_000);
});

/** Held when written. */
describe('held: the kernel identity', () => {
  const { session } = useRealShell(['--timeout', '30']);

  const honest: { name: string; define: string; goal: string; tactic: string }[] = [
    // A polymorphic theorem's levels are bound, an axiom's global: both are `Type` in the kernel text.
    { name: 'under Set Universe Polymorphism', define: 'Set Universe Polymorphism.', goal: 'forall (A : Type) (l : list A), rev (rev l) = l', tactic: 'exact rev_involutive' },
    // The document's own primitive record does not change how the library's pairs read.
    { name: 'after a primitive-projection record of the document', define: 'Set Primitive Projections. Record pt := { px : nat; py : nat }. Unset Primitive Projections.', goal: 'forall p : nat * nat, fst p + snd p = snd p + fst p', tactic: 'intros; lia' },
  ];
  for (const h of honest) {
    it(`no STATEMENT: ${h.name}`, async () => {
      const rs = await session([`DEFINE ${q(h.define)}`, `GOAL ${q(h.goal)}`, `APPLY (${h.tactic})`, 'END']);
      expect(finished(rs.at(-1)), JSON.stringify(rs.map((r) => r.ERR))).toBe(true);
      expect(rs.at(-1)?.STATEMENT, JSON.stringify(rs.at(-1)?.STATEMENT)).toBeUndefined();
    }, 120_000);
  }

  // A module alias named like a library module: the document's `N.add` is Nat's, the clean `N.add` is BinNat's.
  it('a document alias `Module N := Coq.Init.Nat` is not read as the library N', async () => {
    const rs = await session([`DEFINE ${q('Module N := Coq.Init.Nat.')}`, `GOAL ${q('N.add 1 1 = 2')}`, 'APPLY reflexivity', 'END']);
    expect(finished(rs.at(-1)), JSON.stringify(rs.map((r) => r.ERR))).toBe(true);
    expect(rs.at(-1)?.STATEMENT).toBeDefined();
  }, 120_000);

  /**
   * A 19-character `ltac:` builds a statement of 2^16 additions by sharing (a small DAG, a huge tree): the plugin's
   * printed text (7 MB) and kernel text (10 MB) take seconds to write. END still answers (the clean environment's
   * reading is said to be unavailable, its coqidetop restarted), and the next lie is still shown.
   */
  it('a statement whose kernel text is 10 MB: END answers, the next lie is still shown', async () => {
    const body = `let a := constr:(0) in ${'let a := constr:(a + a) in '.repeat(16)}exact (a = a)`;
    const rs = await session([
      `GOAL ${q(`ltac:(${body})`)}`, 'APPLY reflexivity', 'END',
      `DEFINE ${q('Notation "\'False\'" := True.')}`, `GOAL ${q('False')}`, 'APPLY (exact I)', 'END',
    ]);
    expect(finished(rs[2]), JSON.stringify(rs.map((r) => r.ERR))).toBe(true);
    expect(finished(rs.at(-1)), JSON.stringify(rs.map((r) => r.ERR))).toBe(true);
    expect(rs.at(-1)?.STATEMENT).toBeDefined();
  }, 300_000);
});
