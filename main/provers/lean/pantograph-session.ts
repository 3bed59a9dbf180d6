import type { OpenGoal } from '../../../shared/proof-tree/proof-state.ts';
import type { LineProcessOptions } from '../isabelle/line-process.ts';
import type { Checkpoint, PrintMode, ProofStep, ProverSession, StepOutcome } from '../../shell/prover-session.ts';
import { ProverError } from '../../shell/prover-session.ts';
import { PantographClient, SILENT } from './pantograph-client.ts';
import { renderLeanScript } from './lean-script.ts';
import type { ScriptOp } from './lean-script.ts';
import { checkText, librariesOf, planStep, suggestionIn, toOpenGoal } from './lean-mapping.ts';
import type { LeanLibraries } from './lean-mapping.ts';
import {
  failureMessages, goalPrintResultSchema, goalStartResultSchema, infoMessages, isPantographError, tacticResultSchema,
} from './pantograph-protocol.ts';
import type { PantographGoal } from './pantograph-protocol.ts';

export interface PantographSessionConfig {
  /** How to start the REPL (already wrapped for memory limits, LEAN_PATH in `env`). */
  process: LineProcessOptions;
  /** Modules the REPL imports (its arguments), for the script header and the hammer portfolio. */
  imports: readonly string[];
  timeoutMs: number;
  /** Beyond a command's limit before Arbor kills the REPL and replays (default 10 s). */
  graceMs?: number;
  /** Time allowed for `ready.` (importing Mathlib takes a while; default 120 s). */
  startupMs?: number;
  printMode?: PrintMode;
}

/** A step as it finally ran (HAMMER resolved to the tactic that worked), for replay on a new process. */
type Resolved =
  | { kind: 'tactic'; tactic: string }
  | { kind: 'have'; name: string; expr: string }
  | { kind: 'obtain'; name: string; exists: string; pattern: string; facts: string[] };

/** Everything about the proof after a step; immutable, so it doubles as the checkpoint. */
interface State {
  generation: number;
  stateId: number;
  /** Open goals in Arbor's order (the first is the current goal). */
  order: PantographGoal[];
  /** Goal names in Pantograph's own order for this state (goalId is an index into it). */
  pantographOrder: string[];
  statement: string;
  rootGoal: string | undefined;
  journal: Resolved[];
  ops: ScriptOp[];
  facts: string[];
}

interface TacticRun {
  state: State;
  produced: string[];
  messages: string[];
}

/**
 * Arbor's proof semantics over one Pantograph REPL (seed 001). Pantograph states are immutable ids, so a
 * checkpoint is a state and `restore` is an assignment. Arbor keeps its own goal order (the step's new
 * goals take the acted goal's place) and addresses goals by name, whatever order a Pantograph version
 * reports. When the REPL dies or stays silent past its limit, the session starts a new one and replays the
 * steps of the current state (with new ids), so the channel goes on from its last good step.
 */
export class PantographSession implements ProverSession {
  readonly backend = 'lean' as const;
  private state: State | undefined;
  private generation = 0;
  private printMode: PrintMode;
  private readonly libs: LeanLibraries;
  private supportsTimeout = false;
  private supportsGoalPrint = true;

  private constructor(private client: PantographClient, private readonly config: PantographSessionConfig) {
    this.printMode = config.printMode ?? 1;
    this.libs = librariesOf(config.imports);
  }

  static async open(config: PantographSessionConfig): Promise<PantographSession> {
    const client = await PantographClient.start(config.process, config.startupMs ?? 120_000);
    const session = new PantographSession(client, config);
    try {
      await session.configure();
    } catch (err) {
      await client.kill();
      throw err;
    }
    return session;
  }

  get pid(): number | undefined {
    return this.client.pid;
  }

  private get deadline(): number {
    return this.config.timeoutMs + (this.config.graceMs ?? 10_000);
  }

  /** Automatic mode keeps every goal in each state; the `timeout` option (v0.3) interrupts long tactics. */
  private async configure(): Promise<void> {
    const options = await this.client.request('options.print', {}, this.deadline);
    this.supportsTimeout = typeof options === 'object' && options !== null && 'timeout' in options;
    const set: Record<string, unknown> = { printJsonPretty: false, automaticMode: true, printExprAST: this.printMode === 2 };
    if (this.supportsTimeout) set.timeout = this.config.timeoutMs;
    const r = await this.client.request('options.set', set, this.deadline);
    if (isPantographError(r)) throw new ProverError('prover', `Pantograph: ${r.error}: ${r.desc}`);
  }

  async start(goal: string): Promise<StepOutcome> {
    checkText(goal, 'the goal');
    return this.guard(undefined, async () => {
      this.state = await this.startState(goal);
      return this.outcome(this.state, []);
    });
  }

  async step(step: ProofStep): Promise<StepOutcome> {
    const before = this.requireState();
    const plan = planStep(step, this.libs);
    return this.guard(before, async () => {
      const { state, resolved, script, messages } = await this.runPlan(before, plan);
      this.state = { ...state, journal: [...before.journal, resolved] };
      return this.outcome(this.state, script, messages);
    });
  }

  async restore(checkpoint: Checkpoint): Promise<void> {
    const target = checkpoint as State;
    if (target.generation === this.generation) {
      this.state = target;
      return;
    }
    // The checkpoint's state ids belong to a REPL that was replaced: rebuild it on this one.
    this.state = await this.replay(target);
  }

  async goals(): Promise<OpenGoal[]> {
    const state = this.requireState();
    return state.order.map((g) => this.toGoal(g, state));
  }

  async setPrintMode(mode: PrintMode): Promise<void> {
    this.printMode = mode;
    const r = await this.client.request('options.set', { printExprAST: mode === 2 }, this.deadline);
    if (isPantographError(r)) throw new ProverError('prover', `Pantograph: ${r.error}: ${r.desc}`);
    const state = this.state;
    if (!state || !this.supportsGoalPrint) return;
    const printed = goalPrintResultSchema.safeParse(await this.client.request('goal.print', { stateId: state.stateId, goals: true }, this.deadline));
    const fresh = printed.success ? printed.data.goals : undefined;
    if (!fresh) return;
    const byName = new Map(fresh.map((g) => [g.name, g]));
    this.state = { ...state, order: state.order.map((g) => byName.get(g.name) ?? g) };
  }

  renderScript(goal: string, _steps: string[][], openGoals: number): string {
    const state = this.state;
    return renderLeanScript({
      imports: this.config.imports,
      theoremName: 'arbor_goal',
      statement: state?.statement ?? goal,
      rootGoal: state?.rootGoal,
      ops: state?.ops ?? [],
      openGoals,
    });
  }

  async dispose(): Promise<void> {
    await this.client.kill();
  }

  // --- internals ---

  private requireState(): State {
    if (!this.state) throw new ProverError('prover', 'no goal');
    return this.state;
  }

  private toGoal(goal: PantographGoal, state: State): OpenGoal {
    return toOpenGoal(goal, this.printMode, new Set(state.facts));
  }

  private outcome(state: State, script: string[], messages: string[] = []): StepOutcome {
    const outcome: StepOutcome = { goals: state.order.map((g) => this.toGoal(g, state)), script, checkpoint: state };
    if (messages.length > 0) outcome.messages = messages;
    return outcome;
  }

  private async startState(goal: string): Promise<State> {
    await this.client.request('reset', {}, this.deadline);
    const r = await this.client.request('goal.start', { expr: goal }, this.deadline);
    if (isPantographError(r)) {
      throw new ProverError(/parse|unexpected|expected/i.test(r.desc) ? 'parse' : 'prover', `${/parse|unexpected|expected/i.test(r.desc) ? 'parse error: ' : ''}${r.desc}`);
    }
    const started = goalStartResultSchema.parse(r);
    let goals: PantographGoal[] | undefined;
    if (this.supportsGoalPrint) {
      const printed = goalPrintResultSchema.safeParse(await this.client.request('goal.print', { stateId: started.stateId, goals: true }, this.deadline));
      goals = printed.success ? printed.data.goals : undefined;
      if (!goals) this.supportsGoalPrint = false;
    }
    // v0.2 prints no goals: the one goal is the statement as given, with an empty context.
    goals ??= [{ name: started.root ?? 'root', target: { pp: goal }, vars: [] }];
    return {
      generation: this.generation, stateId: started.stateId, order: goals, pantographOrder: goals.map((g) => g.name ?? ''),
      statement: goal, rootGoal: goals[0]?.name ?? started.root, journal: [], ops: [], facts: [],
    };
  }

  private async runPlan(before: State, plan: ReturnType<typeof planStep>): Promise<{ state: State; resolved: Resolved; script: string[]; messages: string[] }> {
    switch (plan.kind) {
      case 'have': {
        const resolved: Resolved = { kind: 'have', name: plan.name, expr: plan.expr };
        return { ...(await this.applyResolved(before, resolved)), resolved, script: [`have ${plan.name} : ${plan.expr} := ?_`] };
      }
      case 'obtain': {
        const resolved: Resolved = { kind: 'obtain', name: plan.name, exists: plan.exists, pattern: plan.pattern, facts: plan.facts };
        return { ...(await this.applyResolved(before, resolved)), resolved, script: [`obtain ${plan.pattern} : ${plan.exists}`] };
      }
      case 'tactics': {
        let firstError: ProverError | undefined;
        let lastError: ProverError | undefined;
        for (const tactic of plan.alternatives) {
          try {
            const resolved: Resolved = { kind: 'tactic', tactic };
            return { ...(await this.applyResolved(before, resolved)), resolved, script: [tactic] };
          } catch (err) {
            if (!(err instanceof ProverError) || (err.code !== 'fail' && err.code !== 'parse')) throw err;
            firstError ??= err;
            lastError = err;
          }
        }
        if (plan.badRule && lastError && /equality or iff proof expected|not an equation|motive is not type correct/i.test(lastError.message)) {
          throw new ProverError('bad rule', 'bad rule: not an equation');
        }
        throw firstError ?? new ProverError('fail', 'fail');
      }
      case 'hammer':
        return this.hammer(before, plan.candidates, plan.timeoutMs);
    }
  }

  /** Tries each closing tactic under its own limit; the first that leaves no new goal is the proof. */
  private async hammer(before: State, candidates: string[], budgetMs: number): Promise<{ state: State; resolved: Resolved; script: string[]; messages: string[] }> {
    const end = Date.now() + budgetMs;
    let timedOut = false;
    let silent = false;
    try {
      for (const candidate of candidates) {
        const remaining = end - Date.now();
        if (remaining <= 0) {
          timedOut = true;
          break;
        }
        const limit = Math.max(200, Math.min(remaining, Math.max(2000, budgetMs / 2)));
        if (this.supportsTimeout) await this.client.request('options.set', { timeout: Math.round(limit) }, this.deadline);
        try {
          const run = await this.runTactic(before, before.order[0]?.name, candidate, limit + (this.config.graceMs ?? 10_000));
          if (run.produced.length > 0) continue;
          const found = suggestionIn(run.messages) ?? candidate;
          const resolved: Resolved = { kind: 'tactic', tactic: found };
          const op: ScriptOp = { goal: before.order[0]?.name ?? '', kind: 'tactic', text: found, produced: [] };
          return { state: { ...run.state, ops: [...before.ops, op] }, resolved, script: [found], messages: [`hammer: ${candidate} closed the goal`] };
        } catch (err) {
          if (!(err instanceof ProverError) || err.message === SILENT) throw err;
          if (err.code === 'timeout') timedOut = true;
          else if (err.code !== 'fail' && err.code !== 'parse') throw err;
        }
      }
    } catch (err) {
      silent = err instanceof ProverError && err.message === SILENT;
      throw err;
    } finally {
      // A REPL that went silent is about to be replaced; one that answered gets its default limit back.
      if (this.supportsTimeout && this.client.alive && !silent) await this.client.request('options.set', { timeout: this.config.timeoutMs }, this.deadline);
    }
    throw timedOut ? new ProverError('timeout', 'timeout') : new ProverError('fail', 'the hammer found no proof');
  }

  /** Runs a resolved step on `before` and records it in the script; shared by steps and replay. */
  private async applyResolved(before: State, resolved: Resolved): Promise<{ state: State; messages: string[] }> {
    const acted = before.order[0]?.name;
    if (acted === undefined) throw new ProverError('prover', 'no goal');
    switch (resolved.kind) {
      case 'tactic': {
        const run = await this.runTactic(before, acted, resolved.tactic, this.deadline);
        const op: ScriptOp = { goal: acted, kind: 'tactic', text: resolved.tactic, produced: run.produced };
        return { state: { ...run.state, ops: [...before.ops, op] }, messages: run.messages };
      }
      case 'have': {
        const run = await this.runPantograph(before, acted, { have: resolved.expr, binderName: resolved.name }, this.deadline);
        const op: ScriptOp = { goal: acted, kind: 'block', text: `have ${resolved.name} : ${resolved.expr}`, produced: run.produced };
        return { state: { ...run.state, ops: [...before.ops, op], facts: [...before.facts, resolved.name] }, messages: run.messages };
      }
      case 'obtain': {
        const claimed = await this.runPantograph(before, acted, { have: resolved.exists, binderName: resolved.name }, this.deadline);
        const [claim, main] = claimed.produced;
        if (claim === undefined || main === undefined) throw new ProverError('prover', 'Pantograph: have did not open a claim and a main goal');
        const run = await this.runTactic(claimed.state, main, `obtain ${resolved.pattern} := ${resolved.name}`, this.deadline);
        const op: ScriptOp = { goal: acted, kind: 'block', text: `obtain ${resolved.pattern} : ${resolved.exists}`, produced: [claim, ...run.produced] };
        return { state: { ...run.state, ops: [...before.ops, op], facts: [...before.facts, ...resolved.facts] }, messages: run.messages };
      }
    }
  }

  private runTactic(before: State, goal: string | undefined, tactic: string, deadlineMs: number): Promise<TacticRun> {
    if (goal === undefined) throw new ProverError('prover', 'no goal');
    return this.runPantograph(before, goal, { tactic: checkText(tactic, 'the tactic') }, deadlineMs);
  }

  /** One `goal.tactic` on the named goal; the produced goals take its place in Arbor's order. */
  private async runPantograph(before: State, goal: string, action: Record<string, unknown>, deadlineMs: number): Promise<TacticRun> {
    const byName = before.pantographOrder.every((n) => n !== '');
    const goalId = byName ? before.pantographOrder.indexOf(goal) : before.order.findIndex((g) => g.name === goal);
    if (goalId < 0) throw new ProverError('prover', `internal: goal ${goal} is not in state ${before.stateId}`);
    const raw = await this.client.request('goal.tactic', { stateId: before.stateId, goalId, ...action }, deadlineMs);
    if (isPantographError(raw)) {
      if (raw.error === 'internal' && raw.desc === 'interrupt') throw new ProverError('timeout', 'timeout');
      throw new ProverError('prover', `Pantograph: ${raw.error}: ${raw.desc}`);
    }
    const result = tacticResultSchema.parse(raw);
    if (result.parseError !== undefined) throw new ProverError('parse', `parse error: ${result.parseError}`);
    if (result.nextStateId === undefined || result.goals === undefined) {
      const failure = failureMessages(result).join('\n').trim();
      throw new ProverError('fail', failure.split('\n')[0] ?? 'fail');
    }
    if (result.hasSorry === true) throw new ProverError('fail', 'the tactic uses sorry (a reproduction script may not)');
    const goals = result.goals;
    const named = goals.every((g) => (g.name ?? '') !== '');
    let order: PantographGoal[];
    let produced: string[];
    if (named && byName) {
      const previous = new Set(before.order.map((g) => g.name));
      const current = new Map(goals.map((g) => [g.name, g]));
      const fresh = goals.filter((g) => !previous.has(g.name) || g.name === goal);
      produced = fresh.map((g) => g.name ?? '');
      order = before.order.flatMap((g) => (g.name === goal ? fresh : current.has(g.name) ? [current.get(g.name) as PantographGoal] : []));
    } else {
      // Without names, trust Pantograph's order: the acted goal's successors first, then the others.
      const others = before.order.length - 1;
      order = goals;
      produced = goals.slice(0, Math.max(0, goals.length - others)).map((g, i) => g.name ?? `goal${before.stateId}.${i}`);
    }
    const state: State = { ...before, stateId: result.nextStateId, order, pantographOrder: goals.map((g) => g.name ?? '') };
    return { state, produced, messages: infoMessages(result) };
  }

  /**
   * Runs `work`; if the REPL crashed or stopped answering, starts a new one, replays the state before the
   * step, and reports the step as failed (`crashed` or `timeout`) with the session usable again.
   */
  private async guard<T>(before: State | undefined, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (err) {
      if (err instanceof ProverError && (err.code === 'crashed' || (err.code === 'timeout' && err.message === SILENT))) {
        await this.recover(before);
        throw new ProverError(err.code, err.code === 'timeout' ? 'timeout' : `${err.message}; restarted${before ? ' and replayed' : ''}`);
      }
      if (before) this.state = before;
      throw err;
    }
  }

  private async recover(before: State | undefined): Promise<void> {
    await this.client.kill();
    this.generation++;
    this.client = await PantographClient.start(this.config.process, this.config.startupMs ?? 120_000);
    await this.configure();
    this.state = before ? await this.replay(before) : undefined;
  }

  /** Rebuilds a state on the current REPL from its statement and journal. */
  private async replay(target: State): Promise<State> {
    let state = await this.startState(target.statement);
    for (const resolved of target.journal) {
      const { state: next } = await this.applyResolved(state, resolved);
      state = { ...next, journal: [...state.journal, resolved] };
    }
    return state;
  }
}
