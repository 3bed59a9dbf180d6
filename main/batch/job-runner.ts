import type { BatchJob, JobOutcome, JobProgress } from '../../shared/batch/batch-job.ts';
import { ERROR_OUTCOME, jobBackend } from '../../shared/batch/batch-job.ts';
import { CoqShells } from './coq-shells.ts';
import { runAimJob } from './jobs/aim-job.ts';
import { runCheckJob } from './jobs/check-job.ts';
import { runFidelityJob } from './jobs/fidelity-job.ts';
import { runHammerJob } from './jobs/hammer-job.ts';
import type { KindResult } from './jobs/kind-result.ts';
import type { WorkerProvers } from './worker-provers.ts';

/**
 * A safety net above each kind's own budget (which the provers enforce): a job still running after this
 * has a hung prover. Its provers are stopped and the item is reported as an error, not retried.
 */
export function jobLimitMs(job: BatchJob): number {
  switch (job.kind) {
    case 'aim': return 2 * job.limitMs + 60_000;
    case 'hammer': return 3 * job.seconds * 1000 + 120_000;
    case 'fidelity': return Math.max(900_000, 60 * job.timeoutMs);
    case 'check': return 1_800_000;
  }
}

class OverLimit extends Error {}

/**
 * The one job code, for a local pool worker and a queue worker alike: runs a job with this machine's
 * provers and says what came of it. An item's own failure (refused text, a line the shell refused, an
 * unproved goal) is an outcome; an exception means the worker could not do the job, and the caller retries it.
 */
export class JobRunner {
  private readonly shells: CoqShells;

  constructor(private readonly worker: string, private readonly provers: WorkerProvers) {
    this.shells = new CoqShells(provers.project);
  }

  async run(job: BatchJob, progress: (p: JobProgress) => void, limitMs = jobLimitMs(job)): Promise<JobOutcome> {
    const started = performance.now();
    const done = (r: KindResult): JobOutcome => ({ ...r, ms: Math.round(performance.now() - started), worker: this.worker });
    const backend = jobBackend(job);
    if (!this.provers.backends.includes(backend)) return done({ outcome: ERROR_OUTCOME, evidence: { message: `worker ${this.worker} has no ${backend} prover` } });
    progress({ worker: this.worker, phase: 'started' });
    let timer: NodeJS.Timeout | undefined;
    const limit = new Promise<never>((_, reject) => { timer = setTimeout(() => reject(new OverLimit()), limitMs); });
    try {
      return done(await Promise.race([this.runKind(job, progress), limit]));
    } catch (err) {
      if (!(err instanceof OverLimit)) throw err;
      await this.shells.dispose();
      return done({ outcome: ERROR_OUTCOME, evidence: { message: `the job ran past its limit of ${Math.round(limitMs / 1000)} s; its provers were stopped` } });
    } finally {
      clearTimeout(timer);
    }
  }

  async dispose(): Promise<void> {
    await this.shells.dispose();
  }

  private runKind(job: BatchJob, progress: (p: JobProgress) => void): Promise<KindResult> {
    switch (job.kind) {
      case 'fidelity': return runFidelityJob(job, this.provers.project);
      case 'aim': return runAimJob(job, this.provers.eprover);
      case 'hammer': return runHammerJob(job, this.shells);
      case 'check': return runCheckJob(job, this.shells, (fraction) => progress({ worker: this.worker, phase: 'running', fraction }));
    }
  }
}
