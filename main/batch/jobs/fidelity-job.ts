import type { BatchJob } from '../../../shared/batch/batch-job.ts';
import { ERROR_OUTCOME } from '../../../shared/batch/batch-job.ts';
import { checkFidelity, FidelityInputRefused } from '../../fidelity/check-fidelity.ts';
import type { KindResult } from './kind-result.ts';
import type { ProjectArgs } from '../../shell/prover-session.ts';

/** A fidelity case: the verdict is the outcome; the deciding tier, its reason and evidence back it. */
export async function runFidelityJob(job: Extract<BatchJob, { kind: 'fidelity' }>, project?: ProjectArgs): Promise<KindResult> {
  try {
    const r = await checkFidelity({
      id: job.id, canonical: job.canonical, candidate: job.candidate, ...(job.context !== undefined ? { context: job.context } : {}),
      backend: job.backend, classical: job.classical, timeoutMs: job.timeoutMs, ...(job.tiers ? { tiers: job.tiers } : {}),
    }, undefined, project);
    // A verdict about statements whose elaborated meaning is not their text's says so in its outcome (like `proved-different-meaning`).
    return {
      outcome: r.statements ? `${r.verdict}-different-meaning` : r.verdict,
      evidence: {
        tier: r.tier, reason: r.reason, evidence: r.evidence, ...(r.statements ? { statements: r.statements } : {}),
        ...(job.truth !== undefined ? { truth: job.truth, agrees: r.verdict === job.truth } : {}),
      },
    };
  } catch (err) {
    // Text that could escape its sentence is refused before any prover sees it: that item's error, not the batch's.
    if (err instanceof FidelityInputRefused) return { outcome: ERROR_OUTCOME, evidence: { message: err.message } };
    throw err;
  }
}
