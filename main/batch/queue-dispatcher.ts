import { Job, Queue, QueueEvents } from 'bullmq';
import type { BatchBackend, JobOutcome } from '../../shared/batch/batch-job.ts';
import { ERROR_OUTCOME, jobBackend, jobOutcomeSchema, jobProgressSchema } from '../../shared/batch/batch-job.ts';
import type { DispatchEvents, Dispatcher, PendingJob } from './dispatcher.ts';
import { QUEUE_PREFIX, queueName, redisConnection, redisLabel } from './redis-queues.ts';

export interface QueueDispatcherOptions {
  url: string;
  /** Times a job may fail (throw) before BullMQ fails it for good. */
  attempts: number;
  /** How long finished jobs stay in Redis, so a re-run finds them (seconds). */
  keepSeconds: number;
  /** Forget finished jobs of this batch first: every item runs again. */
  fresh: boolean;
}

/** How often the collector looks at jobs it has heard nothing about, and how many at a time. */
const POLL_MS = 2000;
const POLL_CHUNK = 500;
const WORKER_CHECK_MS = 10_000;

interface Outstanding {
  pending: PendingJob;
  backend: BatchBackend;
}

/**
 * The batch side with `--queue`: jobs go to BullMQ (one queue per prover, job ids derived from the input),
 * and this process is the final collector. Jobs a re-run finds finished are taken from Redis, not run again;
 * jobs still waiting or running (an earlier run was interrupted) are waited for; failed ones are retried.
 * Results arrive by BullMQ's events; a slow poll of job states covers events missed while Redis restarted,
 * and a job Redis lost (a restart without persistence) is added again.
 */
export class QueueDispatcher implements Dispatcher {
  private readonly queues = new Map<BatchBackend, Queue>();
  private readonly queueEvents = new Map<BatchBackend, QueueEvents>();
  private readonly outstanding = new Map<string, Outstanding>();
  private readonly collecting = new Set<string>();
  private readonly workerNames = new Set<string>();
  private events?: DispatchEvents;
  private cancelled = false;
  private wake?: () => void;
  private readonly connection;

  constructor(private readonly options: QueueDispatcherOptions) {
    this.connection = redisConnection(options.url);
  }

  async run(jobs: readonly PendingJob[], events: DispatchEvents): Promise<void> {
    this.events = events;
    for (const pending of jobs) this.outstanding.set(pending.jobId, { pending, backend: jobBackend(pending.job) });
    const backends = [...new Set([...this.outstanding.values()].map((o) => o.backend))];
    for (const backend of backends) {
      const queue = new Queue(queueName(backend), { connection: this.connection, prefix: QUEUE_PREFIX });
      queue.on('error', (err) => events.notice(`${queueName(backend)}: ${err.message}`));
      this.queues.set(backend, queue);
      const qe = new QueueEvents(queueName(backend), { connection: this.connection, prefix: QUEUE_PREFIX });
      qe.on('error', () => undefined);
      qe.on('completed', ({ jobId }) => this.collect(jobId));
      qe.on('failed', ({ jobId }) => this.collect(jobId));
      qe.on('progress', ({ jobId, data }) => {
        const p = jobProgressSchema.safeParse(data);
        if (p.success && this.outstanding.has(jobId)) events.progress(jobId, p.data);
      });
      this.queueEvents.set(backend, qe);
    }
    await Promise.all([...this.queueEvents.values()].map((qe) => qe.waitUntilReady()));
    await this.submit([...this.outstanding.keys()]);
    let nextWorkerCheck = 0;
    let cursor = 0;
    while (this.outstanding.size > 0 && !this.cancelled) {
      if (Date.now() >= nextWorkerCheck) {
        nextWorkerCheck = Date.now() + WORKER_CHECK_MS;
        await this.checkWorkers(events).catch(() => undefined);
      }
      await new Promise<void>((resolve) => {
        this.wake = resolve;
        setTimeout(resolve, POLL_MS);
      });
      // Round robin over what is still outstanding, a chunk at a time.
      const ids = [...this.outstanding.keys()];
      if (ids.length === 0 || this.cancelled) break;
      cursor %= ids.length;
      const chunk = ids.slice(cursor, cursor + POLL_CHUNK);
      cursor += POLL_CHUNK;
      await this.poll(chunk).catch(() => undefined);
    }
  }

  workerCount(): number {
    return this.workerNames.size;
  }

  async cancel(): Promise<{ removed: number; running: number }> {
    this.cancelled = true;
    this.wake?.();
    let removed = 0;
    let running = 0;
    // Pending jobs are removed; running ones are locked by their workers: they finish and count for a re-run.
    await Promise.all([...this.outstanding.entries()].map(async ([id, o]) => {
      const queue = this.queues.get(o.backend);
      if (!queue) return;
      if ((await queue.remove(id).catch(() => 0)) === 1) removed++;
      else if ((await queue.getJobState(id).catch(() => 'unknown')) === 'active') running++;
    }));
    return { removed, running };
  }

  async close(): Promise<void> {
    await Promise.all([...this.queueEvents.values()].map((qe) => qe.close().catch(() => undefined)));
    await Promise.all([...this.queues.values()].map((q) => q.close().catch(() => undefined)));
  }

  /**
   * Looks at each job: finished ones are collected (a re-run), failed ones retried, waiting or running ones
   * waited for, missing ones added (BullMQ ignores an add whose id exists, so two batches never double a job).
   */
  private async submit(ids: readonly string[]): Promise<void> {
    for (let i = 0; i < ids.length; i += POLL_CHUNK) {
      const chunk = ids.slice(i, i + POLL_CHUNK);
      const states = await Promise.all(chunk.map(async (id) => [id, await this.queueOf(id).getJobState(id)] as const));
      const missing: string[] = [];
      await Promise.all(states.map(async ([id, state]) => {
        const queue = this.queueOf(id);
        if (this.options.fresh && (state === 'completed' || state === 'failed')) {
          await queue.remove(id);
          missing.push(id);
        } else if (state === 'completed') await this.collect(id, true);
        else if (state === 'failed') {
          const job = await Job.fromId(queue, id);
          await job?.retry('failed', { resetAttemptsMade: true, resetAttemptsStarted: true });
        } else if (state === 'unknown') missing.push(id);
      }));
      await this.add(missing);
    }
  }

  private async add(ids: readonly string[]): Promise<void> {
    const byBackend = new Map<BatchBackend, string[]>();
    for (const id of ids) {
      const o = this.outstanding.get(id);
      if (o) byBackend.set(o.backend, [...(byBackend.get(o.backend) ?? []), id]);
    }
    for (const [backend, list] of byBackend) {
      const queue = this.queues.get(backend) as Queue;
      await queue.addBulk(list.map((id) => {
        const { pending } = this.outstanding.get(id) as Outstanding;
        return {
          name: pending.job.kind,
          data: pending.job,
          opts: {
            jobId: id,
            attempts: this.options.attempts,
            backoff: { type: 'exponential', delay: 1000 },
            removeOnComplete: { age: this.options.keepSeconds },
            removeOnFail: { age: this.options.keepSeconds },
          },
        };
      }));
    }
  }

  /** States of jobs heard nothing about: finished ones are collected, lost ones added again. */
  private async poll(ids: readonly string[]): Promise<void> {
    const lost: string[] = [];
    await Promise.all(ids.map(async (id) => {
      const state = await this.queueOf(id).getJobState(id);
      if (state === 'completed' || state === 'failed') await this.collect(id);
      else if (state === 'unknown' && this.outstanding.has(id)) lost.push(id);
    }));
    if (lost.length > 0 && !this.cancelled) {
      this.events?.notice(`${lost.length} job(s) missing from Redis (restarted without persistence?): added again`);
      await this.add(lost);
    }
  }

  /** Takes a finished job's result from Redis, once: an event and the poll may both name it. */
  private async collect(id: string, resumed = false): Promise<void> {
    const o = this.outstanding.get(id);
    if (!o || this.collecting.has(id)) return;
    this.collecting.add(id);
    try {
      const job = await Job.fromId(this.queueOf(id), id);
      if (!job) return;
      const state = await job.getState();
      let outcome: JobOutcome;
      if (state === 'completed') {
        const r = jobOutcomeSchema.safeParse(job.returnvalue);
        outcome = r.success ? r.data : { outcome: ERROR_OUTCOME, evidence: { message: 'the worker returned no outcome' }, ms: 0, worker: job.processedBy ?? '-' };
      } else if (state === 'failed') {
        outcome = { outcome: ERROR_OUTCOME, evidence: { message: job.failedReason, attempts: job.attemptsMade }, ms: 0, worker: job.processedBy ?? '-' };
      } else return;
      if (!this.outstanding.delete(id)) return;
      if (outcome.worker !== '-') this.workerNames.add(outcome.worker);
      this.events?.finished({ jobId: id, outcome, attempts: job.attemptsStarted ?? job.attemptsMade, ...(resumed ? { resumed: true } : {}) });
      if (this.outstanding.size === 0) this.wake?.();
    } finally {
      this.collecting.delete(id);
    }
  }

  private queueOf(id: string): Queue {
    const o = this.outstanding.get(id);
    return this.queues.get(o?.backend ?? 'builtin') ?? ([...this.queues.values()][0] as Queue);
  }

  /** Says which workers serve each queue this batch uses, and when a queue has none. */
  private readonly reported = new Map<BatchBackend, string>();
  private async checkWorkers(events: DispatchEvents): Promise<void> {
    const needed = new Set([...this.outstanding.values()].map((o) => o.backend));
    for (const [backend, queue] of this.queues) {
      if (!needed.has(backend)) continue;
      const names = [...new Set((await queue.getWorkers()).map((w) => (w.rawname ?? '').split(':w:')[1] ?? '(unnamed)'))].sort();
      for (const n of names) this.workerNames.add(n);
      const text = names.length === 0
        ? `no worker with ${backend} is connected to ${redisLabel(this.options.url)}: its jobs wait until one runs 'arbor worker --queue ${redisLabel(this.options.url)}'`
        : `workers with ${backend}: ${names.join(', ')}`;
      if (this.reported.get(backend) !== text) events.notice(text);
      this.reported.set(backend, text);
    }
  }
}
