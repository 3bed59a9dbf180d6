import type { BatchJob, JobOutcome, JobProgress } from '../../shared/batch/batch-job.ts';

/** A job to run: the item's id, the job's id (derived from the input) and its data. */
export interface PendingJob {
  id: string;
  jobId: string;
  job: BatchJob;
}

/** A finished job as a dispatcher reports it (the report line is made from it). */
export interface FinishedJob {
  jobId: string;
  outcome: JobOutcome;
  /** How many times a worker started it. */
  attempts: number;
  /** Found finished by an earlier run (queue mode). */
  resumed?: boolean;
}

export interface DispatchEvents {
  finished(job: FinishedJob): void;
  progress(jobId: string, progress: JobProgress): void;
  /** Something the user should know (a worker that died, no worker for a backend). */
  notice(text: string): void;
}

/**
 * Runs a batch's jobs somewhere: the local pool (worker processes on this machine) or BullMQ on Redis.
 * Both report through the same events, so the report, the progress and the totals are one code.
 */
export interface Dispatcher {
  /** Resolves when every job has finished, or when the batch was cancelled. */
  run(jobs: readonly PendingJob[], events: DispatchEvents): Promise<void>;
  /** Stops handing out jobs and removes the pending ones; says how many were removed and how many were running. */
  cancel(): Promise<{ removed: number; running: number }>;
  /** Workers known to serve the batch (for the summary). */
  workerCount(): number;
  close(): Promise<void>;
}
