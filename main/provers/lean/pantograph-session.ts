import type { OpenGoal } from '../../../shared/proof-tree/proof-state.ts';
import type { LineProcessOptions } from '../../process/line-process.ts';
import type { Checkpoint, FinishedProof, PrintMode, ProofStep, ProverSession, StepOutcome } from '../../shell/prover-session.ts';
import { ProverError } from '../../shell/prover-session.ts';
import { PantographClient, SILENT } from './pantograph-client.ts';
import { renderLeanScript } from './lean-script.ts';
import type { ScriptOp } from './lean-script.ts';
import { checkIdent, checkText, librariesOf, planStep, suggestionIn, toOpenGoal } from './lean-mapping.ts';
import type { LeanLibraries } from './lean-mapping.ts';
import type { LeanCheckResult } from './lean-check.ts';
import { TRUSTED_LEAN_AXIOMS } from './lean-check.ts';
import {
  errorKind, failureMessages, goalPrintResultSchema, goalStartResultSchema, infoMessages, isInterrupt, isPantographError,
  statResultSchema, tacticResultSchema,
} from './pantograph-protocol.ts';
import type { PantographError, PantographGoal } from './pantograph-protocol.ts';

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
  /**
   * Checks a finished proof's script with Lean itself (`lean` on the file, `#print axioms`); undefined
   * when `lean` is not installed, and then the answer is undefined too.
   */
  checkScript?: (script: string, theorem: string) => Promise<LeanCheckResult | undefined>;
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
  /** Goal names in Pantograph's own order for this state (`goalId` is an index into it). */
  pantographOrder: string[];
  statement: string;
  theorem: string;
  rootGoal: string;
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
 * Arbor's proof semantics over one Pantograph REPL (seed 001; protocol of Pantograph ≥ 0.3.4). Pantograph
 * states are immutable ids, so a checkpoint is a state and `restore` is an assignment. Arbor keeps its own
 * goal order (the step's new goals take the acted goal's place) and addresses goals by name.
 * States Arbor no longer needs are freed with `goal.delete` (a failed attempt, a refused step, the states
 * after a restored checkpoint, a previous proof); a checkpoint whose state was freed is rebuilt by replay.
 * A step whose proof term uses `sorry` or an unsafe constant (`hasSorry`/`hasUnsafe`) is refused.
 * When the REPL dies or stays silent past its limit, the session starts a new one and replays the steps
 * of the current state (with new ids), so the channel goes on from its last good step.
 */
export class PantographSession implements ProverSession {
  readonly backend = 'lean' as const;
  private state: State | undefined;
  private generation = 0;
  private printMode: PrintMode;
  private readonly libs: LeanLibraries;
  /** Pantograph state ids of this generation that Arbor has not deleted. */
  private live = new Set<number>();
  /** Why the current REPL is dead when Arbor killed it itself (its replay failed). */
  private lost: string | undefined;

  private constructor(private client: PantographClient, private readonly config: PantographSessionConfig) {
    this.printMode = config.printMode ?? 1;
    this.libs = librariesOf(config.imports);
  }

  static async open(config: PantographSessionConfig): Promise<PantographSession> {
    const client = await PantographClient.start(config.process, config.startupMs ?? 120_000, config.imports);
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

  /** How many goal states the REPL holds (`stat`): what `goal.delete` keeps bounded. */
  async stateCount(): Promise<number> {
    return statResultSchema.parse(await this.client.request('stat', {}, this.deadline)).nGoals;
  }

  private get deadline(): number {
    return this.config.timeoutMs + (this.config.graceMs ?? 10_000);
  }

  /** Automatic mode keeps every goal in each state; the `timeout` option interrupts long tactics. */
  private async configure(): Promise<void> {
    await this.setOptions({ printJsonPretty: false, printExprPretty: true, automaticMode: true, printExprAST: this.printMode === 2, timeout: this.config.timeoutMs });
  }

  private async setOptions(options: Record<string, unknown>): Promise<void> {
    const r = await this.client.request('options.set', options, this.deadline);
    if (isPantographError(r)) throw asProverError(r);
  }

  async start(goal: string, name = 'arbor_goal'): Promise<StepOutcome> {
    checkText(goal, 'the goal');
    const theorem = checkIdent(name, 'the theorem name');
    return this.guard(undefined, async () => {
      const previous = [...this.live];
      this.state = await this.startState(goal, theorem);
      // One theorem at a time: the states of the proof before are of no further use.
      await this.release(previous);
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
    if (target.generation === this.generation && this.live.has(target.stateId)) {
      this.state = target;
      // Later states are discarded (the ProverSession contract); ids only grow, so they are the larger ones.
      await this.release([...this.live].filter((id) => id > target.stateId));
      return;
    }
    // The checkpoint's state belongs to a REPL that was replaced, or was freed: rebuild it here, and free
    // what came after it on this REPL.
    const later = target.generation === this.generation ? [...this.live].filter((id) => id > target.stateId) : [];
    this.state = await this.replay(target);
    await this.release(later);
  }

  async goals(): Promise<OpenGoal[]> {
    const state = this.requireState();
    return state.order.map((g) => this.toGoal(g, state));
  }

  async setPrintMode(mode: PrintMode): Promise<void> {
    this.printMode = mode;
    await this.setOptions({ printExprAST: mode === 2 });
    const state = this.state;
    if (!state) return;
    const printed = goalPrintResultSchema.safeParse(await this.client.request('goal.print', { stateId: state.stateId, goals: true }, this.deadline));
    if (!printed.success) throw new ProverError('prover', `Pantograph answered goal.print in a shape Arbor does not know: ${printed.error.issues[0]?.message ?? ''}`);
    const byName = new Map(printed.data.goals.map((g) => [g.name, g]));
    this.state = { ...state, order: state.order.map((g) => byName.get(g.name) ?? g) };
  }

  renderScript(goal: string, _steps: string[][], openGoals: number): string {
    const state = this.state;
    return renderLeanScript({
      imports: this.config.imports,
      theoremName: state?.theorem ?? 'arbor_goal',
      statement: state?.statement ?? goal,
      rootGoal: state?.rootGoal,
      ops: state?.ops ?? [],
      openGoals,
    });
  }

  /**
   * The proof is finished only when Pantograph's proof term for the root is complete and clean (no
   * `sorry`, no unsafe constant, no metavariable: `goal.print`'s `rootHas…`) and, where `lean` is
   * installed, Lean's kernel accepts the reproduction script alone with only Lean's standard axioms.
   */
  async finish(): Promise<FinishedProof> {
    const state = this.requireState();
    if (state.order.length > 0) throw new ProverError('fail', `${state.order.length} goal(s) still open`);
    // Only the flags are wanted: print the root as an empty expression (no pretty-printing of a large term).
    await this.setOptions({ printExprPretty: false, printExprAST: false });
    let raw: unknown;
    try {
      raw = await this.client.request('goal.print', { stateId: state.stateId, rootExpr: true }, this.deadline);
    } finally {
      await this.setOptions({ printExprPretty: true, printExprAST: this.printMode === 2 });
    }
    if (isPantographError(raw)) throw asProverError(raw);
    const printed = goalPrintResultSchema.parse(raw);
    if (printed.root === undefined) throw new ProverError('fail', 'Pantograph has no proof term for the theorem');
    if (printed.rootHasSorry) throw new ProverError('unsound', 'unsound: the proof term uses sorry');
    if (printed.rootHasUnsafe) throw new ProverError('unsound', 'unsound: the proof term uses an unsafe constant');
    if (printed.rootHasMVar) throw new ProverError('fail', 'the proof term still has unassigned metavariables');
    const checked = await this.config.checkScript?.(this.renderScript(state.statement, [], 0), state.theorem);
    if (checked === undefined) return { checkpoint: state };
    if (!checked.ok) throw new ProverError(checked.timedOut ? 'timeout' : 'fail', `Lean refused the reproduction script: ${checked.error}`);
    const untrusted = checked.axioms.filter((a) => !TRUSTED_LEAN_AXIOMS.includes(a));
    if (untrusted.length > 0) throw new ProverError('unsound', `unsound: depends on ${untrusted.join(', ')}`);
    return { assumptions: checked.axioms, checkpoint: state };
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

  /** `goal.delete` for states Arbor will not use again (unknown ids are ignored by Pantograph). */
  private async release(ids: readonly number[]): Promise<void> {
    const stateIds = ids.filter((id) => this.live.delete(id));
    if (stateIds.length === 0 || !this.client.alive) return;
    const r = await this.client.request('goal.delete', { stateIds }, this.deadline);
    if (isPantographError(r)) throw asProverError(r);
  }

  private async startState(goal: string, theorem: string): Promise<State> {
    const r = await this.client.request('goal.start', { expr: goal }, this.deadline);
    if (isPantographError(r)) throw asProverError(r);
    const started = goalStartResultSchema.parse(r);
    this.live.add(started.stateId);
    const printed = await this.client.request('goal.print', { stateId: started.stateId, goals: true }, this.deadline);
    if (isPantographError(printed)) throw asProverError(printed);
    const goals = goalPrintResultSchema.parse(printed).goals;
    return {
      generation: this.generation, stateId: started.stateId, order: goals, pantographOrder: goals.map((g) => g.name),
      statement: goal, theorem, rootGoal: started.root, journal: [], ops: [], facts: [],
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
    const acted = before.order[0]?.name;
    if (acted === undefined) throw new ProverError('prover', 'no goal');
    try {
      for (const candidate of candidates) {
        const remaining = end - Date.now();
        if (remaining <= 0) {
          timedOut = true;
          break;
        }
        const limit = Math.max(200, Math.min(remaining, Math.max(2000, budgetMs / 2)));
        await this.setOptions({ timeout: Math.round(limit) });
        try {
          const run = await this.runTactic(before, acted, candidate, limit + (this.config.graceMs ?? 10_000));
          if (run.produced.length > 0) {
            await this.release([run.state.stateId]);
            continue;
          }
          const found = suggestionIn(run.messages) ?? candidate;
          const resolved: Resolved = { kind: 'tactic', tactic: found };
          const op: ScriptOp = { goal: acted, kind: 'tactic', text: found, produced: [] };
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
      if (this.client.alive && !silent) await this.setOptions({ timeout: this.config.timeoutMs });
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
        // The state between the two halves is never a checkpoint.
        await this.release([claimed.state.stateId]);
        const op: ScriptOp = { goal: acted, kind: 'block', text: `obtain ${resolved.pattern} : ${resolved.exists}`, produced: [claim, ...run.produced] };
        return { state: { ...run.state, ops: [...before.ops, op], facts: [...before.facts, ...resolved.facts] }, messages: run.messages };
      }
    }
  }

  private runTactic(before: State, goal: string, tactic: string, deadlineMs: number): Promise<TacticRun> {
    return this.runPantograph(before, goal, { tactic: checkText(tactic, 'the tactic') }, deadlineMs);
  }

  /** One `goal.tactic` on the named goal; the produced goals take its place in Arbor's order. */
  private async runPantograph(before: State, goal: string, action: Record<string, unknown>, deadlineMs: number): Promise<TacticRun> {
    const goalId = before.pantographOrder.indexOf(goal);
    if (goalId < 0) throw new ProverError('prover', `internal: goal ${goal} is not in state ${before.stateId}`);
    const raw = await this.client.request('goal.tactic', { stateId: before.stateId, goalId, ...action }, deadlineMs);
    if (isPantographError(raw)) throw asProverError(raw);
    const parsed = tacticResultSchema.safeParse(raw);
    if (!parsed.success) throw new ProverError('prover', `Pantograph answered goal.tactic in a shape Arbor does not know (${parsed.error.issues[0]?.path.join('.') ?? ''}: ${parsed.error.issues[0]?.message ?? ''})`);
    const result = parsed.data;
    if (result.parseError !== undefined) throw new ProverError('parse', `parse error: ${result.parseError}`);
    if (result.nextStateId === undefined || result.goals === undefined) {
      const failure = failureMessages(result).join('\n').trim();
      throw new ProverError('fail', failure.split('\n')[0] || 'fail');
    }
    this.live.add(result.nextStateId);
    if (result.hasSorry || result.hasUnsafe) {
      // PyPantograph refuses such a step too (and deletes its state): it proves nothing.
      await this.release([result.nextStateId]);
      throw new ProverError('fail', result.hasSorry ? 'the step uses sorry: it proves nothing' : 'the step uses an unsafe constant: it proves nothing');
    }
    const goals = result.goals;
    const previous = new Set(before.order.map((g) => g.name));
    const current = new Map(goals.map((g) => [g.name, g]));
    const fresh = goals.filter((g) => !previous.has(g.name) || g.name === goal);
    const produced = fresh.map((g) => g.name);
    const order = before.order.flatMap((g) => (g.name === goal ? fresh : current.has(g.name) ? [current.get(g.name) as PantographGoal] : []));
    const state: State = { ...before, stateId: result.nextStateId, order, pantographOrder: goals.map((g) => g.name) };
    return { state, produced, messages: infoMessages(result) };
  }

  /**
   * Runs `work`; if the REPL crashed or stopped answering, starts a new one, replays the state before the
   * step, and reports the step as failed (`crashed` or `timeout`) with the session usable again. Any
   * other failure frees the states the attempt made and leaves the session where it was.
   */
  private async guard<T>(before: State | undefined, work: () => Promise<T>): Promise<T> {
    const current = this.state;
    const known = new Set(this.live);
    try {
      return await work();
    } catch (err) {
      if (err instanceof ProverError && (err.code === 'crashed' || (err.code === 'timeout' && err.message === SILENT))) {
        // A REPL Arbor stopped using after a failed replay (below) is what the command found dead.
        const what = this.lost ?? err.message;
        this.lost = undefined;
        try {
          await this.recover(before);
        } catch (again) {
          if (!(again instanceof ProverError) || again.code === 'unavailable') throw again;
          // The replacement died or went silent while the proof was replayed: it is not used again (a silent one
          // would hold the next command to its limit); the next command starts another.
          await this.client.kill();
          this.lost = `the REPL before was lost while the proof was replayed (${again.message})`;
          throw new ProverError(err.code, `${err.code === 'timeout' ? SILENT : what}; the new REPL failed too while the proof was replayed (${again.message}); the next command restarts it`);
        }
        throw new ProverError(err.code, err.code === 'timeout' ? 'timeout' : `${what}; restarted${before ? ' and replayed' : ''}`);
      }
      this.state = before ?? current;
      if (this.client.alive) await this.release([...this.live].filter((id) => !known.has(id)));
      throw err;
    }
  }

  private async recover(before: State | undefined): Promise<void> {
    await this.client.kill();
    this.generation++;
    this.live = new Set();
    this.client = await PantographClient.start(this.config.process, this.config.startupMs ?? 120_000, this.config.imports);
    await this.configure();
    this.state = before ? await this.replay(before) : undefined;
  }

  /** Rebuilds a state on the current REPL from its statement and journal. */
  private async replay(target: State): Promise<State> {
    let state = await this.startState(target.statement, target.theorem);
    for (const resolved of target.journal) {
      const { state: next } = await this.applyResolved(state, resolved);
      state = { ...next, journal: [...state.journal, resolved] };
    }
    return state;
  }
}

/**
 * Pantograph's error kinds (its source, not the wording of `desc`) decide Arbor's error: a term that does
 * not parse is a parse error; one that does not elaborate is Lean's message; an interrupt by the
 * `timeout` option is a timeout; a runtime limit (`core`) is a failed tactic; anything else is a protocol or REPL failure, said as such.
 */
export function asProverError(r: PantographError): ProverError {
  if (isInterrupt(r)) return new ProverError('timeout', 'timeout');
  switch (errorKind(r)) {
    case 'parsing': return new ProverError('parse', `parse error: ${r.desc}`);
    case 'elab':
    case 'typing':
    case 'expr': return new ProverError('prover', r.desc);
    // Only runtime limits (maxHeartbeats, maxRecDepth) get here: Lean's `Core.tryCatch` re-throws them past
    // Pantograph's handler (`Repl.lean` v0.3.4 `runCoreM`, line 76). The state is untouched and the next
    // alternative may well work: the tactic failed.
    case 'core': return new ProverError('fail', r.desc.split('\n')[0] ?? r.desc);
    case undefined: return new ProverError('prover', `Pantograph answered an error kind Arbor does not know: ${r.error}: ${r.desc}`);
    default: return new ProverError('prover', `Pantograph ${r.error} error: ${r.desc}`);
  }
}
