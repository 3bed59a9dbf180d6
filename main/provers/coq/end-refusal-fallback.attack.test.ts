import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ShellProcess } from '../../cli/shell-process.ts';

/**
 * Attacks on END's refusal walk (closed-constants.ts `judge`): when the reading of the printed term finds an
 * untrusted axiom, Coq's own `Print Assumptions <theorem>` decides before the refusal. Binder names that collide
 * with trusted and untrusted axioms and with the document's own globals must never let a theorem that really
 * rests on an untrusted axiom through, nor refuse one that rests only on trusted ones. Real arbor-shell, coqidetop.
 */
const q = (s: string): string => `"${s.replace(/"/g, '\\"')}"`;
const ADMIT = 'Coq.Compat.AdmitAxiom.proof_admitted';
const CLASSIC = ['classic : forall P : Prop, P \\/ ~ P'];

describe('END: Coq\'s Print Assumptions decides a refusal (real coqidetop)', () => {
  let shell: ShellProcess;
  beforeAll(() => {
    shell = new ShellProcess(['--timeout', '20']);
  });
  afterAll(async () => {
    await shell.end();
  });

  // HELD: each binder collides with a global; the fallback walk keeps every untrusted axiom and lists the trusted one.
  it('binders named like trusted axioms, untrusted axioms and the document\'s own globals', async () => {
    const rs = await shell.onFreshChannel([
      `PRELUDE ${q('Require Import Classical. Require Coq.Compat.AdmitAxiom.')}`,
      // 1-3: a trusted axiom's name bound, the untrusted axiom used.
      `GOAL t1 ${q('forall classic : nat, False')}`, `APPLY (intros; exact ${ADMIT})`, 'END',
      // 4-6: the untrusted axiom's name bound, only the trusted one used: accepted, listing it.
      `GOAL t2 ${q('forall proof_admitted : Prop, proof_admitted \\/ ~ proof_admitted')}`, 'APPLY (intros; apply classic)', 'END',
      // 7: a document definition resting on the untrusted axiom; 8-10: its name bound, the definition used through the intro'd name's shadow.
      `DEFINE ${q(`Definition helper : False := ${ADMIT}.`)}`,
      `GOAL t3 ${q('forall helper : nat, False')}`, 'APPLY (intros n; exact helper)', 'END',
      // 11-13: bound and used by its qualified name.
      `GOAL t4 ${q('forall helper : nat, False')}`, 'APPLY (intros; exact Top.helper)', 'END',
      // 14-16: both axioms' names bound, both axioms used (through helper).
      `GOAL t5 ${q('forall (classic proof_admitted : nat) (P : Prop), P \\/ ~ P /\\ False')}`,
      'APPLY (intros c p P; destruct (Classical_Prop.classic P); [left; assumption | right; split; [assumption | exact helper]])', 'END',
      // 17-19: an earlier accepted theorem (t2) whose name is then bound; only classic reached.
      `GOAL t6 ${q('forall t2 : nat, forall P : Prop, P \\/ ~ P')}`, 'APPLY (intros n P; exact (Top.t2 P))', 'END',
    ]);
    const unsound = /^unsound: depends on .*proof_admitted/;
    for (const i of [1, 2, 4, 5, 7, 8, 9, 11, 12, 14, 15, 17, 18]) expect(rs[i]?.ERR, `${i} ${JSON.stringify(rs[i])}`).toBe('');
    expect(rs[3]?.ERR, JSON.stringify(rs[3])).toMatch(unsound);
    expect(rs[6]?.ERR).toBe('');
    expect(rs[6]?.ASSUMPTIONS).toEqual(CLASSIC);
    expect(rs[10]?.ERR, JSON.stringify(rs[10])).toMatch(unsound);
    expect(rs[13]?.ERR, JSON.stringify(rs[13])).toMatch(unsound);
    expect(rs[16]?.ERR, JSON.stringify(rs[16])).toMatch(unsound);
    expect(rs[19]?.ERR, JSON.stringify(rs[19])).toBe('');
    expect(rs[19]?.ASSUMPTIONS).toEqual(CLASSIC);
  }, 300_000);

  // HELD: the theorem's own name is what Print Assumptions is asked about: a notation of the same name declared
  // before it (standing for a closed lemma) does not answer for it.
  it('a notation named like the theorem, standing for a closed lemma, does not answer for it', async () => {
    const rs = await shell.onFreshChannel([
      `PRELUDE ${q('Require Coq.Compat.AdmitAxiom.')}`,
      `DEFINE ${q('Lemma closed_one : True. Proof. exact I. Qed. Notation t7 := closed_one.')}`,
      `GOAL t7 ${q('forall proof_admitted : nat, False')}`, `APPLY (intros; exact ${ADMIT})`, 'END',
    ]);
    expect(rs[1]?.ERR).toBe('');
    // Either GOAL refuses the name (taken by the notation) or END finds the axiom: never accepted.
    if (rs[2]?.ERR === '') expect(rs[4]?.ERR, JSON.stringify(rs[4])).toMatch(/^unsound: depends on .*proof_admitted/);
    else expect(rs[4]?.ERR, JSON.stringify(rs.slice(2))).not.toBe('');
  }, 240_000);
});
