import { formatHammerReport } from '../../shared/protocol/hammer-report.ts';
import type { TreeView } from '../../shared/proof-tree/proof-tree.ts';
import { parseRequest } from '../../shared/protocol/parse-request.ts';
import type { ShellResponse } from '../../shared/protocol/shell-command.ts';
import { AGENT_SESSION_COMMANDS, TRY_COMMANDS, type CommandName } from '../../shared/protocol/commands.ts';
import { splitRequests } from '../../shared/protocol/split-requests.ts';
import { EditHistory } from './edit-history.ts';
import type { EditRecord } from './edit-history.ts';
import { formatEditHistory, suggestionSummary } from './format-edit-history.ts';
import { formatGoalStructure } from './format-goal-structure.ts';
import { formatProofContext } from './format-proof-context.ts';
import { formatProofState } from './format-proof-state.ts';
import type { TryOutcome } from './label-outcome.ts';
import { labelOutcome, responseTree } from './label-outcome.ts';
import type { GoalInContext } from '../../shared/proof-tree/tree-view-queries.ts';
import { currentGoal } from '../../shared/proof-tree/tree-view-queries.ts';
import { ScratchChannels } from './scratch-channels.ts';
import type { ScratchOptions } from './scratch-channels.ts';
import { ScriptTracker, stripChannel } from './script-tracker.ts';
import type { ReplayPlan } from './script-tracker.ts';
import { currentGoalPlan } from './current-goal-plan.ts';
import type { PortEvent, ShellPort } from './shell-port.ts';
import type { SourceContext, SuggestionSource } from './sources/suggestion-source.ts';
import { SuggestionQueue } from './suggestion-queue.ts';
import { hammerLemmaSuggestions } from './hammer-lemma-suggestions.ts';
import type { Suggestion } from './suggestion-queue.ts';
import { formatQuery, queryCommand, type QueryKind } from '../../shared/protocol/format-query.ts';
import type { QueryAnswer } from '../../shared/protocol/query-answer.ts';
import { checkCommandArguments, checkTermText, isIdentifier, quoteTerm, readTermInput } from './term-input.ts';
import { shellToolError, ToolError } from './tool-error.ts';
import type { ForkTrySpec } from '../../shared/protocol/fork-try.ts';
import { FORK_TRY_LIMITS, runTrySequence, TRY_FIRST, TRY_LAST } from '../../shared/protocol/fork-try.ts';

export interface AgentSessionOptions {
  port: ShellPort;
  /** The channel the session's proof runs on (default 0). */
  channel?: number;
  /** A history loaded from the proof file's companion (`EditHistory.parse`). */
  history?: EditHistory;
  /** The channels' prelude text, for `get_proof_context`'s theorem list. */
  prelude?: string;
  scratch?: ScratchOptions;
  /** The most one tool call may spend in the prover (replay included), milliseconds. */
  toolTimeoutMs?: number;
  /** Transcript entries kept (oldest dropped first). */
  transcriptLimit?: number;
  /**
   * The script of the host's document on this channel, when a document owns it: then the document is
   * the one place the script lives, and `get_script` and scratch copies read it instead of the tracker.
   */
  documentScript?: () => ReplayPlan | undefined;
  /**
   * Checking tools run on forks of the channel's state where the port offers them (default): a state handle
   * on a warm prover, no replay. `false`: always on scratch channels that replay the script (the old way,
   * kept for ports that cannot fork and for the benchmark's "before").
   */
  forks?: boolean;
}

/** One entry of the session's transcript, in `arbor-shell --transcript` form plus a scratch mark. */
export type TranscriptEntry =
  | { time: number; channel: number; request: string; scratch?: true }
  | { time: number; response: ShellResponse; scratch?: true };

/** One alternative of `try_commands`, after it ran on its own copy of the state. */
export interface TryResult extends Omit<TryOutcome, 'tree'> {
  alternative: number;
  commands: string[];
  /** The seed proof state after the last command that ran (when any ran). */
  state?: unknown;
  /** What the hammer tried, stage by stage, when a HAMMER or END of the alternative failed (as the workbench shows it). */
  hammer?: string;
}


/**
 * The agent session (seed 003 on Arbor's shell): one proof on one channel, its script, its edit history
 * and the suggestion queue that every attached agent shares. Reading tools use the tree the shell
 * already has; checking tools work on scratch copies of the channel, so the user's proof never moves
 * until a suggestion is accepted.
 */
export class AgentSession {
  readonly channel: number;
  readonly tracker: ScriptTracker;
  readonly history: EditHistory;
  readonly queue = new SuggestionQueue();
  private readonly scratch: ScratchChannels;
  private readonly transcriptLog: TranscriptEntry[] = [];
  private readonly scratchIds = new Set<number>();
  private readonly unsubscribe: () => void;
  private readonly toolTimeoutMs: number;
  private readonly transcriptLimit: number;

  constructor(private readonly options: AgentSessionOptions) {
    this.channel = options.channel ?? 0;
    this.tracker = new ScriptTracker(this.channel);
    this.history = options.history ?? new EditHistory();
    this.scratch = new ScratchChannels(options.port, options.scratch);
    this.toolTimeoutMs = options.toolTimeoutMs ?? 180_000;
    this.transcriptLimit = options.transcriptLimit ?? 5000;
    this.unsubscribe = options.port.onEvent((event) => this.observe(event));
  }

  get port(): ShellPort {
    return this.options.port;
  }

  async close(): Promise<void> {
    this.unsubscribe();
    await this.scratch.close();
  }

  // ---- reading ----

  async tree(): Promise<TreeView | undefined> {
    return this.options.port.tree(this.channel);
  }

  async proofStateText(): Promise<string> {
    const tree = await this.requireTree();
    return formatProofState(tree, { channel: this.channel, step: this.tracker.step() });
  }

  async proofContextText(linesBefore = 20, includeTheorems = true): Promise<string> {
    const tree = await this.tree();
    const current = tree ? currentGoal(tree) : undefined;
    const text = formatProofContext({
      channel: this.channel,
      lines: this.tracker.lines(),
      linesBefore,
      includeTheorems,
      ...(current ? { current } : {}),
      ...(this.options.prelude !== undefined ? { prelude: this.options.prelude } : {}),
    });
    return this.tracker.isComplete() || !tree ? text
      : `${text}\n\n(This session attached after the proof started: script lines before that are not shown.)`;
  }

  editHistoryText(): string {
    return formatEditHistory(this.history.list(), this.queue.list({ status: 'pending' }));
  }

  async goalStructureText(): Promise<string> {
    return formatGoalStructure(await this.requireTree());
  }

  /** The reproduction script (`SCRIPT` on the channel) or the Arbor script the session has tracked. */
  async script(format: 'prover' | 'arbor' = 'prover'): Promise<string> {
    if (format === 'arbor') {
      const doc = this.options.documentScript?.();
      if (doc) {
        const lines = [doc.prelude, ...doc.lines].filter((l): l is string => l !== undefined);
        if (lines.length === 0) throw new ToolError('no_goal', 'nothing of the document is checked yet');
        return `${lines.join('\n')}\n`;
      }
      if (!this.tracker.isComplete()) {
        const current = await this.requireCurrentGoal();
        return `// attached after this proof started: its earlier commands are unknown; the current goal as a proof of its own:\n${currentGoalPlan(current).join('\n')}\n`;
      }
      const plan = this.tracker.replayPlan();
      const lines = [plan.prelude, plan.printMode, ...plan.lines].filter((l): l is string => l !== undefined);
      if (lines.length === 0) throw new ToolError('no_goal', 'no proof on this channel yet');
      return `${lines.join('\n')}\n`;
    }
    const r = await this.submitOne('SCRIPT');
    if (r.ERR !== '') throw shellToolError(r.ERR);
    return String(r.RESPONSE);
  }

  transcript(last = 100, includeScratch = false): TranscriptEntry[] {
    const entries = includeScratch ? this.transcriptLog : this.transcriptLog.filter((e) => !e.scratch);
    return entries.slice(-Math.max(0, last));
  }

  // ---- checking (on scratch copies) ----

  /** `valid`, or a ToolError with the prover's message (`prover_error`), `injection` or `parse_error`. */
  async checkTerm(input: string): Promise<'valid'> {
    const check = readTermInput(input);
    const tree = await this.tree();
    const current = tree ? currentGoal(tree) : undefined;
    if (!current) {
      // No goal open: the term is checked in the document's environment (its declarations and theorems).
      const r = await this.submitOne(formatQuery(queryCommand('check', check.kind === 'assertion' ? check.prop : check.term)));
      if (r.ERR !== '') throw shellToolError(r.ERR);
      return 'valid';
    }
    // A proposition is checked as itself; any other term as `t = t`, which is well typed iff t is.
    const prop = check.kind === 'assertion' ? check.prop : `(${check.term}) = (${check.term})`;
    const name = freshName('arbor_check', current);
    const { responses: [response] } = await this.onCopy({ commands: [`HAVE ${name} ${quoteTerm(prop)}`] }, current);
    if (!response) throw new ToolError('prover_error', 'the copy gave no answer');
    if (response.ERR !== '') throw shellToolError(response.ERR);
    return 'valid';
  }

  /**
   * Checks a hypothesis edit `name : lhs` → `name : rhs` (the new form must follow from the context,
   * old hypothesis included: `HAVE name' "rhs"` closed by `END`'s hammer, then it replaces the old one)
   * and queues it, labelled.
   */
  async suggestHypothesisEdit(
    agent: string,
    edit: { hypothesisName: string; originalValue: string; suggestedValue: string; reason?: string },
  ): Promise<{ suggestion: Suggestion; duplicate: boolean; note?: string }> {
    if (!isIdentifier(edit.hypothesisName)) throw new ToolError('bad_argument', `not a hypothesis name: ${JSON.stringify(edit.hypothesisName)}`);
    checkTermText(edit.suggestedValue);
    const current = await this.requireCurrentGoal();
    const hyp = current.hyps.find((h) => h.name === edit.hypothesisName);
    if (!hyp) {
      const isVar = current.vars.some((v) => v.name === edit.hypothesisName);
      const names = current.hyps.map((h) => h.name).join(', ') || 'none';
      throw new ToolError('bad_argument', isVar
        ? `${edit.hypothesisName} is a variable, not a hypothesis; hypotheses of the current goal: ${names}`
        : `no hypothesis ${edit.hypothesisName} in the current goal; its hypotheses: ${names}`);
    }
    const newName = freshName(`${edit.hypothesisName}'`, current);
    // Prove the new form from the context (old hypothesis included), then put it in the old one's place;
    // when something else still depends on the old hypothesis it stays, and the new form keeps its name.
    const apply = [
      `HAVE ${newName} ${quoteTerm(edit.suggestedValue)}`,
      'END',
      `APPLY (try (clear ${edit.hypothesisName}; rename ${newName} into ${edit.hypothesisName}))`,
    ];
    const kind = { kind: 'hypothesis-edit' as const, hypothesisName: edit.hypothesisName, originalValue: edit.originalValue, suggestedValue: edit.suggestedValue, newName };
    const duplicate = this.queue.findPendingDuplicate(kind);
    if (duplicate) return { suggestion: duplicate, duplicate: true };
    const { responses } = await this.onCopy({ commands: apply }, current);
    const failed = responses.find((r) => r.ERR !== '');
    const error = failed === undefined ? undefined
      : failed === responses[0] ? `the new form does not check: ${failed.ERR}`
        : `the hammer could not derive the new form from the context (with ${edit.hypothesisName}): ${failed.ERR}`;
    const suggestion = this.queue.add({
      from: `agent:${agent}`,
      edit: kind,
      ...(edit.reason !== undefined ? { reason: edit.reason } : {}),
      label: error === undefined ? 'valid' : 'invalid',
      ...(error !== undefined ? { error } : {}),
      apply,
      step: await this.currentStep(),
    });
    const note = normalise(hyp.expr) === normalise(edit.originalValue) ? undefined
      : `originalValue differs from the hypothesis as the prover prints it: ${edit.hypothesisName} : ${hyp.expr}`;
    return { suggestion, duplicate: false, ...(note ? { note } : {}) };
  }

  /** Tries each alternative on its own copy (two at a time unless `sequential`) and labels what it did. */
  async tryCommands(alternatives: readonly (readonly string[])[], options: { sequential?: boolean } = {}): Promise<TryResult[]> {
    alternatives.forEach((commands) => commands.forEach((c) => this.checkCommand(c, TRY_COMMANDS)));
    const current = await this.requireCurrentGoal();
    // One plan for every alternative (scratch channels only): the same script, so copies are reused.
    const plan = this.canFork() ? undefined : await this.plan(current);
    const one = async (commands: readonly string[], index: number): Promise<TryResult> => {
      try {
        // The copy's own state is the reference (a copy rebuilt from the current goal alone has only that goal).
        // A sequence that leaves no goal open is judged by the theorem's END on the copy: the kernel's Qed,
        // its assumptions, and what the statement means (issue 21) — never plainly closes_goal otherwise.
        const { state, responses } = await this.onCopy({ commands: [...commands], endWhenProved: true }, current, plan);
        const before = state.ERR === '' ? responseTree(state) : undefined;
        if (!before) throw new ToolError('prover_error', 'the scratch copy has no proof state');
        const { tree: _tree, ...outcome } = labelOutcome(before, responses.length > commands.length ? [...commands, 'END'] : commands, responses);
        const lastGood = [...responses].reverse().find((r) => r.ERR === '');
        const failed = responses.find((r) => r.ERR !== '' && r.HAMMER_REPORT);
        return {
          alternative: index + 1, commands: [...commands], ...outcome, ...(lastGood ? { state: lastGood.RESPONSE } : {}),
          ...(failed?.HAMMER_REPORT ? { hammer: formatHammerReport(failed.HAMMER_REPORT) } : {}),
        };
      } catch (err) {
        const e = err instanceof ToolError ? err : new ToolError('prover_error', String(err));
        return { alternative: index + 1, commands: [...commands], label: 'invalid', error: e.text };
      }
    };
    if (options.sequential) {
      const results: TryResult[] = [];
      for (const [i, commands] of alternatives.entries()) results.push(await one(commands, i));
      return results;
    }
    return Promise.all(alternatives.map((commands, i) => one(commands, i)));
  }

  /** Runs sources, checks every proposal on a copy and queues it labelled; returns what was queued. */
  async runSources(sources: readonly SuggestionSource[], options: { signal?: AbortSignal } = {}): Promise<Suggestion[]> {
    const tree = await this.requireTree();
    const current = await this.requireCurrentGoal(tree);
    const context: SourceContext = {
      tree,
      current,
      stateText: await this.proofStateText(),
      contextText: await this.proofContextText(),
      historyText: this.editHistoryText(),
      structureText: await this.goalStructureText(),
    };
    const step = await this.currentStep();
    const queued: Suggestion[] = [];
    for (const source of sources) {
      const proposals = (await source.propose(context, options.signal)).filter((p) => {
        try {
          p.commands.forEach((c) => this.checkCommand(c, TRY_COMMANDS));
          return p.commands.length > 0;
        } catch {
          return false;
        }
      });
      const fresh = proposals.filter((p) => !this.queue.findPendingDuplicate({ kind: 'commands', commands: p.commands }));
      const results = await this.tryCommands(fresh.map((p) => p.commands));
      for (const [i, result] of results.entries()) {
        const proposal = fresh[i];
        if (!proposal) continue;
        queued.push(this.queue.add({
          from: `source:${source.name}`,
          edit: { kind: 'commands', commands: proposal.commands },
          ...(proposal.reason !== undefined ? { reason: proposal.reason } : {}),
          ...(proposal.estimate !== undefined ? { estimate: proposal.estimate } : {}),
          label: result.label,
          ...(result.error !== undefined ? { error: result.error } : {}),
          ...(result.subgoals !== undefined ? { subgoals: result.subgoals } : {}),
          ...(result.statement !== undefined ? { statement: result.statement } : {}),
          apply: proposal.commands,
          step,
        }));
      }
    }
    return queued;
  }

  /** A look-up (SEARCH, CHECK, ABOUT, PRINT, LOCATE) in the document's environment, at its current state. */
  async lookUp(kind: QueryKind, text: string): Promise<QueryAnswer> {
    const r = await this.submitOne(formatQuery(queryCommand(kind, text)));
    if (r.ERR !== '') throw shellToolError(r.ERR);
    return r.RESPONSE as QueryAnswer;
  }

  // ---- acting on the session's channel ----

  /** One request on the session's channel; its response, whatever the ERR. */
  async runCommand(command: string): Promise<ShellResponse> {
    this.checkCommand(command, AGENT_SESSION_COMMANDS);
    return this.submitOne(command);
  }

  /** Applies a pending suggestion to the channel (all its commands, or none) and records the edit. */
  async accept(id: number, by = 'user'): Promise<Suggestion> {
    const s = this.pending(id);
    const startStep = this.tracker.step();
    for (const command of s.apply) {
      const r = await this.submitOne(command);
      if (r.ERR !== '') {
        if (startStep > 0) await this.submitOne(`REVERT ${startStep}`);
        throw shellToolError(r.ERR, `suggestion #${id} no longer applies (${command})`);
      }
    }
    const decided = this.queue.decide(id, 'accepted');
    this.history.add(this.editRecord(decided, 'accepted', by));
    return decided;
  }

  /**
   * Records a pending suggestion as accepted without running it: the workbench writes its commands
   * into the proof script and its checker runs them, so the script stays the one source of the proof.
   */
  markAccepted(id: number, by = 'user'): Suggestion {
    this.pending(id);
    const decided = this.queue.decide(id, 'accepted');
    this.history.add(this.editRecord(decided, 'accepted', by));
    return decided;
  }

  reject(id: number, by = 'user'): Suggestion {
    this.pending(id);
    const decided = this.queue.decide(id, 'rejected');
    this.history.add(this.editRecord(decided, 'rejected', by));
    return decided;
  }

  /** The user took an accepted suggestion's line out again (undo in the editor). */
  recordUndo(id: number, by = 'user'): EditRecord {
    const s = this.queue.get(id);
    if (!s || s.status !== 'accepted') throw new ToolError('bad_argument', `suggestion #${id} was not accepted`);
    return this.history.add({ ...this.editRecord(s, 'undone', by), reason: 'undone in the editor' });
  }

  /** An edit the user made by hand (the workbench's panel reports it). */
  recordManualEdit(edit: { lhs: string; rhs: string; hypothesisName?: string; source?: string; reason?: string }): EditRecord {
    const record: EditRecord = { lhs: edit.lhs, rhs: edit.rhs, outcome: 'manual', source: edit.source ?? 'user', time: Date.now() };
    if (edit.hypothesisName !== undefined) record.hypothesisName = edit.hypothesisName;
    if (edit.reason !== undefined) record.reason = edit.reason;
    return this.history.add(record);
  }

  summary(s: Suggestion): string {
    return suggestionSummary(s);
  }

  // ---- internals ----

  private observe(event: PortEvent): void {
    this.tracker.observe(event);
    const channel = event.kind === 'request' ? event.channel : event.response.CHANNEL;
    const scratch = this.scratchIds.has(channel);
    if (channel !== this.channel && !scratch) return;
    if (!scratch && event.kind === 'response') {
      // A lemma the session's HAMMER discovered is offered as a HAVE step, with its proof.
      for (const s of hammerLemmaSuggestions(event.response)) if (!this.queue.findPendingDuplicate(s.edit)) this.queue.add(s);
    }
    const entry: TranscriptEntry = event.kind === 'request'
      ? { time: event.time, channel, request: event.text }
      : { time: event.time, response: event.response };
    if (scratch) entry.scratch = true;
    this.transcriptLog.push(entry);
    if (this.transcriptLog.length > this.transcriptLimit) this.transcriptLog.splice(0, this.transcriptLog.length - this.transcriptLimit);
  }

  private canFork(): boolean {
    return this.options.forks !== false && this.options.port.tryOnFork !== undefined;
  }

  /**
   * Runs a try on a copy of the channel's state: a fork (the channel's state as a handle, on a warm prover
   * that holds the document: no replay) where the port can fork — in-process or attached, the same
   * `runForkTry` — else a scratch channel replaying the script (a pass-through backend has no state handle).
   */
  private async onCopy(spec: ForkTrySpec, current?: GoalInContext, plan?: ReplayPlan): Promise<{ state: ShellResponse; responses: ShellResponse[] }> {
    const port = this.options.port;
    if (this.canFork() && port.tryOnFork) {
      const outcome = await port.tryOnFork(this.channel, { ...spec, deadlineMs: Math.min(this.toolTimeoutMs, FORK_TRY_LIMITS.deadlineMs) });
      if (outcome.outcome === 'timeout') throw new ToolError('timeout', outcome.error);
      if (outcome.outcome === 'ran') {
        // The fork's traffic is no channel's: the transcript lists it, marked scratch.
        const commands = [TRY_FIRST, ...spec.commands, TRY_LAST];
        [outcome.state, ...outcome.responses].forEach((response, i) => {
          this.logScratch({ time: Date.now(), channel: this.channel, request: commands[i] ?? '', scratch: true });
          this.logScratch({ time: Date.now(), response, scratch: true });
        });
        return { state: outcome.state, responses: outcome.responses };
      }
    }
    return this.scratch.with(plan ?? await this.plan(current), this.toolTimeoutMs, async (s) => {
      this.scratchIds.add(s.id);
      return runTrySequence((request) => s.run(request), spec);
    });
  }

  private logScratch(entry: TranscriptEntry): void {
    this.transcriptLog.push(entry);
    if (this.transcriptLog.length > this.transcriptLimit) this.transcriptLog.splice(0, this.transcriptLog.length - this.transcriptLimit);
  }

  /** How to rebuild the state on a scratch channel: the script, or (attached mid-proof) the current goal alone. */
  private async plan(current?: GoalInContext): Promise<ReplayPlan> {
    const doc = this.options.documentScript?.();
    if (doc && doc.lines.length > 0) return doc;
    if (this.tracker.isComplete()) {
      const plan = this.tracker.replayPlan();
      if (plan.lines.length === 0) throw new ToolError('no_goal', 'no proof on this channel yet (start one with run_command GOAL "…")');
      return plan;
    }
    return { lines: currentGoalPlan(current ?? await this.requireCurrentGoal()) };
  }

  private async requireTree(): Promise<TreeView> {
    const tree = await this.tree();
    if (!tree) throw new ToolError('no_goal', 'no proof on this channel yet (start one with run_command GOAL "…")');
    return tree;
  }

  private async requireCurrentGoal(tree?: TreeView): Promise<GoalInContext> {
    const current = currentGoal(tree ?? await this.requireTree());
    if (!current) throw new ToolError('no_goal', 'no open current goal (the proof is finished, or the current goal is proved and END removes it)');
    return current;
  }

  /** One well-formed request without a channel id, and one of `allowed` (a try never declares or changes settings; a session never manages channels). */
  private checkCommand(command: string, allowed: ReadonlySet<CommandName>): void {
    const raw = splitRequests(command);
    if (raw.length !== 1 || raw[0]?.text !== command.trim()) throw new ToolError('bad_argument', `exactly one command per entry (a ';' outside brackets or quotes splits requests; write tactics with ';' in parentheses): ${JSON.stringify(command)}`);
    if (raw[0]?.error !== undefined) throw new ToolError('parse_error', raw[0].error);
    if (/^\s*[0-9]/.test(command)) throw new ToolError('bad_argument', 'commands run on the session\'s channel: leave out the channel id');
    const parsed = parseRequest(command);
    if ('error' in parsed) throw shellToolError(parsed.error);
    if (!allowed.has(parsed.command.name)) throw new ToolError('bad_argument', `${parsed.command.name} is not allowed here`);
    checkCommandArguments(parsed.command);
  }

  /**
   * The step suggestions are made for: the shell's own count when the port can tell (a session that
   * attached after the document started has not seen its first steps), else the tracked script's.
   */
  private async currentStep(): Promise<number> {
    return (await this.options.port.step?.(this.channel)) ?? this.tracker.step();
  }

  private async submitOne(command: string): Promise<ShellResponse> {
    const [r] = await this.options.port.submit(`${this.channel} ${stripChannel(command)}`);
    return r ?? { CHANNEL: this.channel, RESPONSE: null, ERR: 'internal error: no response' };
  }

  private pending(id: number): Suggestion {
    const s = this.queue.get(id);
    if (!s) throw new ToolError('bad_argument', `no suggestion #${id}`);
    if (s.status !== 'pending') throw new ToolError('bad_argument', `suggestion #${id} is already ${s.status}`);
    return s;
  }

  private editRecord(s: Suggestion, outcome: 'accepted' | 'rejected' | 'undone', by: string): EditRecord {
    const e = s.edit;
    const record: EditRecord = e.kind === 'hypothesis-edit'
      ? { lhs: `${e.hypothesisName} : ${e.originalValue}`, rhs: `${e.hypothesisName} : ${e.suggestedValue}`, outcome, source: s.from, time: Date.now(), hypothesisName: e.hypothesisName }
      : { lhs: 'current goal', rhs: e.commands.join('; '), outcome, source: s.from, time: Date.now() };
    record.suggestionId = s.id;
    record.reason = `${outcome} by ${by}${s.reason ? `; ${s.reason}` : ''}`;
    return record;
  }
}

/** `base`, or `base` with more primes / a number, not taken in the goal's context. */
function freshName(base: string, goal: GoalInContext): string {
  const taken = new Set([...goal.vars.map((v) => v.name), ...goal.hyps.map((h) => h.name)]);
  if (!taken.has(base)) return base;
  for (let i = 1; ; i++) if (!taken.has(`${base}${i}`)) return `${base}${i}`;
}

function normalise(text: string): string {
  return text.replace(/\s+/g, '');
}
