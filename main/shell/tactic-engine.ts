import type { ProofTree, TreeView } from '../../shared/proof-tree/proof-tree.ts';
import {
  currentLeaf, initialTree, isFinished, leaves, openLeaves, refreshOpenLeaves, removeCurrentLeaf,
  replaceCurrentLeaf, toStateJson, toTreeView,
} from '../../shared/proof-tree/proof-tree.ts';
import type { OpenGoal } from '../../shared/proof-tree/proof-state.ts';
import { expandAbbreviations, TermTooLarge } from '../../shared/protocol/abbreviations.ts';
import { LetScope, LetTable } from '../../shared/protocol/let-scope.ts';
import { END_SCRIPT_MAX, itemWithDependencies, scriptOverCap } from './item-script.ts';
import { isMinilangCommand } from '../../shared/protocol/shell-command.ts';
import { formatCommand } from '../../shared/protocol/format-command.ts';
import { NO_NEW_STEP } from '../../shared/protocol/commands.ts';
import type { DocumentItem, RecordedStep, StepAct } from '../../shared/derivation/recorded-derivation.ts';
import { buildRecordedDerivation } from '../../shared/derivation/recorded-derivation.ts';
import type { ChannelEngine, ChannelStatus, DerivationAnswer, DerivationQuery, EngineCommand, EngineResult } from './channel-engine.ts';
import { lazily } from './command-result.ts';
import type { BackendId, Checkpoint, FinishedProof, PrintMode, ProofStep, ProverSession, ScriptItem, StepOutcome } from './prover-session.ts';
import type { QueryCommand } from '../../shared/protocol/shell-command.ts';
import { ProverError } from './prover-session.ts';

/** Past a HAMMER's budget, how long the watchdog waits for the session's own answer (interrupt, rewind). */
const HAMMER_WATCHDOG_GRACE_MS = 5_000;

/**
 * One entry of a channel's history: the document after step n (index n-1). A document is a sequence of
 * items — declarations (`DEFINE`) and proofs (`GOAL` … the `END` that finishes it) — and its steps are
 * numbered across items, so `REVERT` works across them.
 */
interface StepRecord {
  /** The proof in progress (or just finished) after this step; undefined after a declaration. */
  tree?: ProofTree;
  checkpoint: Checkpoint;
  /** What this step adds to the reproduction script. */
  script: string[];
  /** The step as sent to the prover, for replay after a crash (undefined for GOAL, DEFINE and LET). */
  proofStep?: ProofStep;
  /** A GOAL: the theorem it starts. */
  goal?: { expr: string; name: string };
  /** A DEFINE: the declarations as the client sent them. */
  define?: string;
  /** A DEFINE's blocks left open, as the prover said (DefineOutcome.openAfter). */
  openAfter?: string[];
  /** The END after which the prover itself closed the proof (Coq: `Qed`); replayed as such. */
  finished?: boolean;
  /** Shared with the steps before it (a LET adds one node), never copied. */
  lets: LetScope;
  /** The print mode the tree's terms are printed in. */
  printMode: PrintMode;
  /** What the step did to the tree (the derivation's record); set once the step succeeded. */
  act?: StepAct;
  /** On a fork (state-handle.ts): the record of the channel it mirrors, so a later handle finds the common prefix. */
  origin?: StepRecord;
  /**
   * Why the kernel refused `Qed` at END in this state (every goal closed): the script ends this proof
   * `Admitted`. Part of the record, so copies of the state (LET, PRINT_MODE, a crash's replay, a fork) keep it.
   */
  kernelRefused?: string;
}

/**
 * A channel's state after a step, as a value (issue 22: a fork is a state handle, as Pétanque's `~st`): its
 * history up to that step, shared with the channel (records are never changed once pushed), and what a
 * step's fresh names and printing depend on. Another engine `adopt`s it on its own prover.
 */
export interface EngineState {
  readonly backend: BackendId;
  readonly records: readonly StepRecord[];
  readonly printMode: PrintMode;
  readonly hypCounter: number;
}

/** The record a fork's record mirrors (itself on the channel that made it). */
const rootOf = (r: StepRecord): StepRecord => r.origin ?? r;

type ProofRecord = StepRecord & { tree: ProofTree };

/** Commands that add no step to the history (or refresh the last one in place): no act to record. */
const NO_STEP = NO_NEW_STEP;

export interface TacticEngineOptions {
  backend: BackendId;
  /** Opens (or takes from a warm pool) a prover session for this channel. */
  openSession: () => Promise<ProverSession>;
  /** Default limit for HAMMER/END, milliseconds. */
  timeoutMs: number;
  /** Extra time a prover gets beyond a step's own limit before Arbor gives up on it and restarts it. */
  watchdogGraceMs?: number;
}


/**
 * The shell's command semantics over a `ProverSession` (BRIEF §3): the tree is Arbor's, the prover only
 * ever sees steps on its first goal. Leaves that are not proved map, left to right, onto the prover's
 * goals in order.
 */
export class TacticEngine implements ChannelEngine {
  /** The prover session, opened on first use (see `session`). */
  private opening: Promise<ProverSession> | undefined;
  private history: StepRecord[] = [];
  /** The abbreviations of the step being worked on, as a map (see LetTable). */
  private readonly letTable = new LetTable();
  private printMode: PrintMode = 1;
  private busy = false;
  private disposed = false;
  private hypCounter = 0;
  private pid: number | undefined;
  /** The resolved session, for synchronous script rendering. */
  private currentSession: ProverSession | undefined;
  /** What the running command did to the tree, recorded on its step once it succeeds. */
  private pendingAct: Omit<StepAct, 'command'> | undefined;

  constructor(private readonly options: TacticEngineOptions) {}

  /**
   * The session, opened when first asked for: a channel whose first request is a PRELUDE (a project's, a
   * document's `PRELUDE bare`) or that is never used (the shell's channel 0 beside a document's) starts no
   * prover only to kill it, which on two cores took the CPU the document's own prover was starting on.
   */
  private get session(): Promise<ProverSession> {
    // A disposed engine never starts a prover (adopt or opened() after dispose).
    if (this.opening === undefined && this.disposed) return Promise.reject(new ShellError('bad channel'));
    this.opening ??= this.openFresh();
    return this.opening;
  }

  private set session(opening: Promise<ProverSession>) {
    this.opening = opening;
  }

  private openFresh(): Promise<ProverSession> {
    const opening = this.options.openSession();
    opening.then((s) => {
      this.pid = s.pid;
      this.currentSession = s;
    }, () => undefined);
    return opening;
  }

  async opened(): Promise<void> {
    await this.session.catch((e: unknown) => {
      throw new Error(this.describe(e));
    });
  }

  status(): ChannelStatus {
    const last = this.history[this.history.length - 1];
    const status: ChannelStatus = {
      backend: this.options.backend,
      busy: this.busy,
      step: this.history.length,
      finished: last?.tree ? isFinished(last.tree) : false,
    };
    if (this.pid !== undefined) status.pid = this.pid;
    return status;
  }

  treeView(step = this.history.length): TreeView | undefined {
    const record = this.history[step - 1];
    return record?.tree ? toTreeView(record.tree) : undefined;
  }

  /** The document's items (proofs and declarations) with the steps each spans. */
  items(): DocumentItem[] {
    const items: DocumentItem[] = [];
    this.history.forEach((r, i) => {
      const step = i + 1;
      if (r.goal) items.push({ index: items.length, kind: 'proof', name: r.goal.name, text: r.goal.expr, firstStep: step, lastStep: step, finished: false });
      else if (r.define !== undefined) items.push({ index: items.length, kind: 'define', text: r.define, firstStep: step, lastStep: step, finished: true });
      else {
        const item = items.at(-1);
        if (item) item.lastStep = step;
      }
      const item = items.at(-1);
      if (item?.kind === 'proof' && r.tree) item.finished = isFinished(r.tree);
    });
    return items;
  }

  /**
   * The derivation of one item (default: the one holding `step`, else the last) up to `step` (default: the
   * item's last step), built from the history's own records: REVERT truncates both at once.
   */
  derivation(query: DerivationQuery = {}): DerivationAnswer {
    const items = this.items();
    if (items.length === 0) return { unavailable: 'no goal yet' };
    const at = query.step;
    const item = query.item !== undefined ? items[query.item]
      : at !== undefined ? items.find((it) => it.firstStep <= at && at <= it.lastStep) : items.at(-1);
    if (!item) return { unavailable: query.item !== undefined ? `no item ${query.item} (0..${items.length - 1})` : `no step ${at} (1..${this.history.length})` };
    const upTo = Math.max(item.firstStep, Math.min(at ?? item.lastStep, item.lastStep));
    if (item.kind === 'define') return { items, item: item.index, upTo };
    const steps: RecordedStep[] = [];
    for (let step = item.firstStep; step <= upTo; step++) {
      const r = this.history[step - 1] as StepRecord;
      if (!r.tree) break;
      steps.push(r.act ? { step, tree: r.tree, act: r.act } : { step, tree: r.tree });
    }
    const built = buildRecordedDerivation(steps);
    if (!built) return { items, item: item.index, upTo };
    return { items, item: item.index, upTo, root: built.root, ...(built.currentKey !== undefined ? { currentKey: built.currentKey } : {}) };
  }

  async execute(command: EngineCommand): Promise<EngineResult> {
    this.busy = true;
    this.pendingAct = undefined;
    const top = this.history.at(-1);
    try {
      const result = await this.run(command);
      const added = this.history.at(-1);
      // (`run` set `pendingAct`; the cast undoes the narrowing to the `undefined` assigned above.)
      const act = this.pendingAct as Omit<StepAct, 'command'> | undefined;
      if (added && added !== top && !NO_STEP.has(command.name)) added.act = { command: formatCommand(command), ...act };
      return result;
    } catch (err) {
      const failed: EngineResult = { response: null, error: this.describe(err), ...(this.history.length > 0 ? { step: this.history.length } : {}) };
      // A failed HAMMER/END explains itself: what each stage tried, for how long, and how it ended.
      if (err instanceof ProverError && err.report) failed.hammerReport = err.report;
      return failed;
    } finally {
      this.busy = false;
    }
  }

  /** The state after `step` (default: the latest) as a handle; undefined for a step the history does not have. */
  stateHandle(step = this.history.length): EngineState | undefined {
    if (step < 0 || step > this.history.length) return undefined;
    return { backend: this.options.backend, records: this.history.slice(0, step), printMode: this.printMode, hypCounter: this.hypCounter };
  }

  /**
   * Makes this engine's document the handle's, on its own prover: the longest prefix both share stays (the
   * prover goes back to it with one rewind, Coq's `Edit_at`), only the records after it are run again. A fork
   * kept warm near a channel's state so costs what changed since, never a replay of the whole document.
   */
  async adopt(state: EngineState): Promise<void> {
    if (state.backend !== this.options.backend) throw new ShellError(`internal error: a ${state.backend} state cannot be adopted by a ${this.options.backend} channel`);
    let common = 0;
    while (common < this.history.length && common < state.records.length
      && rootOf(this.history[common] as StepRecord) === rootOf(state.records[common] as StepRecord)) common++;
    if (common < this.history.length) {
      if (common === 0) {
        // Nothing shared: a fresh prover (a session cannot rewind to before its first item).
        this.history = [];
        const old = await this.session.catch(() => undefined);
        void old?.dispose();
        this.session = this.openFresh();
      } else {
        await this.restoreTo((this.history[common - 1] as StepRecord).checkpoint);
        this.history = this.history.slice(0, common);
      }
    }
    const session = await this.session;
    if (this.printMode !== state.printMode) {
      await session.setPrintMode(state.printMode);
      this.printMode = state.printMode;
    }
    for (const record of state.records.slice(common)) {
      const checkpoint = await this.rerun(session, record, this.history.at(-1)?.checkpoint);
      this.history.push({ ...record, checkpoint, origin: rootOf(record) });
    }
    this.hypCounter = state.hypCounter;
  }

  /** Runs one recorded step again on `session` (a replay after a crash, a fork catching up); its new checkpoint. */
  private async rerun(session: ProverSession, record: StepRecord, previous: Checkpoint): Promise<Checkpoint> {
    let checkpoint = previous;
    if (record.define !== undefined && session.define) checkpoint = (await session.define(record.define)).checkpoint;
    else if (record.goal) checkpoint = (await session.start(record.goal.expr, record.goal.name)).checkpoint;
    else if (record.proofStep?.kind === 'hammer' && record.script.length > 0 && record.script.every((line) => line.trim() !== 'Unshelve.')) {
      // What the hammer found, not the search again: the same step, deterministic and quick.
      for (const line of record.script) checkpoint = (await session.step({ kind: 'apply', tactic: line.trim().replace(/\.$/, '') })).checkpoint;
    } else if (record.proofStep) checkpoint = (await session.step(record.proofStep)).checkpoint;
    if (record.finished && session.finish) checkpoint = (await session.finish()).checkpoint;
    return checkpoint;
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    // Never opened: nothing to stop (asking `session` here would start a prover only to kill it).
    const session = await this.opening?.catch(() => undefined);
    await session?.dispose();
  }

  private describe(err: unknown): string {
    if (err instanceof ProverError) {
      switch (err.code) {
        case 'timeout': return 'timeout';
        case 'crashed': {
          // Stable prefix; the detail says what died. By now the prover has been restarted and replayed.
          const detail = err.message.replace(/^(prover )?crashed:?\s*/, '');
          const restarted = /restart/.test(detail) ? '' : `; restarted at step ${this.history.length}`;
          return `prover crashed: ${detail || 'restarted'}${restarted}`;
        }
        case 'fail': return err.message && err.message !== 'fail' ? `fail: ${err.message}` : 'fail';
        // The same stable prefix as a backend that cannot load at all (`UnavailableEngine`) and the isabelle backend.
        case 'unavailable': return /^unavailable\b/.test(err.message) ? err.message : `unavailable: ${err.message}`;
        default: return err.message;
      }
    }
    if (err instanceof ShellError || err instanceof TermTooLarge) return err.message;
    return `internal error: ${err instanceof Error ? err.message : String(err)}`;
  }

  private async run(command: EngineCommand): Promise<EngineResult> {
    switch (command.name) {
      case 'GOAL': return this.goal(command.expr, command.theoremName);
      case 'DEFINE':
        if (command.proofLocal) throw new ShellError(`unsupported: DEFINE without quotes is Minilang's proof-local DEFINE (the isabelle backend); declarations are DEFINE "…"`);
        return this.define(command.text);
      case 'SEARCH':
      case 'CHECK':
      case 'ABOUT':
      case 'PRINT':
      case 'LOCATE': return this.query(command);
      case 'STATE':
        this.requireProof();
        return this.stateResult();
      case 'SCRIPT': return { response: this.script(), error: '' };
      case 'REVERT': return this.revert(command.step);
      case 'PRINT_MODE': return this.setPrintMode(command.mode);
      case 'PRELUDE': throw new ShellError('PRELUDE is handled by the shell');
      case 'LET': {
        const last = this.requireProof();
        const lets = last.lets.with(command.abbrev, expandAbbreviations(command.term, this.letTable.view(last.lets)));
        this.history.push({ ...last, script: [], lets, proofStep: undefined, goal: undefined, finished: false });
        return this.stateResult();
      }
      case 'END':
      case 'NEXT': return this.end();
      default: {
        if (isMinilangCommand(command)) throw new ShellError(`unsupported: ${command.name} is a Minilang command (the isabelle backend); the ${this.options.backend} backend does not have it`);
        const last = this.requireOpenGoal();
        const step = this.toProofStep(command, last);
        const outcome = await this.withWatchdog(step, (s) => s.step(step));
        return this.advance(last, step, outcome);
      }
    }
  }

  private async goal(expr: string, givenName: string | undefined): Promise<EngineResult> {
    // GOAL discards an unfinished proof (seed 000), even when the prover then rejects the new goal;
    // finished ones stay. A goal refused before the prover saw it changes nothing.
    const name = givenName ?? this.unnamedTheorem();
    const outcome = await this.newItem(() => this.withWatchdog(undefined, (s) => s.start(expr, name)));
    const first = outcome.goals[0];
    if (!first || outcome.goals.length !== 1) throw new ShellError('fail: the prover did not start one goal');
    this.hypCounter = 0;
    // A backend without documents (eq, Lean) proves one theorem at a time: its GOAL starts afresh.
    if (!this.currentSession?.renderDocument) this.history = [];
    const step = this.history.length + 1;
    this.history.push({ tree: initialTree(first, step), checkpoint: outcome.checkpoint, script: outcome.script, goal: { expr, name }, lets: LetScope.empty, printMode: this.printMode });
    return this.stateResult();
  }

  /** DEFINE: declarations for every later item of the document. */
  private async define(text: string): Promise<EngineResult> {
    const session = await this.session;
    if (!session.define) throw new ShellError(`unsupported: DEFINE needs a backend with declarations (the ${this.options.backend} backend has none)`);
    const outcome = await this.newItem(() => this.withWatchdog(undefined, (s) => (s.define as NonNullable<ProverSession['define']>).call(s, text)));
    this.history.push({ checkpoint: outcome.checkpoint, script: outcome.script, define: text, ...(outcome.openAfter !== undefined ? { openAfter: outcome.openAfter } : {}), lets: LetScope.empty, printMode: this.printMode });
    return { response: { declared: outcome.declared }, error: '', step: this.history.length };
  }

  private async query(command: QueryCommand): Promise<EngineResult> {
    const session = await this.session;
    if (!session.query) throw new ShellError(`unsupported: ${command.name} needs a backend with look-ups (the ${this.options.backend} backend has none)`);
    const answer = await this.withWatchdog(undefined, (s) => (s.query as NonNullable<ProverSession['query']>).call(s, command));
    return { response: answer, error: '' };
  }

  /** Starts a new item (GOAL, DEFINE): the session discards an unfinished proof unless it refused the item outright. */
  private async newItem<T>(start: () => Promise<T>): Promise<T> {
    try {
      const outcome = await start();
      this.discardUnfinishedProof();
      return outcome;
    } catch (err) {
      if (!(err instanceof ProverError && err.code === 'refused')) this.discardUnfinishedProof();
      throw err;
    }
  }

  /** Forgets the history of a proof that was not finished (the session discards it in the prover). */
  private discardUnfinishedProof(): void {
    const last = this.history.at(-1);
    if (!last?.tree || isFinished(last.tree)) return;
    let start = this.history.length - 1;
    while (start > 0 && !this.history[start]?.goal) start--;
    this.history.length = start;
  }

  /** The theorems the document has finished so far. */
  private theoremNames(): Set<string> {
    const names = new Set<string>();
    let current: string | undefined;
    for (const r of this.history) {
      if (r.goal) current = r.goal.name;
      if (r.define !== undefined) current = undefined;
      if (current !== undefined && r.tree && isFinished(r.tree)) names.add(current);
    }
    return names;
  }

  private unnamedTheorem(): string {
    const taken = this.theoremNames();
    if (!taken.has('arbor_goal')) return 'arbor_goal';
    let n = 2;
    while (taken.has(`arbor_goal_${n}`)) n++;
    return `arbor_goal_${n}`;
  }

  private async end(): Promise<EngineResult> {
    const last = this.requireProof();
    const current = currentLeaf(last.tree);
    if (!current) throw new ShellError('no goal');
    if (current.status === 'proved') {
      this.pendingAct = { leaf: current.id, removed: true };
      const tree = removeCurrentLeaf(last.tree);
      const finished = await this.finishIfDone(tree).catch((err: unknown) => {
        // Every goal closed, yet the kernel refused `Qed`: the script must not claim `Qed` for this proof.
        // A new record (never the old one's root): a sibling that adopted the state before END runs the step again and gets the refusal.
        if (err instanceof ProverError && err.code === 'fail') this.history[this.history.length - 1] = { ...last, origin: undefined, kernelRefused: err.message };
        throw err;
      });
      this.history.push({ ...last, kernelRefused: undefined, tree, checkpoint: finished?.checkpoint ?? last.checkpoint, script: [], proofStep: undefined, goal: undefined, finished: finished !== undefined });
      return this.stateResult(true, finished);
    }
    // Not yet proved: END is HAMMER then END (seed 000).
    const step: ProofStep = { kind: 'hammer', timeoutMs: this.options.timeoutMs };
    const outcome = await this.withWatchdog(step, (s) => s.step(step));
    const tree = this.applyOutcome(last.tree, outcome, this.history.length + 1);
    if (currentLeaf(tree)?.status !== 'proved') {
      await this.restoreTo(last.checkpoint);
      throw new ShellError('fail: the hammer left subgoals');
    }
    this.pendingAct = { ...this.pendingAct, removed: true };
    const after = removeCurrentLeaf(tree);
    let finished: FinishedProof | undefined;
    try {
      finished = await this.finishIfDone(after);
    } catch (err) {
      // The state stays as before the END: the hammer's step is undone too.
      await this.restoreTo(last.checkpoint);
      throw err;
    }
    this.history.push({ tree: after, checkpoint: finished?.checkpoint ?? outcome.checkpoint, script: outcome.script, proofStep: step, lets: last.lets, printMode: this.printMode, finished: finished !== undefined });
    const result = this.stateResult(true, finished);
    if (outcome.report) result.hammerReport = outcome.report;
    return result;
  }

  /**
   * When `tree` is the finished proof, the prover closes it itself (Coq: `Qed`, then `Print Assumptions`):
   * only then is the proof finished. A refusal (kernel or assumptions) propagates as the END's error.
   */
  private async finishIfDone(tree: ProofTree): Promise<FinishedProof | undefined> {
    if (!isFinished(tree)) return undefined;
    const session = await this.session;
    if (!session.finish) return undefined;
    return this.withWatchdog(undefined, (s) => (s.finish as () => Promise<FinishedProof>).call(s));
  }

  private advance(last: ProofRecord, proofStep: ProofStep, outcome: StepOutcome): EngineResult {
    const tree = this.applyOutcome(last.tree, outcome, this.history.length + 1);
    this.history.push({ tree, checkpoint: outcome.checkpoint, script: outcome.script, proofStep, lets: last.lets, printMode: this.printMode });
    const result = this.stateResult();
    if (outcome.report) result.hammerReport = outcome.report;
    return result;
  }

  /** Puts the prover's goals after a step on the current leaf; the rest refresh the other open leaves. */
  private applyOutcome(tree: ProofTree, outcome: StepOutcome, step: number): ProofTree {
    const others = openLeaves(tree).length - 1;
    const produced = outcome.goals.length - others;
    if (produced < 0) {
      void this.restoreTo(this.history[this.history.length - 1]?.checkpoint);
      throw new ShellError('fail: the step closed goals other than the current one');
    }
    // After the replacement the open leaves are the step's new goals followed by the others: exactly
    // the prover's list, which may also have changed the others (e.g. by instantiating an existential).
    const acted = currentLeaf(tree);
    const replaced = replaceCurrentLeaf(tree, outcome.goals.slice(0, produced), step);
    // The derivation's record: which leaf the step replaced by which (the first `produced` leaves now).
    if (acted) {
      this.pendingAct = { leaf: acted.id, produced: produced === 0 ? [] : leaves(replaced).slice(0, produced).map((l) => l.id) };
      if (outcome.report?.closedWith !== undefined) this.pendingAct.closedWith = outcome.report.closedWith;
    }
    return refreshOpenLeaves(replaced, outcome.goals);
  }

  private toProofStep(command: EngineCommand, last: ProofRecord): ProofStep {
    const lets = this.letTable.view(last.lets);
    const x = (text: string): string => expandAbbreviations(text, lets);
    switch (command.name) {
      case 'HAVE': return { kind: 'have', name: command.hypName ?? this.freshName(last), expr: x(command.expr) };
      case 'OBTAIN': {
        const name = this.freshName(last);
        const conds = command.conds.map((c) => ({ name: c.name ?? this.freshName(last), expr: x(c.expr) }));
        return command.type === undefined
          ? { kind: 'obtain', name, vars: command.vars, conds }
          : { kind: 'obtain', name, vars: command.vars, type: x(command.type), conds };
      }
      case 'CRUSH': return { kind: 'crush', rules: command.rules.map(x) };
      case 'HAMMER': return { kind: 'hammer', timeoutMs: command.timeoutSeconds !== undefined ? command.timeoutSeconds * 1000 : this.options.timeoutMs };
      case 'RULE': return { kind: 'rule', rule: x(command.rule) };
      case 'UNFOLD': return { kind: 'unfold', rule: x(command.rule) };
      case 'APPLY': return { kind: 'apply', tactic: x(command.tactic) };
      default: throw new ShellError(`internal error: ${command.name} is not a step`);
    }
  }

  /** Names for unnamed HAVE/OBTAIN facts: `h1`, `h2`, … avoiding every name in the current context. */
  private freshName(last: ProofRecord): string {
    const taken = new Set(currentLeaf(last.tree)?.context.map((e) => e.name) ?? []);
    let name: string;
    do name = `h${++this.hypCounter}`; while (taken.has(name));
    return name;
  }

  private async revert(step: number): Promise<EngineResult> {
    if (this.history.length === 0) throw new ShellError('no goal');
    if (step < 1 || step > this.history.length) throw new ShellError(`bad step: ${step} (1..${this.history.length})`);
    const target = this.history[step - 1] as StepRecord;
    await this.restoreTo(target.checkpoint);
    this.history = this.history.slice(0, step);
    // The recorded tree is the state after step n; the prover need only re-print it if the print mode
    // changed since (one round trip saved on every revert, which the editor sends on every edit).
    if (target.printMode !== this.printMode) await this.refreshFromProver();
    return this.stateResult();
  }

  private async setPrintMode(mode: PrintMode): Promise<EngineResult> {
    const session = await this.session;
    await session.setPrintMode(mode);
    this.printMode = mode;
    if (this.history.length === 0) return { response: null, error: '' };
    await this.refreshFromProver();
    return this.stateResult();
  }

  /** Re-reads the open goals from the prover into the last tree (after a revert or a print-mode change). */
  private async refreshFromProver(): Promise<void> {
    const last = this.history[this.history.length - 1];
    if (!last?.tree || isFinished(last.tree)) return;
    const session = await this.session;
    const goals: OpenGoal[] = await session.goals();
    if (goals.length !== openLeaves(last.tree).length) return;
    this.history[this.history.length - 1] = { ...last, tree: refreshOpenLeaves(last.tree, goals), printMode: this.printMode };
  }

  private async restoreTo(checkpoint: Checkpoint): Promise<void> {
    const session = await this.session;
    await session.restore(checkpoint);
  }

  private script(): string {
    if (this.history.length === 0) throw new ShellError('no goal');
    return this.renderScript();
  }

  /**
   * The document's script: its declarations, finished theorems and the proof in progress (open goals
   * marked); for a finishing END (`item`), only what the last proof needs (see itemWithDependencies).
   */
  private renderScript(scope: 'document' | 'item' = 'document'): string {
    const items: ScriptItem[] = [];
    for (const r of this.history) {
      if (r.define !== undefined) items.push({ kind: 'define', script: r.script, ...(r.openAfter !== undefined ? { openAfter: r.openAfter } : {}) });
      else if (r.goal) items.push({ kind: 'proof', name: r.goal.name, goal: r.goal.expr, steps: [r.script], openGoals: 0 });
      else {
        const proof = items.at(-1);
        if (proof?.kind === 'proof') proof.steps.push(r.script);
      }
    }
    const last = this.history.at(-1);
    const current = items.at(-1);
    if (current?.kind === 'proof' && last?.tree) current.openGoals = openLeaves(last.tree).length;
    if (current?.kind === 'proof' && last?.kernelRefused !== undefined && last.finished !== true) current.kernelRefused = last.kernelRefused;
    const session = this.sessionNow();
    if (session.renderDocument) return session.renderDocument(scope === 'item' ? itemWithDependencies(items) : items);
    // Backends without documents have one proof at a time.
    if (current?.kind !== 'proof') throw new ShellError('no goal');
    return session.renderScript(current.goal, current.steps, current.openGoals);
  }

  private sessionNow(): ProverSession {
    if (!this.currentSession) throw new ShellError('no goal');
    return this.currentSession;
  }

  /** The current state as a response; `withScript` on the END that may have finished the proof. */
  private stateResult(withScript = false, finished?: FinishedProof): EngineResult {
    const last = this.history[this.history.length - 1];
    if (!last) return { response: null, error: '' };
    // After a declaration no proof is open: the state is empty until the next GOAL.
    if (!last.tree) return { response: null, error: '', step: this.history.length };
    // The state's JSON is built only when read: the stdio edge reads it, the workbench has the tree.
    const tree = last.tree;
    const result: EngineResult = { response: null, error: '', step: this.history.length, isState: true };
    lazily(result, 'response', () => toStateJson(tree));
    if (withScript && isFinished(last.tree)) {
      const script = this.renderScript('item');
      result.script = script.length > END_SCRIPT_MAX ? scriptOverCap(script.length) : script;
    }
    if (finished?.assumptions !== undefined) result.assumptions = finished.assumptions;
    if (finished?.statement !== undefined) result.statement = finished.statement;
    if (finished?.premises !== undefined) result.premises = finished.premises;
    return result;
  }

  private requireProof(): ProofRecord {
    const last = this.history[this.history.length - 1];
    if (!last?.tree) throw new ShellError('no goal');
    return last as ProofRecord;
  }

  private requireOpenGoal(): ProofRecord {
    const last = this.requireProof();
    const current = currentLeaf(last.tree);
    if (!current) throw new ShellError('no goal');
    if (current.status === 'proved') throw new ShellError('no goal: the current goal is proved; END removes it');
    return last;
  }

  /**
   * Runs a prover call with a hard limit: a session that stops answering (a bug, a wedged process) must
   * not wedge the channel. Past the limit the session is replaced and the proof replayed.
   */
  private async withWatchdog<T>(step: ProofStep | undefined, call: (s: ProverSession) => Promise<T>): Promise<T> {
    if (this.disposed) throw new ShellError('bad channel');
    const session = await this.session;
    // A HAMMER's budget is a wall-clock limit the session keeps itself (docs/hammer.md): the watchdog only
    // catches a session that stopped answering, a few seconds past it.
    const limit = step?.kind === 'hammer' ? step.timeoutMs + HAMMER_WATCHDOG_GRACE_MS : this.options.timeoutMs + (this.options.watchdogGraceMs ?? 30_000);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const watchdog = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new WatchdogExpired()), limit);
    });
    try {
      return await Promise.race([call(session), watchdog]);
    } catch (err) {
      // A released channel's prover was killed on purpose: nothing to recover.
      if (this.disposed) throw new ShellError('bad channel');
      if (err instanceof WatchdogExpired) {
        await this.replaceSession();
        throw new ProverError('timeout', 'timeout');
      }
      if (err instanceof ProverError && err.code === 'crashed') await this.recoverAfterCrash();
      throw err;
    } finally {
      clearTimeout(timer);
    }
  }

  private async replaceSession(): Promise<void> {
    const old = await this.session.catch(() => undefined);
    void old?.dispose();
    this.session = this.openFresh();
    await this.replay();
  }

  /** A session that reports a crash has restarted itself; if it cannot serve, replace it and replay. */
  private async recoverAfterCrash(): Promise<void> {
    const session = await this.session;
    try {
      await session.goals();
    } catch {
      await this.replaceSession();
    }
  }

  /** Replays the channel's history on a fresh session, so it continues from the last good step. */
  private async replay(): Promise<void> {
    if (this.history.length === 0) return;
    const session = await this.session;
    await session.setPrintMode(this.printMode);
    const rebuilt: StepRecord[] = [];
    for (const record of this.history) {
      // The rebuilt record stands for the same step: a fork's handle still finds it (state-handle.ts).
      rebuilt.push({ ...record, checkpoint: await this.rerun(session, record, rebuilt.at(-1)?.checkpoint), origin: rootOf(record) });
    }
    this.history = rebuilt;
  }
}

/** An error whose message is already the protocol's ERR string. */
export class ShellError extends Error {}

class WatchdogExpired extends Error {}
