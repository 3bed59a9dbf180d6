import { describe, expect, it } from 'vitest';
import { finished, quoted as q, useRealShell } from './testing/real-shell.ts';

/**
 * Attacks on trusting Coq's primitive-number libraries by kernel name (assumptions.ts primitiveLibraryAxiom):
 * `Print Assumptions` of a proof over floats/ints/arrays lists `float`, `eqb`… and they are now trusted.
 */
describe('primitive libraries trusted: soundness', () => {
  const { session } = useRealShell(['--timeout', '30']);

  // Coq 8.16.1's native compiler evaluates a float variable under a binder to garbage (coq/coq#17871, fixed
  // after 8.16): `native_compute` plus `exact_no_check` pass Qed (the kernel's native conversion has the same bug).
  // Print Assumptions lists only `float : Set` and `eqb`, now trusted, so False is reported finished.
  // (Before 42d45a7 it was refused: "depends on float".) coqidetop with `-native-compiler no` refuses it.
  it('False through native_compute on primitive floats (coq#17871) is never reported finished', async () => {
    const rs = await session([
      `DEFINE ${q('From Coq Require Import Floats. Open Scope float_scope.')}`,
      `GOAL boom ${q('False')}`,
      'APPLY (assert (foo : forall x y : float, (x =? 0x0.055bbc3ac8a1p-1022)%float = true -> (y =? 0x0.055bbc3ac8a1p-1022)%float = true) by (intros x y H; native_compute; exact_no_check H))',
      'APPLY (generalize (foo 0x0.055bbc3ac8a1p-1022%float 1%float); cbv; intro H; specialize (H eq_refl); congruence)',
      'END',
    ]);
    expect(rs[0]?.ERR).toBe('');
    expect(finished(rs[4]), JSON.stringify(rs[4])).toBe(false);
  }, 180_000);

  // Coq 8.16.1's `Sint63.asr_spec` (a trusted Sint63 axiom) is false of the kernel's `asr`: the primitive gives 0
  // for a shift >= 63, the axiom says `to_Z (-1) / 2 ^ 63 = -1` (coq/coq#22462, fixed in Rocq 9.2 after 2026-09).
  // No Import (so PrimInt63's names print qualified and resolve): False with only primitive-library axioms.
  it('False from Sint63.asr_spec (coq#22462) is never reported finished', async () => {
    const rs = await session([
      `DEFINE ${q('From Coq Require Sint63 Uint63.')}`,
      `GOAL boom ${q('False')}`,
      'APPLY (pose proof (Sint63.asr_spec Uint63.max_int Uint63.digits) as H; vm_compute in H; discriminate H)',
      'END',
    ]);
    expect(rs[0]?.ERR).toBe('');
    expect(rs[2]?.ERR).toBe('');
    expect(finished(rs[3]), JSON.stringify(rs[3])).toBe(false);
  }, 180_000);
});

/**
 * False alarms: after `Import Uint63`/`Sint63`, Print Assumptions prints PrimInt63's `land`, `lor`, `lxor`, `mod`
 * by their short names, which are keywords there (infix notations `x land y`…): `Locate Term land` is a syntax
 * error, so the candidate resolves to nothing and an honest proof is refused as "unsound: depends on lor, land"
 * (no kernel name in the message: it reads as if the user used an untrusted axiom). `Locate Term PrimInt63.land`
 * answers `Constant Coq.Numbers.Cyclic.Int63.PrimInt63.land`.
 */
describe('primitive libraries trusted: honest proofs over Uint63/Sint63 (false alarms)', () => {
  const { session } = useRealShell(['--timeout', '30']);

  it('Uint63.add_comm (rests on PrimInt63.land/lor, keywords after Import Uint63) is proved', async () => {
    const rs = await session([
      `DEFINE ${q('Require Import Uint63.')}`,
      `GOAL a ${q('forall x y : int, (x + y = y + x)%uint63')}`, 'APPLY (intros; apply add_comm)', 'END',
    ]);
    expect(rs[0]?.ERR).toBe('');
    expect(finished(rs[3]), JSON.stringify(rs[3]?.ERR)).toBe(true);
  }, 120_000);

  // Sint63's axioms are not trusted (one is false in 8.16.1, coq#22462): `ltb_spec` is one and is refused, saying
  // so; `add_spec` is a lemma resting on Uint63's axioms only (and on `land`, printed as a keyword: Arbor_locate).
  it('Sint63.add_spec is proved; Sint63.ltb_spec, an axiom of Sint63, is refused, named', async () => {
    const rs = await session([
      `DEFINE ${q('Require Import Sint63 ZArith.')}`,
      `GOAL a ${q('forall x y : int, Sint63.to_Z (x + y)%sint63 = Sint63.cmod (Sint63.to_Z x + Sint63.to_Z y) wB')}`, 'APPLY (intros; apply Sint63.add_spec)', 'END',
      `GOAL b ${q('forall x y : int, (x <? y)%sint63 = true <-> (Sint63.to_Z x < Sint63.to_Z y)%Z')}`, 'APPLY (intros; apply Sint63.ltb_spec)', 'END',
    ]);
    expect(rs[0]?.ERR).toBe('');
    expect(finished(rs[3]), JSON.stringify(rs[3]?.ERR)).toBe(true);
    expect(rs[6]?.ERR).toMatch(/^unsound: depends on .*Sint63\.ltb_spec/);
  }, 120_000);

  it('with Uint63 imported too, float abs_spec (rests on PrimInt63.land, printed `land`) and PArray/float lemmas are proved', async () => {
    const rs = await session([
      `DEFINE ${q('From Coq Require Import PArray Uint63 Floats.')}`,
      `GOAL a ${q('forall A (t : array A) i (a : A), (i <? PArray.length t)%uint63 = true -> t.[i <- a].[i] = a')}`, 'APPLY (intros; apply get_set_same; assumption)', 'END',
      `GOAL b ${q('forall A (t : array A) i j (a : A), i <> j -> t.[i <- a].[j] = t.[j]')}`, 'APPLY (intros; apply get_set_other; assumption)', 'END',
      `GOAL c ${q('forall x, Prim2SF (PrimFloat.abs x) = SFabs (Prim2SF x)')}`, 'APPLY (apply abs_spec)', 'END',
      `GOAL d ${q('forall x y, Leibniz.eqb x y = true <-> x = y')}`, 'APPLY (apply Leibniz.eqb_spec)', 'END',
      `GOAL e ${q('forall x, SF2Prim (Prim2SF x) = x')}`, 'APPLY (apply SF2Prim_Prim2SF)', 'END',
    ]);
    expect(rs[0]?.ERR).toBe('');
    for (const i of [3, 6, 9, 12, 15]) expect(finished(rs[i]), `${i}: ${JSON.stringify(rs[i]?.ERR)}`).toBe(true);
  }, 180_000);

  it('held (Uint63 not imported): PArray get_set_same/get_set_other, float abs_spec, Leibniz.eqb_spec, SF2Prim_Prim2SF, a literal', async () => {
    const rs = await session([
      `DEFINE ${q('From Coq Require Import PArray Floats.')}`,
      `GOAL a ${q('forall A (t : array A) i (a : A), PrimInt63.ltb i (PArray.length t) = true -> t.[i <- a].[i] = a')}`, 'APPLY (intros; apply get_set_same; assumption)', 'END',
      `GOAL b ${q('forall A (t : array A) i j (a : A), i <> j -> t.[i <- a].[j] = t.[j]')}`, 'APPLY (intros; apply get_set_other; assumption)', 'END',
      `GOAL c ${q('forall x, Prim2SF (PrimFloat.abs x) = SFabs (Prim2SF x)')}`, 'APPLY (apply abs_spec)', 'END',
      `GOAL d ${q('forall x y, Leibniz.eqb x y = true <-> x = y')}`, 'APPLY (apply Leibniz.eqb_spec)', 'END',
      `GOAL e ${q('forall x, SF2Prim (Prim2SF x) = x')}`, 'APPLY (apply SF2Prim_Prim2SF)', 'END',
      `GOAL f ${q('(1 + 1 = 2)%float')}`, 'APPLY (reflexivity)', 'END',
    ]);
    expect(rs[0]?.ERR).toBe('');
    for (const i of [3, 6, 9, 12, 15, 18]) expect(finished(rs[i]), `${i}: ${JSON.stringify(rs[i]?.ERR)}`).toBe(true);
  }, 180_000);
});
