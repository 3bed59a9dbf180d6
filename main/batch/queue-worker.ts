import type { Job } from 'bullmq';
import { Worker } from 'bullmq';
import type { BatchBackend, JobOutcome } from '../../shared/batch/batch-job.ts';
import { batchJobSchema, ERROR_OUTCOME } from '../../shared/batch/batch-job.ts';
import { JobRunner } from './job-runner.ts';
import { QUEUE_PREFIX, queueName, redisConnection } from './redis-queues.ts';
import type { WorkerProvers } from './worker-provers.ts';

export interface QueueWorkerOptions {
  url: string;
  name: string;
  provers: WorkerProvers;
  /** Jobs at once per queue (BullMQ's `concurrency`). */
  concurrency: number;
  /**
   * How long a job's lock lasts without renewal (BullMQ renews it at half time while the worker lives):
   * after a worker dies, its job goes back to the queue within about twice this.
   */
  lockMs: number;
  /** Jobs per minute at most on each queue, over all workers (BullMQ's rate limiter); none when absent. */
  maxPerMinute?: number;
  log: (line: string) => void;
}

/** Times BullMQ may find a job's worker dead before it fails the job ("stalled more than allowable limit"). */
const MAX_STALLED = 2;

/**
 * `arbor worker --queue redis://…`: one BullMQ worker per queue of a prover this machine has, all running
 * the shared job code. Dead workers, retries, rate limits and locks are BullMQ's.
 */
export async function startQueueWorker(options: QueueWorkerOptions): Promise<{ close(force?: boolean): Promise<void> }> {
  const runner = new JobRunner(options.name, options.provers);
  const connection = redisConnection(options.url);
  const processJob = async (job: Job): Promise<JobOutcome> => {
    const data = batchJobSchema.safeParse(job.data);
    if (!data.success) return { outcome: ERROR_OUTCOME, evidence: { message: `bad job data: ${data.error.issues[0]?.message ?? 'invalid'}` }, ms: 0, worker: options.name };
    return runner.run(data.data, (p) => { void job.updateProgress(p).catch(() => undefined); });
  };
  const workers = options.provers.backends.map((backend: BatchBackend) => {
    const worker = new Worker(queueName(backend), processJob, {
      connection,
      prefix: QUEUE_PREFIX,
      name: options.name,
      concurrency: options.concurrency,
      lockDuration: options.lockMs,
      stalledInterval: options.lockMs,
      maxStalledCount: MAX_STALLED,
      ...(options.maxPerMinute ? { limiter: { max: options.maxPerMinute, duration: 60_000 } } : {}),
    });
    // Connection errors while Redis restarts: BullMQ reconnects; say it once per error kind, never crash.
    let lastError = '';
    worker.on('error', (err) => {
      if (err.message !== lastError) options.log(`${queueName(backend)}: ${err.message}`);
      lastError = err.message;
    });
    // Logged once BullMQ has stored the result (a job whose completion did not reach Redis runs again elsewhere).
    worker.on('completed', (job, r: JobOutcome) => options.log(`${job.id} ${String((job.data as { id?: unknown }).id)}: ${r.outcome} (${r.ms} ms)`));
    worker.on('failed', (job, err) => { if (job) options.log(`${job.id}: attempt failed: ${err.message}`); });
    return worker;
  });
  await Promise.all(workers.map((w) => w.waitUntilReady()));
  return {
    async close(force = false) {
      await Promise.all(workers.map((w) => w.close(force)));
      await runner.dispose();
    },
  };
}
