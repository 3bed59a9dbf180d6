import type { Goal } from '../../../shared/proof-tree/proof-state.ts';
import type { TreeView } from '../../../shared/proof-tree/proof-tree.ts';
import { openGoalCount, treeViewFromState } from '../../../shared/proof-tree/from-state-json.ts';
import type { ChannelEngine, ChannelStatus, DerivationAnswer, EngineCommand, EngineResult } from '../../shell/channel-engine.ts';
import {
  IsaReplError, IsaReplProtocolError, MINILANG_APP, MINILANG_BASE_LIB, MINILANG_REGISTER_ML, MINILANG_TOP_THEORY,
} from './isa-repl-client.ts';
import type { IsaReplClient, MinilangAnswer } from './isa-repl-client.ts';
import { minilangError } from './minilang-errors.ts';
import { toMinilang } from './minilang-mapping.ts';
import type { MinilangStep } from './minilang-mapping.ts';
import { checkName, PolicyRefusal, quoteTerm } from './minilang-policy.ts';
import { toSeedState } from './minilang-tree.ts';
import { ConnectionClosed, ReadTimeout } from './msgpack-connection.ts';


export interface MinilangEngineOptions {
  /** A new session on the Isa-REPL server (the factory knows where the server is and starts it if needed). */
  connect: () => Promise<IsaReplClient>;
  /** Stops a session's running command on the server (`kill N`); best effort. */
  interrupt: (client: IsaReplClient) => Promise<void>;
  /** The scratch theory's imports besides Minilang (the project's prelude; default `Main`). */
  imports: string[];
  /** Limit of every Minilang command (HAMMER n: n seconds), applied by the server through `\eval`. */
  timeoutMs: number;
  /** Extra time beyond a command's limit before Arbor gives up on the server's answer (default 30 s). */
  graceMs?: number;
  /** Limit of starting a proof, which loads the scratch theory's imports (default 600 s). */
  startMs?: number;
}

/** The theory a proof runs in (never ended, so never registered: every GOAL can use the same name). */
const SCRATCH_THEORY = 'Arbor_Scratch';
/** The reproduction script's theory (renamed to the file's name when saved). */
const SCRIPT_THEORY = 'Arbor_Proof';
const MINILANG_THEORY = 'Minilang.Minilang';
const INIT_STATE = 'mini-init';
/** Short control calls (stamp, rollback, print, …). */
const CONTROL_MS = 60_000;

/**
 * Why a session's connection ends under Arbor. The real server answers an interrupt (`kill N`, Isabelle's own
 * interrupts) by closing the connection, not with an error: the interrupt passes the handlers of Minilang's
 * REPL and of the server (`\<^try> … catch` passes interrupts through) to the worker's `finally`, which closes
 * the socket (Isa-REPL `library/Server.ML` at 9b1fe15, lines 816 and 859-863).
 */
const SESSION_CLOSED = 'the Isa-REPL server closed the session (it does so when the session is interrupted, by `kill` or by Isabelle, and when it stops)';

interface GoalRecord { name: string; expr: string }
/** The state after step n (index n-1). `step` is the Minilang command that made it (none for GOAL). */
interface Entry { step?: MinilangStep; state: Goal; view: TreeView; finished: boolean; theorem?: string }

/** An error whose message is already the protocol's ERR. */
class EngineError extends Error {}

/**
 * A channel served by a Minilang session on an Isa-REPL server (one TCP session per channel; the server is
 * shared). GOAL opens the Minilang REPL on a scratch theory whose only content is the goal; the seed's
 * commands become Minilang commands (`minilang-mapping.ts`); each state is stamped (`\stamp arbor_n`) so
 * REVERT n is `\rollback arbor_n`. The tree is Minilang's own, read from its answers. The END that leaves
 * Minilang's proof finished asks `\conclude` (Isabelle's kernel exports the theorem) and answers the
 * reproduction script. A session that stops answering is interrupted, reconnected and replayed.
 */
export class MinilangEngine implements ChannelEngine {
  private client: IsaReplClient | undefined;
  private inMinilang = false;
  private goal: GoalRecord | undefined;
  private history: Entry[] = [];
  private busy = false;
  private disposed = false;
  /** Why the session is closed when Arbor closed it itself (otherwise the server did). */
  private lostBecause: string | undefined;
  /** The session was lost and no new one could be opened: the next command replays the history on a new one. */
  private unreplayed = false;

  constructor(private readonly options: MinilangEngineOptions) {}

  status(): ChannelStatus {
    const status: ChannelStatus = { backend: 'isabelle', busy: this.busy, step: this.history.length, finished: this.history.at(-1)?.finished ?? false };
    if (this.client && !this.client.closed) status.pid = this.client.serverPid;
    return status;
  }

  /** No recorded derivation: see the reason. */
  derivation(): DerivationAnswer {
    return { unavailable: 'Minilang keeps its own proof tree: Arbor sees only its states, not which goal each step replaced' };
  }

  /** The tree after `step` (default: the latest); every entry of the history keeps its own view. */
  treeView(step = this.history.length): TreeView | undefined {
    return step >= 1 ? this.history[step - 1]?.view : undefined;
  }

  async execute(command: EngineCommand): Promise<EngineResult> {
    this.busy = true;
    try {
      return await this.run(command);
    } catch (err) {
      return { response: null, error: this.describe(err), ...(this.history.length > 0 ? { step: this.history.length } : {}) };
    } finally {
      this.busy = false;
    }
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    const client = this.client;
    this.client = undefined;
    if (!client) return;
    if (this.busy) await this.options.interrupt(client).catch(() => undefined);
    client.close();
  }

  private describe(err: unknown): string {
    if (this.disposed) return 'bad channel';
    if (err instanceof EngineError || err instanceof PolicyRefusal) return err.message;
    if (err instanceof IsaReplError) return minilangError(err.message);
    return `internal error: ${err instanceof Error ? err.message : String(err)}`;
  }

  private async run(command: EngineCommand): Promise<EngineResult> {
    if (this.disposed) throw new EngineError('bad channel');
    switch (command.name) {
      case 'GOAL': return this.startGoal({ name: checkName(command.theoremName ?? 'arbor_goal', 'theorem name'), expr: command.expr });
      case 'STATE': return this.current();
      case 'SCRIPT':
        if (!this.goal) throw new EngineError('no goal');
        return { response: this.script(), error: '' };
      case 'REVERT': return this.revert(command.step);
      case 'PRINT_MODE':
        if (command.mode === 2) throw new EngineError('unsupported: PRINT_MODE 2 (the Minilang REPL prints terms with Isabelle\'s pretty printer only)');
        return this.history.length > 0 ? this.current() : { response: null, error: '' };
      case 'PRELUDE': throw new EngineError('PRELUDE is handled by the shell');
      case 'SEARCH':
      case 'CHECK':
      case 'ABOUT':
      case 'PRINT':
      case 'LOCATE': throw new EngineError(`unsupported: ${command.name} (the Minilang REPL has no look-ups)`);
      default: {
        if (command.name === 'DEFINE' && !command.proofLocal) {
          throw new EngineError('unsupported: DEFINE "…" (declarations; the isabelle backend proves one theorem at a time). Minilang\'s proof-local DEFINE is written without quotes: DEFINE x where "x = …"');
        }
        const step = toMinilang(command, this.options.timeoutMs);
        if (!step) throw new EngineError(`internal error: ${command.name} has no Minilang counterpart`);
        return this.proofStep(step);
      }
    }
  }

  private current(): EngineResult {
    const last = this.history.at(-1);
    if (!last) throw new EngineError('no goal');
    return { response: last.state, error: '', step: this.history.length };
  }

  // --- GOAL -------------------------------------------------------------------------------------------------

  private async startGoal(goal: GoalRecord): Promise<EngineResult> {
    quoteTerm(goal.expr); // refused before anything changes
    // GOAL discards the proof before it (seed 000), even when Isabelle then rejects the new goal.
    this.history = [];
    this.goal = undefined;
    this.unreplayed = false;
    const entry = await this.guarded(this.options.startMs ?? 600_000, async (client, deadline) => {
      const answer = await this.openProof(client, goal, deadline);
      await client.stamp(stampName(1), CONTROL_MS);
      return this.entryFrom(answer, undefined, undefined);
    });
    this.goal = goal;
    this.history = [entry];
    return { response: entry.state, error: '', step: 1 };
  }

  /** Minilang's `set_theory_and_goal`: leave Minilang, back to the initial state, the scratch theory, the app. */
  private async openProof(client: IsaReplClient, goal: GoalRecord, deadline: number): Promise<MinilangAnswer> {
    if (this.inMinilang) {
      await client.closeMinilang(CONTROL_MS);
      this.inMinilang = false;
    }
    await client.rollbackState(INIT_STATE, CONTROL_MS);
    await client.evalSource(this.theorySource(goal), deadline);
    await client.runApp(MINILANG_APP, CONTROL_MS);
    await client.startMinilang({ hasty: false, endMode: 'RELAXED', sledgehammerParams: '' }, CONTROL_MS);
    this.inMinilang = true;
    return client.print(CONTROL_MS);
  }

  private theorySource(goal: GoalRecord): string {
    return `theory ${SCRATCH_THEORY}\n  imports ${[MINILANG_THEORY, ...this.options.imports].join(' ')}\nbegin\n\nlemma ${goal.name}: ${quoteTerm(goal.expr)}\n`;
  }

  // --- proof steps ------------------------------------------------------------------------------------------

  private async proofStep(step: MinilangStep): Promise<EngineResult> {
    const last = this.history.at(-1);
    if (!last) throw new EngineError('no goal');
    if (last.finished) throw new EngineError('no goal: the proof is finished');
    const n = this.history.length;
    const limit = step.limitMs ?? this.options.timeoutMs;
    const entry = await this.guarded(limit, async (client, deadline) => {
      const answer = await client.minilang(step.source, minilangLimits(limit), deadline);
      if (answer.commands.length !== 1) {
        // Defence in depth: the policy keeps keywords out of arguments, so this means Minilang split the text.
        await client.rollback(stampName(n), CONTROL_MS);
        throw new EngineError(`parse error: Minilang read ${answer.commands.length} commands in one request`);
      }
      let theorem: string | undefined;
      if (answer.finished) {
        try {
          theorem = (await client.conclude(CONTROL_MS)).theorem;
        } catch (err) {
          await client.rollback(stampName(n), CONTROL_MS);
          if (err instanceof IsaReplError) throw new EngineError(`fail: Minilang could not conclude the proof: ${minilangError(err.message)}`);
          throw err;
        }
      }
      await client.stamp(stampName(n + 1), CONTROL_MS);
      return this.entryFrom(answer, step, theorem);
    });
    this.history.push(entry);
    const result: EngineResult = { response: entry.state, error: '', step: this.history.length };
    if (entry.finished) result.script = this.script();
    return result;
  }

  private entryFrom(answer: MinilangAnswer, step: MinilangStep | undefined, theorem: string | undefined): Entry {
    const last = answer.commands.at(-1);
    if (!last) throw new IsaReplProtocolError('Minilang answered no proof state');
    const state = toSeedState(last[2]);
    const previous = this.history.at(-1)?.view;
    const view = treeViewFromState(state, { step: this.history.length + 1, ...(previous ? { previous } : {}) });
    const entry: Entry = { state, view, finished: answer.finished };
    if (step) entry.step = step;
    if (theorem !== undefined) entry.theorem = theorem;
    return entry;
  }

  private async revert(step: number): Promise<EngineResult> {
    if (this.history.length === 0) throw new EngineError('no goal');
    if (step < 1 || step > this.history.length) throw new EngineError(`bad step: ${step} (1..${this.history.length})`);
    if (step < this.history.length) {
      await this.guarded(CONTROL_MS, (client) => client.rollback(stampName(step), CONTROL_MS), step);
      this.history = this.history.slice(0, step);
    }
    return this.current();
  }

  // --- the reproduction script ------------------------------------------------------------------------------

  /**
   * The proof as a theory Isabelle checks alone: the goal as a lemma proved by Minilang's own proof method
   * `min_script` over the commands sent (Minilang's `\conclude` answers the theorem but, in v0.6.0, an empty
   * proof text). An unfinished proof ends in `sorry` with the commands so far in a text block.
   */
  private script(): string {
    const goal = this.goal as GoalRecord;
    const last = this.history.at(-1);
    const commands = this.history.slice(1).map((e) => `    ${(e.step as MinilangStep).source}`);
    const header = `theory ${SCRIPT_THEORY}\n  imports ${[MINILANG_THEORY, ...this.options.imports].join(' ')}\nbegin\n\n`;
    const lemma = `lemma ${goal.name}: ${quoteTerm(goal.expr)}\n`;
    if (last?.finished) {
      const concluded = last.theorem !== undefined ? `\n(* Minilang's \\conclude: ${last.theorem.replace(/\*\)/g, '* )')} *)\n` : '';
      return `${header}${lemma}  by (min_script \\<open>\n${commands.join('\n')}\n  \\<close>)\n${concluded}\nend\n`;
    }
    const open = last ? openGoalCount(last.state) : 1;
    return `${header}${lemma}  sorry (* unfinished: ${open} open goal${open === 1 ? '' : 's'}; the Minilang commands so far are below *)\n\ntext \\<open>Minilang commands so far:\n${commands.join('\n')}\n\\<close>\n\nend\n`;
  }

  // --- the session, its failures and recovery -----------------------------------------------------------------

  private async connection(): Promise<IsaReplClient> {
    if (this.client && !this.client.closed) return this.client;
    this.client = undefined;
    this.inMinilang = false;
    const client = await this.options.connect();
    if (this.disposed) {
      client.close();
      throw new EngineError('bad channel');
    }
    try {
      // As Minilang's Python client does on entering (`IsaMini/REPL.py`, `__aenter__`).
      await client.setTrace(false, CONTROL_MS);
      await client.loadTheories([MINILANG_TOP_THEORY], this.options.startMs ?? 600_000);
      await client.addLibs([MINILANG_BASE_LIB], CONTROL_MS);
      await client.runML(MINILANG_TOP_THEORY, MINILANG_REGISTER_ML, CONTROL_MS);
      await client.recordState(INIT_STATE, CONTROL_MS);
    } catch (err) {
      client.close();
      if (err instanceof IsaReplError) throw new EngineError(`unavailable: the Isa-REPL server cannot start Minilang's REPL (${MINILANG_TOP_THEORY}): ${minilangError(err.message)}`);
      if (err instanceof ConnectionClosed) throw new EngineError(`unavailable: ${SESSION_CLOSED}; it closed this one while Arbor set up Minilang's REPL on it`);
      throw err;
    }
    this.client = client;
    return client;
  }

  /**
   * Runs `op` on the session with Arbor's own deadline (`limitMs` + grace). Minilang's refusals pass through
   * (the state is unchanged); a session that answers nothing in time is interrupted, replaced and replayed
   * (`timeout`); a lost or garbled session is replaced and replayed (`prover crashed: …`). `keep` limits the
   * replay to the first `keep` steps (REVERT).
   */
  private async guarded<T>(limitMs: number, op: (client: IsaReplClient, deadlineMs: number) => Promise<T>, keep?: number): Promise<T> {
    const deadline = limitMs + (this.options.graceMs ?? 30_000);
    if ((this.client?.closed || this.unreplayed) && this.goal !== undefined && this.history.length > 0) {
      // The session broke between commands (the server died or dropped it): a new session is in REPL mode
      // with no proof, so bring the proof back before anything is sent, and say so.
      this.client = undefined;
      const why = this.lostBecause ?? SESSION_CLOSED;
      this.lostBecause = undefined;
      const note = await this.recover(keep);
      throw new EngineError(`prover crashed: ${why}; ${note}`);
    }
    let client: IsaReplClient;
    try {
      client = await this.connection();
    } catch (err) {
      if (err instanceof EngineError || err instanceof IsaReplError) throw err;
      throw new EngineError(`unavailable: ${err instanceof Error ? err.message : String(err)}`);
    }
    try {
      return await op(client, deadline);
    } catch (err) {
      if (this.disposed) throw new EngineError('bad channel');
      if (err instanceof EngineError || err instanceof IsaReplError || err instanceof PolicyRefusal) throw err;
      const timedOut = err instanceof ReadTimeout;
      if (timedOut) await this.options.interrupt(client).catch(() => undefined);
      if (!(timedOut || err instanceof ConnectionClosed || err instanceof IsaReplProtocolError)) throw err;
      client.close();
      this.client = undefined;
      const note = await this.recover(keep);
      if (timedOut) throw new EngineError('timeout');
      throw new EngineError(`prover crashed: ${err instanceof ConnectionClosed ? SESSION_CLOSED : err.message}; ${note}`);
    }
  }

  /** A new session brought back to the kept steps; says what it restored. */
  private async recover(keep = this.history.length): Promise<string> {
    const goal = this.goal;
    const kept = this.history.slice(0, keep);
    this.history = [];
    this.unreplayed = false;
    if (!goal || kept.length === 0) {
      this.goal = undefined;
      return 'reconnected';
    }
    let client: IsaReplClient;
    try {
      client = await this.connection();
    } catch (err) {
      // No new session now (the server is down, or another client holds its accept loop): the proof is kept, and
      // the next command tries again.
      const why = err instanceof Error ? err.message : String(err);
      this.history = kept;
      this.unreplayed = true;
      this.lostBecause = `the session was lost and Arbor could not open a new one (${why})`;
      return `not restarted (${why}): the next command tries again`;
    }
    try {
      const restored: Entry[] = [];
      this.history = restored;
      const first = await this.openProof(client, goal, this.options.startMs ?? 600_000);
      await client.stamp(stampName(1), CONTROL_MS);
      restored.push({ ...(kept[0] as Entry), ...this.entryFrom(first, undefined, undefined) });
      for (const entry of kept.slice(1)) {
        const step = entry.step as MinilangStep;
        const limit = step.limitMs ?? this.options.timeoutMs;
        const answer = await client.minilang(step.source, minilangLimits(limit), limit + (this.options.graceMs ?? 30_000));
        await client.stamp(stampName(restored.length + 1), CONTROL_MS);
        restored.push({ ...entry, ...this.entryFrom(answer, step, entry.theorem) });
      }
      return `restarted at step ${restored.length}`;
    } catch (err) {
      // A session that did not answer in time may still run the replayed step, and its late answer would be read
      // as the next command's: it is not used again (the next command replays on a new one). One that refused
      // a step (IsaReplError) is in step with Arbor and stays.
      if (!(err instanceof IsaReplError) && !client.closed) {
        if (err instanceof ReadTimeout) await this.options.interrupt(client).catch(() => undefined);
        client.close();
        this.lostBecause = 'Arbor closed the session whose replay did not finish';
      }
      if (this.history.length === 0) this.goal = undefined;
      return `replay stopped at step ${this.history.length}: ${err instanceof Error ? err.message : String(err)}`;
    }
  }
}

/**
 * The step's limit as both of `\eval`'s limits: the whole source, and one command — otherwise Minilang's own
 * per-command limit, `mini_single_cmd_timeout` (15 s, Isa-Mini v0.6.0 `library/proof.ML` line 1774), cuts an
 * APPLY short of the limit the user gave.
 */
function minilangLimits(limitMs: number): { totalMs: number; perCommandMs: number } {
  return { totalMs: limitMs, perCommandMs: limitMs };
}

function stampName(step: number): string {
  return `arbor_${step}`;
}
