import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runProcess } from '../../process/process-manager.ts';
import { CoqSession } from './coq-session.ts';
import { ProverError } from '../../shell/prover-session.ts';
import { coqBackend } from './coq-backend.ts';
import { finished, quoted as q, useRealShell, useScratchDir } from './testing/real-shell.ts';

/**
 * Attacks on END's assumption judge reading Arbor's Coq plugin (`Arbor_references`, closed-constants.ts):
 * "proved" only when every axiom and every kernel-check bypass the theorem reaches is trusted.
 */
/** The axiom behind `admit`: Arbor never trusts it. */
const ADMIT = 'Coq.Compat.AdmitAxiom.proof_admitted';

const finishOf = async (prelude: string, goal: string, tactics: string[]): Promise<unknown> => {
  const s = await coqBackend.open({ timeoutMs: 20_000, prelude });
  try {
    await s.start(goal, 't');
    for (const tactic of tactics) await s.step({ kind: 'apply', tactic });
    return await (s.finish as () => Promise<unknown>).call(s).catch((e: unknown) => e);
  } finally {
    await s.dispose();
  }
};

describe('the theorem\'s own kernel-check flags (the plugin lists its references, never the theorem itself)', () => {
  it('a prelude that switched guard checking off: a non-guarded fix inside the proof proves nothing', async () => {
    const r = await finishOf('Unset Guard Checking.', 'False', ['exact ((fix f (n : nat) : False := f n) 0)']);
    expect(r).toBeInstanceOf(ProverError);
    expect((r as ProverError).message).toMatch(/^unsound: depends on switched-off kernel checks/);
  }, 120_000);

  it('a prelude that switched universe checking off: Hurkens\'s paradox inside the proof proves nothing', async () => {
    const r = await finishOf('Require Import Coq.Logic.Hurkens. Unset Universe Checking.', 'False', ['exact (TypeNeqSmallType.paradox Type eq_refl)']);
    expect(r).toBeInstanceOf(ProverError);
    expect((r as ProverError).message).toMatch(/^unsound: depends on switched-off kernel checks/);
  }, 120_000);
});

describe('the memo of walked globals is keyed by a Nametab path, and a functor parameter\'s fields print as `Param.field`', () => {
  const { session } = useRealShell(['--timeout', '20']);

  // Inside `Module F (Top : Sig)` the parameter's field `d` prints as `Top.d`: the very path a later document
  // constant `d` has. The memo's entry for `Top.d` (closed: a Definition of the signature) must not vouch for it.
  it('a functor parameter named Top: its field\'s memo must not stand for the document\'s later Top.d that rests on proof_admitted', async () => {
    const rs = await session([
      `DEFINE ${q('Module Type Sig. Definition d : nat := 0. End Sig.')}`,
      `DEFINE ${q('Module F (Top : Sig).')}`,
      `GOAL v ${q('Top.d = 0')}`, 'APPLY (reflexivity)', 'END',
      `DEFINE ${q('End F.')}`,
      `DEFINE ${q(`Require Coq.Compat.AdmitAxiom. Definition d : False := ${ADMIT}.`)}`,
      `GOAL w ${q('False')}`, 'APPLY (exact d)', 'END',
    ]);
    expect(rs.slice(0, 2).map((r) => r.ERR)).toEqual(['', '']);
    expect(finished(rs[4]), JSON.stringify(rs[4])).toBe(true);
    expect(rs.slice(5, 7).map((r) => r.ERR)).toEqual(['', '']);
    expect(rs[9]?.ERR, JSON.stringify(rs[9])).toMatch(/^unsound: depends on/);
  }, 240_000);

  // The same with a parameter named Coq: the memo of a path under `Coq.` is never forgotten (not the document's).
  it('a functor parameter named Coq: its field\'s memo must not stand for the library\'s proof_admitted', async () => {
    const rs = await session([
      `DEFINE ${q('Module Type Sig2. Module Compat. Module AdmitAxiom. Definition proof_admitted : nat := 0. End AdmitAxiom. End Compat. End Sig2.')}`,
      `DEFINE ${q('Module G (Coq : Sig2).')}`,
      `GOAL v ${q('Coq.Compat.AdmitAxiom.proof_admitted = 0')}`, 'APPLY (reflexivity)', 'END',
      `DEFINE ${q('End G.')}`,
      `DEFINE ${q('Require Coq.Compat.AdmitAxiom.')}`,
      `GOAL w ${q('False')}`, `APPLY (exact ${ADMIT})`, 'END',
    ]);
    expect(rs.slice(0, 2).map((r) => r.ERR)).toEqual(['', '']);
    expect(finished(rs[4]), JSON.stringify(rs[4])).toBe(true);
    expect(rs.slice(5, 7).map((r) => r.ERR)).toEqual(['', '']);
    expect(rs[9]?.ERR, JSON.stringify(rs[9])).toMatch(/^unsound: depends on .*proof_admitted/);
  }, 240_000);

  // Trust is by the path `Locate Term` prints: a field of a parameter named Coq prints as the library's axiom.
  it('a functor parameter named Coq: its field Coq.Logic.Classical_Prop.classic : False is a premise, not the trusted excluded middle', async () => {
    const rs = await session([
      `DEFINE ${q('Module Type Sig. Module Logic. Module Classical_Prop. Parameter classic : False. End Classical_Prop. End Logic. End Sig.')}`,
      `DEFINE ${q('Module F (Coq : Sig).')}`,
      `GOAL t ${q('False')}`, 'APPLY (exact Coq.Logic.Classical_Prop.classic)', 'END',
    ]);
    expect(rs.slice(0, 2).map((r) => r.ERR)).toEqual(['', '']);
    const end = rs[4] as { ERR: string; ASSUMPTIONS?: string[] };
    if (end.ERR === '') expect(end.ASSUMPTIONS?.join('\n'), JSON.stringify(end.ASSUMPTIONS)).toMatch(/functor's parameter/);
    else expect(end.ERR).toMatch(/^unsound/);
  }, 240_000);
});

describe('END through the plugin: axioms in disguise are still found (real arbor-shell)', () => {
  const { session, channel } = useRealShell(['--timeout', '20']);
  const REQUIRE = 'Require Coq.Compat.AdmitAxiom.';
  /** DEFINE `decl` (after loading the admit axiom), then prove False by `tactic`: END must refuse. */
  const refused = async (decl: string, tactic: string, statement = 'False'): Promise<void> => {
    const rs = await session([`DEFINE ${q(`${REQUIRE} ${decl}`)}`, `GOAL t ${q(statement)}`, `APPLY (${tactic})`, 'END']);
    expect(rs[0]?.ERR, decl).toBe('');
    expect(rs[2]?.ERR, tactic).toBe('');
    expect(rs[3]?.ERR, JSON.stringify(rs[3]?.ERR)).toMatch(/^unsound: depends on .*proof_admitted/);
  };

  it('through an earlier definition, a chain of two', () => refused(`Definition d : False := ${ADMIT}. Definition d2 : False := d.`, 'exact d2'), 120_000);
  it('through a module alias', () => refused(`Module M. Definition w : False := ${ADMIT}. End M. Module N := M.`, 'exact N.w'), 120_000);
  it('through Include (refused by the policy inside a module, or judged)', async () => {
    const rs = await session([`DEFINE ${q(`${REQUIRE} Module A. Definition w : False := ${ADMIT}. End A. Module B. Include A. End B.`)}`, `GOAL t ${q('False')}`, 'APPLY (exact B.w)', 'END']);
    expect(rs[0]?.ERR === '' ? rs[3]?.ERR : rs[0]?.ERR).toMatch(/^unsound: depends on .*proof_admitted|not allowed/);
  }, 120_000);
  it('through a functor applied to a module resting on it', () => refused(`Module Type S. Parameter p : False. End S. Module Bad. Definition p : False := ${ADMIT}. End Bad. Module F (X : S). Definition q : False := X.p. End F. Module A := F Bad.`, 'exact A.q'), 120_000);
  it('through abstract', () => refused('', `abstract exact ${ADMIT}`), 120_000);
  it('through transparent_abstract', () => refused('', `transparent_abstract exact ${ADMIT}`), 120_000);
  it('through a type class instance', () => refused(`Class C := { c : False }. #[export] Instance i : C := { c := ${ADMIT} }.`, 'exact c'), 120_000);
  it('through Existing Instance', () => refused(`Class C := { c : False }. Definition i : C := {| c := ${ADMIT} |}. #[export] Existing Instance i.`, 'exact c'), 120_000);
  it('through a canonical structure', () => refused(`Structure S := { car : Type; pt : car }. Definition FS : S := {| car := False; pt := ${ADMIT} |}. Canonical Structure FS.`, 'exact (pt _ : False)'), 120_000);
  it('through a universe-polymorphic definition', () => refused(`#[universes(polymorphic)] Definition pf (A : Type) : False := ${ADMIT}.`, 'exact (pf nat)'), 120_000);
  it('through a Let of an open section (inlined at End, never a premise)', () => refused(`Section Sec. Let h : False := ${ADMIT}.`, 'exact h'), 120_000);
  it('through a section Let reached by a lemma of the section', () => refused(`Section Sec. Let h : False := ${ADMIT}. Definition l : False := h.`, 'exact l'), 120_000);
  it('through an Opaque-marked definition', () => refused(`Definition d : False := ${ADMIT}. Opaque d.`, 'exact d'), 120_000);
  it('through a projection of a record', () => refused(`Record R := { f : False }. Definition r : R := {| f := ${ADMIT} |}.`, 'exact (f r)'), 120_000);
  it('through a match on an inductive whose constructor rests on it', () => refused(`Inductive B := b : False -> B. Definition x : B := b ${ADMIT}.`, 'exact (match x with b h => h end)'), 120_000);
  it('through a Program obligation proved by the axiom (or Program refused)', async () => {
    const rs = await session([`DEFINE ${q(`${REQUIRE} Program Definition p : {n : nat | False} := 0. Next Obligation. exact ${ADMIT}. Qed.`)}`, `GOAL t ${q('False')}`, 'APPLY (exact (proj2_sig p))', 'END']);
    expect(rs[0]?.ERR === '' ? rs[3]?.ERR : rs[0]?.ERR, JSON.stringify(rs.map((r) => r.ERR))).toMatch(/^unsound: depends on .*proof_admitted|not allowed/);
  }, 120_000);
  it('a theorem named like a library global (nat) on the axiom', async () => {
    const rs = await session([`DEFINE ${q(`${REQUIRE} Definition d : False := ${ADMIT}.`)}`, `GOAL nat ${q('False')}`, 'APPLY (exact d)', 'END']);
    expect(rs[3]?.ERR, JSON.stringify(rs.map((r) => r.ERR))).toMatch(/^unsound: depends on .*proof_admitted|^parse error/);
  }, 120_000);
  it('a theorem named with a prime and a unicode letter', async () => {
    const rs = await session([`DEFINE ${q(`${REQUIRE} Definition d : False := ${ADMIT}.`)}`, `GOAL α_t' ${q('False')}`, 'APPLY (exact d)', 'END']);
    expect(rs[3]?.ERR, JSON.stringify(rs.map((r) => r.ERR))).toMatch(/^unsound: depends on .*proof_admitted/);
  }, 120_000);
  it('a theorem named like an abbreviation and a global of another module', async () => {
    const rs = await session([`DEFINE ${q(`${REQUIRE} Module M. Definition t : False := ${ADMIT}. End M. Notation u := I.`)}`, `GOAL t ${q('False')}`, 'APPLY (exact M.t)', 'END', `GOAL u ${q('False')}`, 'APPLY (exact t)', 'END']);
    expect(rs[3]?.ERR, JSON.stringify(rs.map((r) => r.ERR))).toMatch(/^unsound: depends on .*proof_admitted/);
    // Coq itself refuses a theorem named like an abbreviation.
    expect(rs[4]?.ERR, JSON.stringify(rs.map((r) => r.ERR))).toMatch(/already exists/);
  }, 120_000);

  it('a theorem inside an open Module Type on its Parameter (a field, not a functor\'s parameter)', async () => {
    const rs = await session([`DEFINE ${q('Module Type S. Parameter ax : False.')}`, `GOAL t ${q('False')}`, 'APPLY (exact ax)', 'END']);
    expect(rs[0]?.ERR === '' ? rs[3]?.ERR : rs[0]?.ERR, JSON.stringify(rs.map((r) => r.ERR))).toMatch(/^unsound: depends on .*ax|not allowed/);
  }, 120_000);

  it('REVERT below a definition the memo judged closed, then the same name redefined on the axiom', async () => {
    const send = await channel();
    const rs = [];
    for (const r of [`DEFINE ${q(REQUIRE)}`, `DEFINE ${q('Definition d : nat := 0.')}`, `GOAL a ${q('d = 0')}`, 'APPLY (reflexivity)', 'END']) rs.push(await send(r));
    expect(finished(rs[4])).toBe(true);
    const step = (rs[1] as { STEP?: number }).STEP;
    expect(typeof step).toBe('number');
    rs.push(await send(`REVERT ${(step as number) - 1}`));
    for (const r of [`DEFINE ${q(`Definition d : False := ${ADMIT}.`)}`, `GOAL b ${q('False')}`, 'APPLY (exact d)', 'END']) rs.push(await send(r));
    expect(rs[5]?.ERR, JSON.stringify(rs[5])).toBe('');
    expect(rs[9]?.ERR, JSON.stringify(rs.slice(5).map((r) => r.ERR))).toMatch(/^unsound: depends on .*proof_admitted/);
  }, 180_000);
});

describe('END through the plugin beside a trusted project\'s -Q (real coqc, coqidetop)', () => {
  const dir = useScratchDir('plugin-judge-');
  it('the plugin loads beside -Q: a lemma on the project\'s closed lemma is proved, one on its admitted lemma is not', async () => {
    await writeFile(join(dir(), 'Lib.v'), 'Lemma lem : True.\nProof. exact I. Qed.\nLemma bad : False.\nProof. Admitted.\n');
    const c = await runProcess({ program: 'coqc', args: ['-Q', '.', 'P', 'Lib.v'], cwd: dir(), timeoutMs: 120_000, sandbox: { writable: [dir()] } });
    expect(c.exitCode, c.stderr).toBe(0);
    const s = await CoqSession.open({ timeoutMs: 20_000, project: { args: ['-Q', dir(), 'P'], readOnly: [dir()] } });
    try {
      await s.define('Require Import P.Lib.');
      await s.start('True', 'ok');
      await s.step({ kind: 'apply', tactic: 'exact lem' });
      await s.finish();
      await s.start('False', 'no');
      await s.step({ kind: 'apply', tactic: 'exact bad' });
      const r = await s.finish().catch((e: unknown) => e);
      expect((r as Error).message).toMatch(/^unsound: depends on .*bad/);
    } finally {
      await s.dispose();
    }
  }, 240_000);
});

describe('END through the plugin: honest users', () => {
  const { session } = useRealShell(['--timeout', '20']);

  it('the sandboxed coqidetop loads the plugin: a proof by lia is judged from its references, no fallback', async () => {
    const s = await CoqSession.open({ timeoutMs: 20_000 });
    try {
      await s.start('forall a b : nat, a + b = b + a', 'comm');
      await s.step({ kind: 'apply', tactic: 'intros; lia' });
      await s.finish();
      expect(s.closedConstants.stats).toMatchObject({ judged: 1, fallbacks: 0 });
    } finally {
      await s.dispose();
    }
  }, 120_000);

  it('a user identifier named Arbor_references, and a DEFINE calling the query, change nothing', async () => {
    const rs = await session([`DEFINE ${q('Definition Arbor_references := 0.')}`, `GOAL Arbor_references2 ${q('Arbor_references = 0')}`, 'APPLY (reflexivity)', 'END', `DEFINE ${q('Arbor_references Arbor_references2.')}`]);
    expect(rs[0]?.ERR).toBe('');
    expect(finished(rs[3]), JSON.stringify(rs[3]?.ERR)).toBe(true);
    expect(rs[4]?.ERR).toMatch(/not allowed: Arbor_references/);
  }, 120_000);
  // The plugin names each global by its path; a path whose first word became a keyword cannot be sent back.
  it('a notation that makes Top a keyword: an honest proof on the document\'s definition is still proved', async () => {
    const rs = await session([`DEFINE ${q('Definition x := 0. Notation "\'Top\'" := 1 (only parsing).')}`, `GOAL t ${q('x = 0')}`, 'APPLY (reflexivity)', 'END']);
    expect(rs[0]?.ERR).toBe('');
    expect(finished(rs[3]), JSON.stringify(rs[3]?.ERR)).toBe(true);
  }, 120_000);
  it('a notation that makes Coq a keyword: an honest proof by lia is still proved', async () => {
    const rs = await session([`DEFINE ${q('Notation "\'Coq\'" := 1 (only parsing).')}`, `GOAL t ${q('forall n : nat, n + 1 = S n')}`, 'APPLY (intros; lia)', 'END']);
    expect(rs[0]?.ERR).toBe('');
    expect(finished(rs[3]), JSON.stringify(rs[3]?.ERR)).toBe(true);
  }, 120_000);
  it('PRELUDE bare: an honest proof is proved', async () => {
    const rs = await session(['PRELUDE bare', `GOAL t ${q('forall n : nat, n = n')}`, 'APPLY (intros; reflexivity)', 'END']);
    expect(finished(rs[3]), JSON.stringify(rs[3]?.ERR)).toBe(true);
  }, 120_000);
  // Coq's Print Assumptions lists the primitive type `int` and its operations as axioms: they are the kernel's own
  // (assumptions.ts primitiveLibraryAxiom), trusted by kernel name and shown, as `classic` is.
  it('a primitive integer literal (Unreadable, Print Assumptions fallback) is proved, the primitive type shown', async () => {
    const rs = await session([`DEFINE ${q('Require Import Uint63.')}`, `GOAL t ${q('(2 + 2 = 4)%uint63')}`, 'APPLY (reflexivity)', 'END']);
    expect(rs[0]?.ERR).toBe('');
    expect(finished(rs[3]), JSON.stringify(rs[3]?.ERR)).toBe(true);
    expect(rs[3]?.ASSUMPTIONS).toEqual(['int : Set']);
  }, 120_000);
  it('floats and their specification axioms (FloatAxioms) are proved and shown', async () => {
    const rs = await session([
      `DEFINE ${q('From Coq Require Import Floats.')}`,
      `GOAL f ${q('forall x : float, (x + 0 = x + 0)%float')}`, 'APPLY (intros; reflexivity)', 'END',
      `GOAL g ${q('forall x : float, Prim2SF (- x)%float = SFopp (Prim2SF x)')}`, 'APPLY (intros; apply opp_spec)', 'END',
    ]);
    expect(rs[0]?.ERR).toBe('');
    expect(finished(rs[3]), JSON.stringify(rs[3])).toBe(true);
    expect(rs[3]?.ASSUMPTIONS).toEqual(['float : Set', 'add : float -> float -> float']);
    expect(finished(rs[6]), JSON.stringify(rs[6])).toBe(true);
    expect(JSON.stringify(rs[6]?.ASSUMPTIONS)).toMatch(/opp_spec/);
  }, 180_000);
  it('an axiom printed by a name a notation made a keyword (land, lor after Import Uint63) is located by the plugin and judged', async () => {
    const rs = await session([`DEFINE ${q('From Coq Require Import Uint63.')}`, `GOAL t ${q('forall x y : int, (x + y = y + x)%uint63')}`, 'APPLY (intros; apply Uint63.add_comm)', 'END']);
    expect(finished(rs[3]), JSON.stringify(rs[3])).toBe(true);
    expect(rs[3]?.ASSUMPTIONS).toEqual(expect.arrayContaining(['land : int -> int -> int', 'lor : int -> int -> int', 'int : Set']));
  }, 120_000);
  it('a theorem inside an open section using its variable is proved under it', async () => {
    const rs = await session([`DEFINE ${q('Section S. Variable n : nat.')}`, `GOAL t ${q('n = n')}`, 'APPLY (reflexivity)', 'END']);
    expect(finished(rs[3]), JSON.stringify(rs[3]?.ERR)).toBe(true);
  }, 120_000);
  it('two channels each judge with the plugin', async () => {
    const [a, b] = await Promise.all([
      session([`GOAL t ${q('forall n : nat, n + 0 = n')}`, 'APPLY (intros; lia)', 'END']),
      session([`GOAL t ${q('forall n : nat, 0 + n = n')}`, 'APPLY (intros; lia)', 'END']),
    ]);
    expect(finished(a?.[2]), JSON.stringify(a?.[2]?.ERR)).toBe(true);
    expect(finished(b?.[2]), JSON.stringify(b?.[2]?.ERR)).toBe(true);
  }, 180_000);
});
