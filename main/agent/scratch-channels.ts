import type { ShellResponse } from '../../shared/protocol/shell-command.ts';
import type { ReplayPlan } from './script-tracker.ts';
import type { ShellPort } from './shell-port.ts';
import { ToolError } from './tool-error.ts';

/** A scratch channel replayed to a copy of the session's state; `run` sends one request to it. */
export interface ScratchRun {
  readonly id: number;
  /** The step the copy was replayed to (what `REVERT` restores after the try). */
  readonly baseStep: number;
  run(request: string): Promise<ShellResponse>;
}

export interface ScratchOptions {
  /** Copies in use at once (BRIEF: sequentially or two at a time). */
  concurrency?: number;
  /** Replayed copies kept for the next try, so a try costs a REVERT instead of a replay. */
  maxIdle?: number;
  /** An idle copy is released after this long. */
  idleMs?: number;
}

interface Idle {
  id: number;
  plan: ReplayPlan;
  step: number;
  timer: ReturnType<typeof setTimeout>;
}

/**
 * Tries things on copies of a channel's state without touching it: `NEW_CHANNEL`, replay the script,
 * try, then `REVERT` to the replayed step and keep the copy for the next try (or `RELEASE_CHANNEL` it).
 * A try that runs past its deadline releases its copy, which stops the prover at once.
 */
export class ScratchChannels {
  private active = 0;
  private readonly waiting: (() => void)[] = [];
  private idle: Idle[] = [];
  private closed = false;
  private readonly concurrency: number;
  private readonly maxIdle: number;
  private readonly idleMs: number;

  constructor(private readonly port: ShellPort, options: ScratchOptions = {}) {
    this.concurrency = options.concurrency ?? 2;
    this.maxIdle = options.maxIdle ?? 2;
    this.idleMs = options.idleMs ?? 120_000;
  }

  async with<T>(plan: ReplayPlan, deadlineMs: number, work: (scratch: ScratchRun) => Promise<T>): Promise<T> {
    await this.slot();
    let channel: { id: number; step: number } | undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let expired = false;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        expired = true;
        reject(new ToolError('timeout', `no answer within ${Math.round(deadlineMs / 1000)} s on a scratch channel`));
      }, deadlineMs);
    });
    try {
      const attempt = (async (): Promise<T> => {
        const acquired = await this.acquire(plan);
        // The deadline may have passed while replaying: nobody waits for this copy any more.
        if (expired) {
          void this.release(acquired.id);
          throw new ToolError('timeout', 'scratch channel timed out');
        }
        channel = acquired;
        const { id, step } = acquired;
        const result = await work({ id, baseStep: step, run: (request) => this.send(id, request) });
        if (expired) throw new ToolError('timeout', 'scratch channel timed out');
        return result;
      })();
      attempt.catch(() => undefined);
      const result = await Promise.race([attempt, deadline]);
      const done = channel as { id: number; step: number } | undefined;
      if (done) await this.giveBack(done.id, plan, done.step);
      channel = undefined;
      return result;
    } finally {
      clearTimeout(timer);
      if (channel) void this.release(channel.id);
      this.active--;
      this.waiting.shift()?.();
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    const idle = this.idle.splice(0);
    await Promise.all(idle.map((c) => {
      clearTimeout(c.timer);
      return this.release(c.id);
    }));
  }

  private async slot(): Promise<void> {
    if (this.closed) throw new ToolError('prover_error', 'the agent session is closed');
    if (this.active < this.concurrency) {
      this.active++;
      return;
    }
    await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.active++;
  }

  /** The idle copy with the longest script prefix of `plan`, topped up; or a new channel replayed from scratch. */
  private async acquire(plan: ReplayPlan): Promise<{ id: number; step: number }> {
    let best: Idle | undefined;
    for (const c of this.idle) {
      if (c.plan.prelude !== plan.prelude || c.plan.printMode !== plan.printMode) continue;
      if (!isPrefix(c.plan.lines, plan.lines)) continue;
      if (!best || c.plan.lines.length > best.plan.lines.length) best = c;
    }
    let id: number;
    let step = 0;
    let from = 0;
    if (best) {
      this.idle = this.idle.filter((c) => c !== best);
      clearTimeout(best.timer);
      ({ id, step } = best);
      from = best.plan.lines.length;
    } else {
      const [opened] = await this.port.submit('NEW_CHANNEL');
      const created = (opened?.RESPONSE as { ID?: unknown } | null)?.ID;
      if (!opened || opened.ERR !== '' || typeof created !== 'number') {
        throw new ToolError('prover_error', `cannot open a scratch channel: ${opened?.ERR || 'no channel id'}`);
      }
      id = created;
      const setup = [plan.prelude, plan.printMode].filter((x): x is string => x !== undefined);
      for (const request of setup) {
        const r = await this.send(id, request);
        if (r.ERR !== '') {
          void this.release(id);
          throw new ToolError('prover_error', `replaying "${request}" on scratch channel ${id}: ${r.ERR}`);
        }
      }
    }
    for (let k = from; k < plan.lines.length; k++) {
      const line = plan.lines[k] as string;
      const r = await this.send(id, line);
      if (r.ERR !== '') {
        void this.release(id);
        throw new ToolError(r.ERR === 'timeout' ? 'timeout' : 'prover_error', `replaying line ${k + 1} ("${line}") on scratch channel ${id}: ${r.ERR}`);
      }
      step = r.STEP ?? step;
    }
    return { id, step };
  }

  /** Restores the copy to its replayed step and keeps it for the next try; releases it if that fails. */
  private async giveBack(id: number, plan: ReplayPlan, step: number): Promise<void> {
    if (this.closed || step < 1) return this.release(id);
    const r = await this.send(id, `REVERT ${step}`);
    if (r.ERR !== '' || r.STEP !== step) return this.release(id);
    const timer = setTimeout(() => {
      this.idle = this.idle.filter((c) => c.id !== id);
      void this.release(id);
    }, this.idleMs);
    timer.unref?.();
    this.idle.push({ id, plan: { ...plan, lines: [...plan.lines] }, step, timer });
    while (this.idle.length > this.maxIdle) {
      const oldest = this.idle.shift() as Idle;
      clearTimeout(oldest.timer);
      void this.release(oldest.id);
    }
  }

  private async send(id: number, request: string): Promise<ShellResponse> {
    const [response] = await this.port.submit(`${id} ${request}`);
    return response ?? { CHANNEL: id, RESPONSE: null, ERR: 'internal error: no response' };
  }

  /** A copy is Arbor's own: CANCEL stops it at once, even in the middle of a try that ran past its deadline. */
  private async release(id: number): Promise<void> {
    await this.port.submit(`${id} CANCEL`).catch(() => undefined);
  }
}

function isPrefix(prefix: readonly string[], of: readonly string[]): boolean {
  return prefix.length <= of.length && prefix.every((line, i) => line === of[i]);
}
