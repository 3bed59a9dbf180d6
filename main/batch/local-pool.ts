import { fileURLToPath } from 'node:url';
import { ERROR_OUTCOME } from '../../shared/batch/batch-job.ts';
import { LineSplitter } from '../../shared/protocol/line-splitter.ts';
import type { ManagedProcess } from '../process/process-manager.ts';
import { startProcess } from '../process/process-manager.ts';
import type { DispatchEvents, Dispatcher, PendingJob } from './dispatcher.ts';
import type { PoolReply, PoolRequest } from './pool-messages.ts';
import { poolReplySchema } from './pool-messages.ts';

const ARBOR_BIN = fileURLToPath(new URL('../../bin/arbor.js', import.meta.url));
/** Worker processes that exit before saying `ready`, in a row, before the pool gives up. */
const MAX_FAILED_STARTS = 3;

export interface LocalPoolOptions {
  workers: number;
  /** Times a job may be started (a worker dying mid-job, or failing to run it) before it is reported as an error. */
  attempts: number;
  /** `--workspace DIR`, passed to each worker (which reads DIR's trusted project itself). */
  workspace?: string;
}

interface Slot {
  name: string;
  process: ManagedProcess;
  ready: boolean;
  /** Its input was closed: it takes no more jobs. */
  ending: boolean;
  current?: { job: Queued };
  stderr: string;
}

interface Queued {
  pending: PendingJob;
  attempts: number;
}

/**
 * The embedded default: worker processes on this machine (`arbor worker --stdio`, started through the
 * process manager: own process group, killed with Arbor), one job at a time each, with the same job code
 * as queue workers. A worker that dies mid-job is replaced and its job handed to the next free worker, up
 * to the attempt limit — as BullMQ does with a stalled job.
 */
export class LocalPool implements Dispatcher {
  private readonly slots = new Set<Slot>();
  private queue: Queued[] = [];
  private remaining = 0;
  private cancelled = false;
  private failedStarts = 0;
  private started = 0;
  private events?: DispatchEvents;
  private resolveRun?: () => void;

  constructor(private readonly options: LocalPoolOptions) {}

  run(jobs: readonly PendingJob[], events: DispatchEvents): Promise<void> {
    this.events = events;
    this.queue = jobs.map((pending) => ({ pending, attempts: 0 }));
    this.remaining = jobs.length;
    if (this.remaining === 0) return Promise.resolve();
    const done = new Promise<void>((resolve) => { this.resolveRun = resolve; });
    for (let i = 0; i < Math.min(this.options.workers, jobs.length); i++) this.startWorker();
    return done;
  }

  workerCount(): number {
    return this.started;
  }

  async cancel(): Promise<{ removed: number; running: number }> {
    this.cancelled = true;
    const removed = this.queue.length;
    this.queue = [];
    const running = [...this.slots].filter((s) => s.current).length;
    await this.close();
    this.resolveRun?.();
    return { removed, running };
  }

  async close(): Promise<void> {
    const all = [...this.slots];
    for (const s of all) s.process.kill();
    await Promise.all(all.map((s) => s.process.exited));
  }

  private startWorker(): void {
    const name = `local-${++this.started}`;
    const process = startProcess({ program: globalThis.process.execPath, args: [ARBOR_BIN, 'worker', '--stdio', '--name', name, ...(this.options.workspace !== undefined ? ['--workspace', this.options.workspace] : [])], sandbox: false /* Arbor itself; its provers are sandboxed */ });
    const slot: Slot = { name, process, ready: false, ending: false, stderr: '' };
    this.slots.add(slot);
    const splitter = new LineSplitter(16 << 20);
    process.stdout.setEncoding('utf8');
    process.stdout.on('data', (chunk: string) => {
      for (const line of splitter.push(chunk)) {
        if (line.text.trim() === '') continue;
        let reply: PoolReply;
        try {
          reply = poolReplySchema.parse(JSON.parse(line.text));
        } catch {
          continue;
        }
        this.onReply(slot, reply);
      }
    });
    process.stderr.setEncoding('utf8');
    process.stderr.on('data', (chunk: string) => { slot.stderr = (slot.stderr + chunk).slice(-4000); });
    process.stdin.on('error', () => undefined);
    void process.exited.then(({ code, signal }) => this.onExit(slot, code, signal));
  }

  private onReply(slot: Slot, reply: PoolReply): void {
    switch (reply.type) {
      case 'ready':
        slot.ready = true;
        this.failedStarts = 0;
        this.next(slot);
        return;
      case 'progress':
        if (slot.current?.job.pending.jobId === reply.job) this.events?.progress(reply.job, reply.data);
        return;
      case 'result': {
        const current = slot.current;
        if (current?.job.pending.jobId !== reply.job) return;
        slot.current = undefined;
        this.finish(current.job, reply.outcome);
        this.next(slot);
        this.dispatch();
        return;
      }
      case 'failed': {
        const current = slot.current;
        if (current?.job.pending.jobId !== reply.job) return;
        slot.current = undefined;
        this.retryOrFail(current.job, `worker ${slot.name} could not run it: ${reply.message}`);
        this.dispatch();
        return;
      }
    }
  }

  private onExit(slot: Slot, code: number | null, signal: NodeJS.Signals | null): void {
    this.slots.delete(slot);
    if (this.cancelled || this.remaining === 0) return;
    if (!slot.ready && ++this.failedStarts >= MAX_FAILED_STARTS) {
      // Workers cannot start at all (a broken install): every job left is an error, said once each.
      const why = `local workers exit before they start (${signal ?? `code ${code}`}): ${slot.stderr.trim().split('\n').slice(-3).join(' / ')}`;
      this.events?.notice(why);
      const left = [...this.queue, ...(slot.current ? [slot.current.job] : [])];
      this.queue = [];
      for (const q of left) this.finish(q, { outcome: ERROR_OUTCOME, evidence: { message: why }, ms: 0, worker: slot.name });
      return;
    }
    if (slot.current) {
      this.events?.notice(`worker ${slot.name} died (${signal ?? `code ${code}`}) running ${slot.current.job.pending.id}; the job goes to another worker`);
      this.retryOrFail(slot.current.job, `its worker died ${slot.current.job.attempts} time(s) running it (last: ${slot.name}, ${signal ?? `code ${code}`})`);
    }
    this.dispatch();
  }

  /** Idle workers take queued jobs; workers are started while there are jobs for them (up to the pool's size). */
  private dispatch(): void {
    if (this.cancelled) return;
    for (const s of this.slots) if (s.ready && !s.ending && !s.current) this.next(s);
    const live = [...this.slots].filter((s) => !s.ending);
    const busy = live.filter((s) => s.current).length;
    const starting = live.filter((s) => !s.ready).length;
    const want = Math.min(this.options.workers, busy + this.queue.length);
    for (let n = busy + starting; n < want; n++) this.startWorker();
  }

  /** Hands the next job to a ready worker, or lets it go when nothing is left. */
  private next(slot: Slot): void {
    if (this.cancelled || slot.current || slot.ending) return;
    const job = this.queue.shift();
    if (!job) {
      slot.ending = true;
      slot.process.stdin.end();
      return;
    }
    job.attempts++;
    slot.current = { job };
    const request: PoolRequest = { type: 'job', job: job.pending.jobId, data: job.pending.job };
    slot.process.stdin.write(`${JSON.stringify(request)}\n`);
  }

  private retryOrFail(job: Queued, message: string): void {
    // Back to the front of the queue: the next free worker takes it (callers dispatch).
    if (job.attempts < this.options.attempts) {
      this.queue.unshift(job);
      return;
    }
    this.finish(job, { outcome: ERROR_OUTCOME, evidence: { message }, ms: 0, worker: '-' });
  }

  private finish(job: Queued, outcome: { outcome: string; evidence: unknown; ms: number; worker: string }): void {
    this.remaining--;
    this.events?.finished({ jobId: job.pending.jobId, outcome, attempts: job.attempts });
    if (this.remaining === 0) {
      for (const s of this.slots) {
        s.ending = true;
        s.process.stdin.end();
      }
      this.resolveRun?.();
    }
  }
}
