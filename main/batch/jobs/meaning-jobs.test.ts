import { afterAll, describe, expect, it } from 'vitest';
import { CoqShells } from '../coq-shells.ts';
import { runCheckJob } from './check-job.ts';
import { runFidelityJob } from './fidelity-job.ts';
import { runHammerJob } from './hammer-job.ts';

/**
 * Batch verdicts are judged on the elaborated statement (issue 21), with the real shell over coqidetop:
 * a statement that the document's context makes mean something else is never plainly `proved`/`verified`.
 */
const shells = new CoqShells();
afterAll(() => shells.dispose());

describe('batch verdicts on the elaborated statement', () => {
  it('hammer: `n + 1 = n` with + as multiplication is proved-different-meaning, with both readings', async () => {
    const context = 'Declare Scope evil_scope. Notation "x + y" := (Nat.mul x y) : evil_scope. Open Scope evil_scope.';
    const r = await runHammerJob({ kind: 'hammer', id: 'evil', statement: 'forall n : nat, n * 1 = n + 0 -> n + 1 = n', context, seconds: 10 }, shells);
    expect(r.outcome).toBe('proved-different-meaning');
    const statement = (r.evidence as { statement?: { elaborated: string; clean: string; differences: string[] } }).statement;
    expect(statement?.elaborated).toMatch(/Nat\.mul n \(Coq\.Init\.Datatypes\.S Coq\.Init\.Datatypes\.O\)/);
    expect(statement?.clean).toMatch(/Coq\.Init\.Nat\.add n \(Coq\.Init\.Datatypes\.S Coq\.Init\.Datatypes\.O\)/);
    const plain = await runHammerJob({ kind: 'hammer', id: 'plain', statement: 'forall n : nat, n + 0 = n', seconds: 10 }, shells);
    expect(plain.outcome).toBe('proved');
  }, 120_000);

  it('check: a document proving False-that-means-True is verified-different-meaning', async () => {
    const document = 'DEFINE "Notation \\"\'False\'\\" := (True)."\nGOAL "False"\nAPPLY (exact I)\nEND\n';
    const r = await runCheckJob({ kind: 'check', id: 'doc', document, timeoutMs: 10_000 }, shells, () => undefined);
    expect(r.outcome).toBe('verified-different-meaning');
    expect(JSON.stringify(r.evidence)).toContain('stands where a clean reading has `Coq.Init.Logic.False`');
  }, 120_000);

  it('fidelity: a case whose context makes `False` mean True says so in its outcome and evidence', async () => {
    const r = await runFidelityJob({ kind: 'fidelity', id: 'f', canonical: 'False', candidate: 'True', context: 'Notation "\'False\'" := True.', backend: 'coq', classical: false, timeoutMs: 2000, tiers: ['typecheck', 's0'] });
    expect(r.outcome).toMatch(/-different-meaning$/);
    expect(JSON.stringify(r.evidence)).toContain('stands where a clean reading has `Coq.Init.Logic.False`');
  }, 120_000);
});
