import { describe, expect, it } from 'vitest';
import { finished, quoted as q, useRealShell } from './testing/real-shell.ts';

/**
 * The memoised assumption judgement (closed-constants.ts: each kernel name judged once per session) attacked
 * through the real arbor-shell: an assumption must never escape because an earlier judgement was remembered
 * — a lemma judged closed and then taken back and redefined under the same name, an untrusted library axiom (and a functor's parameter, a premise only while its functor is open),
 * section variables, kernel-check bypasses, literals (which force the full walk), names with primes and
 * unicode. All held when written.
 */
const FUNCTOR = 'Module Type T. Parameter cheat : False. End T. Module F (X : T).';
/** An assumption Arbor never trusts, reached as `X.cheat` (the axiom behind `admit`). */
const UNTRUSTED = 'Require Coq.Compat.AdmitAxiom. Module X. Notation cheat := Coq.Compat.AdmitAxiom.proof_admitted. End X.';
const PARAMETER_PREMISE = "X.cheat : False (field of the functor's parameter: a premise of the theorem, given by each module the functor is applied to)";

describe('closed constants: no assumption escapes through memoisation', () => {
  const { session } = useRealShell(['--timeout', '20']);

  it('a functor parameter is a premise, directly and after a closed lemma of the same functor was remembered; never remembered past its functor', async () => {
    const rs = await session([
      `DEFINE ${q(FUNCTOR)}`, `GOAL l ${q('True')}`, 'APPLY (exact I)', 'END', `GOAL m ${q('False')}`, 'APPLY (exact X.cheat)', 'END', `GOAL n ${q('False')}`, 'APPLY (exact m)', 'END',
      // After End F the parameter is gone: X.cheat now names the untrusted axiom, refused.
      `DEFINE ${q('End F.')}`, `DEFINE ${q(UNTRUSTED)}`, `GOAL o ${q('False')}`, 'APPLY (exact X.cheat)', 'END',
    ]);
    expect(finished(rs[3])).toBe(true);
    expect(rs[6]?.ERR).toBe('');
    expect(rs[6]?.ASSUMPTIONS).toEqual([PARAMETER_PREMISE]);
    // n uses m: m's premise is n's, judged again (nothing about a parameter is remembered).
    expect(rs[9]?.ASSUMPTIONS).toEqual([PARAMETER_PREMISE]);
    expect(rs[10]?.ERR).toBe('');
    expect(rs[14]?.ERR).toMatch(/^unsound: depends on .*proof_admitted/);
  }, 180_000);

  it('a lemma judged closed, taken back by REVERT and redefined under the same name with an assumption, is judged again', async () => {
    const rs = await session([
      `DEFINE ${q('Definition z := 0.')}`, `GOAL l ${q('True')}`, 'APPLY (exact I)', 'END',
      `GOAL uses_l ${q('True')}`, 'APPLY (exact l)', 'END',
      'REVERT 1',
      `DEFINE ${q(UNTRUSTED)}`, `GOAL l ${q('False')}`, 'APPLY (exact X.cheat)', 'END',
      `GOAL again ${q('False')}`, 'APPLY (exact l)', 'END',
    ]);
    expect(finished(rs[3])).toBe(true);
    expect(finished(rs[6])).toBe(true);
    expect(rs[7]?.ERR).toBe('');
    expect(rs[11]?.ERR).toMatch(/^unsound/);
    expect(rs.slice(8).filter(finished)).toEqual([]);
  }, 180_000);

  it('a joint closure with a closed library lemma and an untrusted axiom is not judged closed', async () => {
    const rs = await session([`DEFINE ${q(UNTRUSTED)}`, `GOAL m ${q('0 + 0 = 0 /\\ False')}`, 'APPLY (exact (conj (Nat.add_0_r 0) X.cheat))', 'END']);
    expect(rs[3]?.ERR).toMatch(/^unsound: depends on .*proof_admitted/);
  }, 180_000);

  it('literals force the full walk and still see the axiom (string, numeral, primitive integer)', async () => {
    const rs = await session([
      `DEFINE ${q(`Require Import Coq.Strings.String Coq.Numbers.Cyclic.Int63.PrimInt63. ${UNTRUSTED}`)}`,
      `GOAL m ${q('("a"%string = "a"%string /\\ 1000 = 1000 /\\ 3%uint63 = 3%uint63) /\\ False')}`,
      'APPLY (exact (conj (conj eq_refl (conj eq_refl eq_refl)) X.cheat))', 'END',
    ]);
    expect(rs[0]?.ERR).toBe('');
    expect(rs[3]?.ERR).toMatch(/^unsound/);
  }, 180_000);

  it('names with primes and unicode: a remembered closed lemma does not hide an axiom used beside it', async () => {
    const rs = await session([
      `DEFINE ${q(UNTRUSTED)}`, `GOAL l' ${q('True')}`, 'APPLY (exact I)', 'END',
      `DEFINE ${q("Lemma λ₁ : True. Proof. exact l'. Qed. Definition ℱalse' := λ₁.")}`,
      `GOAL m'' ${q('True /\\ False')}`, "APPLY (exact (conj ℱalse' X.cheat))", 'END',
      `GOAL m' ${q('True /\\ True')}`, "APPLY (exact (conj ℱalse' λ₁))", 'END',
    ]);
    expect(finished(rs[3])).toBe(true);
    expect(rs[4]?.ERR).toBe('');
    expect(rs[7]?.ERR).toMatch(/^unsound/);
    expect(finished(rs[10]), JSON.stringify(rs[10])).toBe(true);
  }, 180_000);

  // Names are data (issue 24 item 1): the protocol's name grammar takes what coqc takes (`Lemma λ₁ : True.`,
  // `Lemma αβ' : …`), and a later item uses the theorem by that name.
  it('GOAL takes a theorem name with unicode letters, as coqc does', async () => {
    const rs = await session([`GOAL λ₁ ${q('True')}`, 'APPLY (exact I)', 'END', `GOAL αβ' ${q('True /\\ True')}`, 'APPLY (exact (conj λ₁ λ₁))', 'END']);
    expect(finished(rs[2])).toBe(true);
    expect(finished(rs[5]), JSON.stringify(rs[5])).toBe(true);
  }, 120_000);

  it('kernel-check bypasses cannot be reached by a remembered global (attribute, Local/Export Unset, Type in Type)', async () => {
    for (const decl of [
      '#[bypass_check(guard)] Fixpoint f (n : nat) : False := f n.',
      'Local Unset Guard Checking. Fixpoint f (n : nat) : False := f n.',
      'Module M. Export Unset Positivity Checking. End M. Import M. Inductive f : Prop := c : (f -> False) -> f.',
      'Unset Universe Checking. Definition f := Type.',
      '#[universes(polymorphic)] Definition f@{u} := Type@{u}. Unset Universe Checking.',
    ]) {
      const rs = await session([`GOAL ok ${q('True')}`, 'APPLY (exact I)', 'END', `DEFINE ${q(decl)}`, `GOAL bad ${q('False')}`, 'APPLY (exact (ok_is_not_this f))', 'APPLY (exact (f 0))', 'END']);
      expect(finished(rs[2])).toBe(true);
      expect(rs[3]?.ERR, decl).not.toBe('');
      expect(rs.slice(4).filter(finished), decl).toEqual([]);
    }
  }, 300_000);

  it('section variables are shown as hypotheses of the goal (what the theorem is proved under), never hidden', async () => {
    const rs = await session([`DEFINE ${q('Section S. Variable h : False. Let k : False := h.')}`, `GOAL l ${q('False')}`, 'APPLY (exact k)', 'END']);
    const hyps = ((rs[1]?.RESPONSE as { ctxt?: { hyps?: { name: string; expr: string }[] } } | null)?.ctxt?.hyps ?? []).map((h) => `${h.name}:${h.expr}`);
    expect(hyps).toContain('h:False');
    expect(hyps).toContain('k:False');
  }, 180_000);
});
