import { ProverError } from '../../shell/prover-session.ts';
import { CoqCrash, CoqFailure, CoqTimeout, CoqideTopClient, type ClientOptions } from './coqidetop-client.ts';
import type { CoqMessage, RawGoal } from './xml-protocol.ts';
import type { Attempt, LogEntry, LogItem } from './coq-log.ts';
import type { OpenBlock } from './document-blocks.ts';
import type { CoqPreludes } from './coq-preludes.ts';
import { toProverError } from './coq-errors.ts';
import { cleanEnvironment } from './statement-reading.ts';
import { printedAllQueries, rememberPrintedAll } from './printed-all.ts';
import { startWithArborPlugin, withArborPlugin } from './arbor-plugin.ts';

/** How long past a tactic's own `Timeout` we wait for coqidetop before interrupting it. */
export const GRACE_MS = 2000;
/** Inside a HAMMER, how long before the deadline a running call is interrupted (the client kills it 1.5 s after). */
export const INTERRUPT_LEAD_MS = 700;
/** Limit for calls that only parse or move the tip (Add, Edit_at): they never run tactics. */
export const ROUND_TRIP_MS = 5000;

/**
 * The Coq session's document on one coqidetop: the preludes, then a log of sentences, with coqidetop's tip
 * kept at the log's end. Sentences are added and executed on the tip (`attempt`), the tip goes back with
 * `Edit_at` (`rewind`), and when coqidetop dies (or must be killed after a runaway tactic) a new one is
 * started with the preludes and the log replayed (`restart`). What the sentences mean (steps, DEFINE,
 * Qed) is the session's (coq-session.ts).
 */
export class CoqTip {
  client!: CoqideTopClient;
  /** coqidetop's state after the preludes: the log's sentences follow it. */
  private preludeTip = 0;
  log: LogEntry[] = [];
  /** The document's declarations and proofs, as spans of the log. */
  items: LogItem[] = [];
  /** The goals at the tip, as coqidetop printed them. */
  current: RawGoal[] = [];
  /** Shelved goals of the proof (counted by Coq apart from the goals tactics see). */
  shelved = 0;
  /** After `restore` the goals are re-read only when a step needs them (keeps REVERT at one round trip). */
  stale = false;
  /** coqidetop was killed at a HAMMER's deadline: restart it (replaying the log) at the next request. */
  private restartDue = false;
  /** While a HAMMER runs: the wall-clock instant its budget ends. No call runs past it (see `attempt`). */
  hardDeadline: number | undefined;
  /** Closed (channel released or cancelled): a step still running must not start a new coqidetop. */
  disposed = false;

  constructor(
    readonly clientOptions: ClientOptions,
    private readonly preludes: CoqPreludes,
    /** The log is cut to its first `len` sentences: what was learnt about the rest is forgotten. */
    private readonly onTruncate: (len: number) => void,
    /** A new coqidetop replays the preludes and the log: a `Require` loads its library as it is on disk now. */
    private readonly onRestart: () => void = () => undefined,
  ) {}

  /** Start coqidetop and run the preludes; throws `unavailable` when that is impossible. */
  async boot(): Promise<void> {
    if (this.disposed) throw new ProverError('unavailable', 'coqidetop: the session is closed');
    try {
      this.client = await this.startClient();
    } catch (e) {
      throw new ProverError('unavailable', `coqidetop: ${(e as Error).message}`);
    }
    if (this.disposed) {
      // Closed while it started (a CANCEL during a HAMMER stage that crashed the prover): nothing may outlive it.
      await this.client.dispose();
      throw new ProverError('unavailable', 'coqidetop: the session is closed');
    }
    // The statement judge's clean environment starts beside the prelude, not at the first END.
    cleanEnvironment.warm(this.clientOptions);
    await this.preludes.load(this.client);
    this.preludeTip = this.client.tip;
  }

  /** coqidetop with Arbor's plugin (arbor-plugin.ts); without it where it is not built or this Coq refuses it. */
  private async startClient(): Promise<CoqideTopClient> {
    if (!this.pluginRefused) {
      const client = await startWithArborPlugin(this.clientOptions);
      if (client !== undefined) return client;
      this.pluginRefused = withArborPlugin(this.clientOptions) !== undefined;
    }
    return CoqideTopClient.start(this.clientOptions);
  }

  private pluginRefused = false;

  /** A fresh coqidetop with the prelude and the log's first `len` sentences. */
  async restart(len: number): Promise<void> {
    if (this.client.alive) this.client.kill();
    await this.client.exited;
    this.truncate(len);
    this.onRestart();
    await this.boot();
    for (const entry of this.log) entry.stateId = await this.client.add(entry.sentence);
    const r = await this.client.goals();
    this.current = r.goals ?? [];
    this.shelved = r.shelved;
  }

  /** Keeps the log's first `len` sentences and the items that begin in them (a proof cut before its `Qed` is open again). */
  truncate(len: number): void {
    this.onTruncate(len);
    this.log.length = len;
    this.items = this.items.filter((i) => i.start < len);
    const last = this.items.at(-1);
    if (last?.end !== undefined && last.end > len) delete last.end;
  }

  /** The sections and modules the document's declarations leave open here. */
  openBlocks(): OpenBlock[] {
    return this.items.filter((i) => i.kind === 'define').at(-1)?.blocks ?? [];
  }

  /** The proof in progress (not yet closed by `Qed`), if any. */
  openProof(): LogItem | undefined {
    const last = this.items.at(-1);
    return last?.kind === 'proof' && last.end === undefined ? last : undefined;
  }

  /** Drops an unfinished proof (GOAL and DEFINE discard it, as the seed's GOAL does). */
  async discardOpenProof(): Promise<void> {
    const open = this.openProof();
    if (open) await this.rewind(open.start);
  }

  private stateAt(len: number): number {
    return len === 0 ? this.preludeTip : (this.log[len - 1] as LogEntry).stateId;
  }

  /** Back to the log's first `len` sentences, restarting coqidetop if it is gone. */
  async rewind(len: number): Promise<void> {
    if (this.client.alive && this.log.length === len && this.client.tip === this.stateAt(len)) {
      this.truncate(len); // already there: only the bookkeeping (an item that began here) goes
      return;
    }
    if (this.client.alive) {
      try {
        this.truncate(len);
        await this.editAtPastInterrupt(this.stateAt(len));
        return;
      } catch (e) {
        if (this.client.alive && !(e instanceof CoqTimeout)) throw e;
      }
    }
    if (this.hardDeadline !== undefined) {
      // Killed at a HAMMER's deadline (a tactic deaf to SIGINT): replaying the document would take the answer past
      // the user's budget, so the answer goes now and the next request restarts coqidetop (ensureAlive).
      this.truncate(len);
      this.restartDue = true;
      return;
    }
    await this.restart(len);
  }

  /** The restart a HAMMER's deadline put off (see rewind), before anything else uses coqidetop. */
  async ensureAlive(): Promise<void> {
    if (!this.restartDue) return;
    this.restartDue = false;
    try {
      await this.restart(this.log.length);
    } catch (e) {
      throw toProverError(e);
    }
  }

  /**
   * Add sentences on the tip and execute them. A Coq failure or an interrupted timeout is an answer
   * (`ok: false`, document restored); a dead process is thrown for the enclosing step to recover.
   */
  async attempt(sentences: string[], wantedMs: number, readBack?: { name: string }): Promise<Attempt> {
    const len = this.log.length;
    const before = this.client.tip;
    // Inside a HAMMER the user's budget is a wall-clock limit: a call is interrupted at the deadline
    // (SIGINT to coqidetop's group: its ATPs too) and none starts after it.
    const untilDeadline = this.hardDeadline === undefined ? Infinity : this.hardDeadline - Date.now();
    if (untilDeadline <= 0) throw new ProverError('timeout', 'timeout');
    // The interrupt goes a little before the deadline: a call deaf to SIGINT is killed after the client's grace,
    // and that too must fall within the second the user's budget allows for stopping.
    const hardLeft = Math.max(1, untilDeadline - INTERRUPT_LEAD_MS);
    const limitMs = Math.min(wantedMs, hardLeft);
    try {
      let r: { goals: RawGoal[] | undefined; shelved: number; messages: CoqMessage[] };
      if (sentences.length === 1) {
        // The common case: one pipelined exchange, the same two calls as a raw Add+Goal, one round trip.
        const sentence = sentences[0] as string;
        const ms = Math.min(limitMs + GRACE_MS, hardLeft);
        // END's Qed: what both judges read goes in the same exchange (printed-all.ts).
        const a = readBack === undefined ? await this.client.addAndGoals(sentence, ms) : await this.qedAndReadBack(sentence, readBack.name, ms);
        this.log.push({ sentence, stateId: a.stateId });
        r = a;
      } else {
        for (const sentence of sentences) this.log.push({ sentence, stateId: await this.client.add(sentence, ROUND_TRIP_MS) });
        r = await this.client.goals(Math.min(limitMs + GRACE_MS, Math.max(1, (this.hardDeadline ?? Infinity) - Date.now() - INTERRUPT_LEAD_MS)));
      }
      this.current = r.goals ?? [];
      this.shelved = r.shelved;
      this.stale = false;
      return { ok: true, goals: this.current, messages: r.messages };
    } catch (error) {
      this.log.length = len;
      if (this.fatal(error)) throw error;
      await this.editAtPastInterrupt(before);
      return { ok: false, error };
    }
  }

  private async qedAndReadBack(sentence: string, name: string, ms: number): ReturnType<CoqideTopClient['addAndGoals']> {
    const { sentence: then, queries } = printedAllQueries(this.client, name);
    const { added, answers } = await this.client.addAndGoalsThen(sentence, then, queries, ms);
    if (answers !== undefined) rememberPrintedAll(this.client, name, answers);
    return added;
  }

  /**
   * Edit_at, once more if a late SIGINT interrupted it: a deadline's interrupt that reaches coqidetop as its
   * call ends stays pending and stops the next call — an Edit_at whose failure left the log and coqidetop's tip
   * apart (`Stm.add called for a different state`, `Stm.Vcs_aux.Expired`).
   */
  private async editAtPastInterrupt(id: number): Promise<void> {
    try {
      await this.client.editAt(id, ROUND_TRIP_MS);
    } catch (e) {
      if (!(e instanceof CoqFailure) || !/User interrupt/i.test(e.message)) throw e;
      await this.client.editAt(id, ROUND_TRIP_MS);
    }
  }

  /** `attempt` of one sentence whose failure is thrown. */
  async run(sentence: string, limitMs: number): Promise<RawGoal[]> {
    const r = await this.attempt([sentence], limitMs);
    if (!r.ok) throw r.error;
    return r.goals;
  }

  /** A failure the tip does not survive: coqidetop died, or was killed after a runaway call. */
  fatal(error: unknown): boolean {
    return error instanceof CoqCrash || (error instanceof CoqTimeout && error.killed) || !this.client.alive;
  }

  /** The goals as they are now; calling the result puts them back after a look-ahead was rewound. */
  keepGoals(): () => void {
    const saved = { current: this.current, shelved: this.shelved };
    return () => {
      this.current = saved.current;
      this.shelved = saved.shelved;
    };
  }
}
