import { parseRequest } from '../../shared/protocol/parse-request.ts';
import type { ShellResponse } from '../../shared/protocol/shell-command.ts';
import { managesChannel } from '../../shared/protocol/commands.ts';
import type { Shell } from './shell.ts';
import { engineResponse } from './shell.ts';
import type { EngineState } from './tactic-engine.ts';
import { TacticEngine } from './tactic-engine.ts';

/** A fork at work: requests (no channel id) run on it, from the handle's state; answered as the channel's. */
export interface ForkRun {
  /** The step of the channel's state the fork started from. */
  readonly step: number;
  run(request: string): Promise<ShellResponse>;
}

export interface ForkOptions {
  /** The channel's state after this step (default: its state now). */
  step?: number;
  /** Past this, the fork's prover is stopped and the run rejects with `ForkTimeout`. */
  deadlineMs?: number;
}

export class ForkUnavailable extends Error {}
export class ForkTimeout extends Error {}

/** A warm prover beside a channel, holding (a prefix of) the channel's document. */
interface Sibling {
  engine: TacticEngine;
  busy: boolean;
  /** A catch-up to the channel's latest state running in the background. */
  following?: Promise<void>;
}


/**
 * Forks as state handles (issue 22, item 2). A channel's state after a step is a value (`EngineState`); a
 * fork is an engine that adopted it on its own prover. Each channel that was ever forked keeps warm sibling
 * provers that hold its document: the first follows the channel in the background (after every answer it
 * adopts the latest state, which costs only the steps since), so a try from any state near the tip costs one
 * rewind (Coq's `Edit_at`) plus the try — never a replay of the document. `run` borrows a sibling for a
 * try and rewinds it to the handle afterwards; `fork` hands one over as a channel of its own
 * (`document.fork`). The channel itself never moves and never sees a fork's traffic.
 */
export class StateForks {
  private readonly siblings = new Map<number, Sibling[]>();
  private readonly waiting = new Map<number, (() => void)[]>();
  /** Channels whose own prover a try borrows now (a concurrent try goes to a sibling). */
  private readonly borrowed = new Set<number>();
  /**
   * The channel's state when a try took its own prover: while the try runs, the engine's history holds the
   * try's steps, so handles (other tries, `document.fork`, the follower) are read from this instead.
   */
  private readonly lentAt = new Map<number, EngineState>();
  private closed = false;

  constructor(private readonly shell: Shell, private readonly options: { perChannel?: number } = {}) {
    shell.onClose(() => this.close());
    shell.onEvent((event) => {
      if (event.kind === 'channels') this.prune(event.channels);
      else if (event.kind === 'response') this.follow(event.response.CHANNEL);
    });
  }

  /** Whether `channel` can be forked (an engine with state handles: Coq, eq, Lean; not a pass-through). */
  canFork(channel: number): boolean {
    return this.shell.engine(channel) instanceof TacticEngine;
  }

  /** The channel's state after `step` (default: now) as a handle. */
  handle(channel: number, step?: number): EngineState {
    const engine = this.shell.engine(channel);
    if (!(engine instanceof TacticEngine)) throw new ForkUnavailable(`channel ${channel} cannot be forked`);
    const state = this.stateOf(channel, engine, step);
    if (!state) throw new ForkUnavailable(`channel ${channel} has no step ${step ?? ''}`.trim());
    return state;
  }

  /** The channel's own state after `step`: never a try's steps, while a try holds the channel's prover. */
  private stateOf(channel: number, engine: TacticEngine, step?: number): EngineState | undefined {
    const lent = this.lentAt.get(channel);
    if (!lent) return engine.stateHandle(step);
    if (step === undefined) return lent;
    return step >= 0 && step <= lent.records.length ? { ...lent, records: lent.records.slice(0, step) } : undefined;
  }

  /**
   * Runs `work` on a fork of `channel` (at `options.step`); the fork goes back to the handle afterwards. A try
   * from the channel's state now, while nothing else borrows it, runs on the channel's own prover in the
   * channel's turn — it holds the document already — and rewinds it to the handle after (`Edit_at`); any
   * other runs on a warm sibling.
   */
  async run<T>(channel: number, work: (fork: ForkRun) => Promise<T>, options: ForkOptions = {}): Promise<T> {
    const own = this.shell.engine(channel);
    if (options.step === undefined && own instanceof TacticEngine && !own.status().busy && !this.borrowed.has(channel) && own.status().step > 0) {
      return this.onOwn(channel, work, options);
    }
    const state = this.handle(channel, options.step);
    const sibling = await this.acquire(channel);
    const clock = forkDeadline(options.deadlineMs);
    const { deadline } = clock;
    let keep = false;
    try {
      const attempt = (async (): Promise<T> => {
        await sibling.engine.adopt(state);
        const result = await work({ step: state.records.length, run: (request) => this.send(channel, sibling.engine, request) });
        // Back to the handle: one rewind; the sibling stays warm for the next try.
        await sibling.engine.adopt(state);
        return result;
      })();
      attempt.catch(() => undefined);
      const result = await Promise.race([attempt, deadline]);
      keep = !clock.expired;
      return result;
    } finally {
      clock.clear();
      this.release(channel, sibling, keep);
    }
  }

  /** `run` on the channel's own prover: in its turn, from its state then, rewound to it afterwards. */
  private async onOwn<T>(channel: number, work: (fork: ForkRun) => Promise<T>, options: ForkOptions): Promise<T> {
    this.borrowed.add(channel);
    // The channel's prover is not stopped at the deadline (it holds the document): the running step ends at
    // its own limit, the rest of the try is refused, and the prover rewinds to the handle.
    const clock = forkDeadline(options.deadlineMs);
    const { deadline } = clock;
    const attempt = this.shell.exclusive(channel, async (engine) => {
      if (!(engine instanceof TacticEngine)) throw new ForkUnavailable(`channel ${channel} cannot be forked`);
      const state = engine.stateHandle() as EngineState;
      this.lentAt.set(channel, state);
      try {
        return await work({
          step: state.records.length,
          run: (request) => (clock.expired ? Promise.resolve({ CHANNEL: channel, RESPONSE: null, ERR: 'timeout' }) : this.send(channel, engine, request)),
        });
      } finally {
        try {
          await engine.adopt(state);
        } finally {
          this.lentAt.delete(channel);
        }
      }
    }).finally(() => {
      this.borrowed.delete(channel);
      clock.clear();
    });
    attempt.catch(() => undefined);
    try {
      return await Promise.race([attempt, deadline]);
    } catch (e) {
      // Past the deadline the answer waits for the rewind: until then the channel's prover holds the try's steps.
      if (e instanceof ForkTimeout) await attempt.catch(() => undefined);
      throw e;
    }
  }

  /** `document.fork`: a new channel whose engine adopted `channel`'s state after `step`; its id and step. */
  async fork(channel: number, step?: number): Promise<{ channel: number; step: number }> {
    const state = this.handle(channel, step);
    const sibling = await this.acquire(channel);
    try {
      await sibling.engine.adopt(state);
    } catch (e) {
      this.release(channel, sibling, false);
      throw e;
    }
    // Handed over: the shell owns the engine now (and the next try makes a new sibling).
    this.remove(channel, sibling);
    this.wake(channel);
    const opened = this.shell.openWith(sibling.engine, this.shell.preludeOf(channel));
    if ('error' in opened) {
      await sibling.engine.dispose();
      throw new Error(opened.error);
    }
    return { channel: opened.id, step: state.records.length };
  }

  async close(): Promise<void> {
    this.closed = true;
    const all = [...this.siblings.values()].flat();
    this.siblings.clear();
    for (const resolvers of this.waiting.values()) for (const wake of resolvers.splice(0)) wake();
    await Promise.all(all.map((s) => s.engine.dispose()));
  }

  private async send(channel: number, engine: TacticEngine, request: string): Promise<ShellResponse> {
    const parsed = parseRequest(request);
    if ('error' in parsed) return { CHANNEL: channel, RESPONSE: null, ERR: parsed.error };
    const { command } = parsed;
    // Requests a fork does not take: they would leave it (the channel's own) or change what it is a fork of.
    if (managesChannel(command) || command.name === 'PRELUDE') {
      return { CHANNEL: channel, RESPONSE: null, ERR: `${command.name} is not allowed on a fork` };
    }
    return engineResponse(channel, command, await engine.execute(command));
  }

  /** An idle sibling of `channel` (the one following it first), a new one while under the limit, or the next freed. */
  private async acquire(channel: number): Promise<Sibling> {
    for (;;) {
      if (this.closed) throw new ForkUnavailable('the shell is closed');
      const list = this.siblings.get(channel) ?? [];
      const idle = list.find((s) => !s.busy);
      if (idle) {
        idle.busy = true;
        await idle.following;
        return idle;
      }
      if (list.length < (this.options.perChannel ?? 2)) {
        const engine = this.shell.siblingEngine(channel);
        if (!(engine instanceof TacticEngine)) {
          await engine?.dispose();
          throw new ForkUnavailable(`channel ${channel} cannot be forked`);
        }
        const sibling: Sibling = { engine, busy: true };
        this.siblings.set(channel, [...list, sibling]);
        return sibling;
      }
      await new Promise<void>((resolve) => this.waiting.set(channel, [...(this.waiting.get(channel) ?? []), resolve]));
    }
  }

  private release(channel: number, sibling: Sibling, keep: boolean): void {
    sibling.busy = false;
    if (!keep || this.closed) {
      this.remove(channel, sibling);
      void sibling.engine.dispose();
    } else this.follow(channel);
    this.wake(channel);
  }

  private remove(channel: number, sibling: Sibling): void {
    const list = (this.siblings.get(channel) ?? []).filter((s) => s !== sibling);
    if (list.length > 0) this.siblings.set(channel, list);
    else this.siblings.delete(channel);
  }

  private wake(channel: number): void {
    this.waiting.get(channel)?.shift()?.();
  }

  /** The first sibling of a channel keeps up with it in the background while nobody uses it. */
  private follow(channel: number): void {
    const first = this.siblings.get(channel)?.[0];
    if (!first || first.busy || first.following || this.closed) return;
    first.following = (async () => {
      try {
        for (;;) {
          const engine = this.shell.engine(channel);
          if (!(engine instanceof TacticEngine) || first.busy || this.closed) return;
          // (While the channel runs a command its history is the state before it: a state all the same.)
          const latest = this.stateOf(channel, engine);
          const held = first.engine.stateHandle();
          if (!latest || (held && sameState(held, latest))) return;
          await first.engine.adopt(latest);
        }
      } catch {
        // A sibling that cannot keep up is replaced on the next try.
        this.remove(channel, first);
        void first.engine.dispose();
      } finally {
        delete first.following;
      }
    })();
  }

  /** Siblings of channels that are gone are stopped. */
  private prune(open: readonly number[]): void {
    for (const [channel, list] of this.siblings) {
      if (open.includes(channel)) continue;
      this.siblings.delete(channel);
      for (const s of list) void s.engine.dispose();
    }
  }
}

/** Whether two handles are the same state (the same steps, a fork's standing for the channel's it mirrors). */
function sameState(a: EngineState, b: EngineState): boolean {
  const last = (s: EngineState): unknown => {
    const r = s.records.at(-1);
    return r?.origin ?? r;
  };
  return a.records.length === b.records.length && last(a) === last(b) && a.printMode === b.printMode;
}

const forks = new WeakMap<Shell, StateForks>();

/** The shell's forks (one `StateForks` per shell, made on first use). */
export function forksOf(shell: Shell): StateForks {
  let f = forks.get(shell);
  if (!f) {
    f = new StateForks(shell);
    forks.set(shell, f);
  }
  return f;
}

/** A try's deadline: a promise that rejects with ForkTimeout when it passes (never without a limit), and whether it did. */
function forkDeadline(ms: number | undefined): { deadline: Promise<never>; readonly expired: boolean; clear(): void } {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let expired = false;
  const deadline = new Promise<never>((_, reject) => {
    if (ms === undefined) return;
    timer = setTimeout(() => {
      expired = true;
      reject(new ForkTimeout(`no answer within ${Math.round(ms / 1000)} s on a fork`));
    }, ms);
  });
  return { deadline, get expired() { return expired; }, clear: () => clearTimeout(timer) };
}
