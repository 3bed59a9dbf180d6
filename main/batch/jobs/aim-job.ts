import type { BatchJob } from '../../../shared/batch/batch-job.ts';
import { solveProblem } from '../../provers/eq/solve-problem.ts';
import type { KindResult } from './kind-result.ts';

/**
 * An AIM problem: `proved` only when Arbor's independent checker accepted the rewrite chain (solveProblem
 * checks it against the theorem as stated); the chain is the evidence.
 */
export async function runAimJob(job: Extract<BatchJob, { kind: 'aim' }>, eprover: boolean): Promise<KindResult> {
  const r = await solveProblem(job.preamble, job.theorem, job.limitMs, { useE: job.useE && eprover });
  if (!r.solved) return { outcome: 'unproved', evidence: { messages: r.messages.slice(0, 5).map((m) => m.slice(0, 300)) } };
  return { outcome: 'proved', evidence: { by: r.by, proofSteps: r.proofSteps, proof: r.proof } };
}
