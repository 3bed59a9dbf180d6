import { describe, expect, it } from 'vitest';
import { ProverError } from '../../shell/prover-session.ts';
import { coqBackend } from './coq-backend.ts';
import { finished, quoted as q, useRealShell } from './testing/real-shell.ts';

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
});
