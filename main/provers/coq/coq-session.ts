import type { HammerReport } from '../../../shared/protocol/hammer-report.ts';
import type { OpenGoal } from '../../../shared/proof-tree/proof-state.ts';
import type { Checkpoint, DefineOutcome, FinishedProof, PrintMode, ProofStep, ProverSession, ScriptItem, SessionOptions, StepOutcome } from '../../shell/prover-session.ts';
import type { QueryCommand } from '../../../shared/protocol/shell-command.ts';
import type { QueryAnswer } from '../../../shared/protocol/query-answer.ts';
import { precheckUntrusted } from './vernacular-policy.ts';
import { runCoqText, TextRefused } from './coq-text-runner.ts';
import { DEFAULT_PROVER_MEMORY_MB, ProverError } from '../../shell/prover-session.ts';
import { CoqCrash, type ClientOptions } from './coqidetop-client.ts';
import type { RawGoal } from './xml-protocol.ts';
import type { CoqCheckpoint, LogEntry, LogItem } from './coq-log.ts';
import { hasArborPlugin } from './arbor-plugin.ts';
import { changesBlocks } from './document-blocks.ts';
import { coqDocumentText } from './coq-document-text.ts';
import type { ClosedConstants } from './closed-constants.ts';
import { sectionPremises } from './section-premises.ts';
import { cleanEnvironment, librarySentences } from './statement-reading.ts';
import { guard, guardName, refusing, toProverError } from './coq-errors.ts';
import { GoalPrinter } from './coq-goal-printer.ts';
import { answerQuery } from './coq-query.ts';
import { declaredBy } from './coq-declarations.ts';
import { coqTrim } from './coq-sentence.ts';
import { crushTactic, obtainTactic, ruleTactic, unfoldTactic, type StepTip } from './coq-proof-steps.ts';
import { theoremMeaning } from './theorem-meaning.ts';
import { CoqPreludes } from './coq-preludes.ts';
import { environmentLibrarySentences } from './environments.ts';
import { HammerPipeline } from './hammer/hammer-pipeline.ts';
import { CoqTip, GRACE_MS, ROUND_TRIP_MS } from './coq-tip.ts';
import { coqHammerPort } from './coq-hammer-port.ts';
import { closedConstantsOn, QED_MIN_MS } from './coq-closure-queries.ts';

export { toProverError } from './coq-errors.ts';

/** Goal lists up to this long are kept with each step (REVERT then needs no `Goal` round trip). */
const SNAPSHOT_GOALS = 64;

const secs = (ms: number): number => Math.max(1, Math.ceil(ms / 1000));

/**
 * One proof channel over one coqidetop. The document is the prelude followed by a log of the proof's
 * sentences; every step extends the log on the tip, forces execution with `Goal`, and on failure
 * `Edit_at`s back, so a failed step leaves Coq where it was.
 *
 * Crash policy: when coqidetop dies (or must be killed after a runaway tactic), the session itself
 * starts a new coqidetop, replays the prelude and its log up to the last good step, and then throws
 * `crashed` (or `timeout`). The session stays usable: the next call continues from that step.
 */
export class CoqSession implements ProverSession {
  readonly backend = 'coq' as const;
  /** coqidetop, the log of the document's sentences and the goals at its tip (coq-tip.ts). */
  private readonly tip: CoqTip;
  /** Goals as Arbor shows them (kinds of entries per proof, print modes). */
  private readonly printer: GoalPrinter;
  /** HAMMER's stages, run on this session through its port. */
  private readonly hammerPipeline: HammerPipeline;
  /** What CRUSH, RULE and UNFOLD run on: the tip, and the first goal's hypotheses. */
  private readonly stepTip: StepTip;
  /** Arbor's, the user's, the project's and a client's preludes: what runs before the document. */
  private readonly preludes: CoqPreludes;
  private readonly timeoutMs: number;
  /** Finished theorems' assumptions, judged without walking the libraries again (closed-constants.ts). */
  readonly closedConstants: ClosedConstants;

  private constructor(
    options: SessionOptions,
    private readonly clientOptions: ClientOptions,
  ) {
    this.timeoutMs = options.timeoutMs;
    this.preludes = new CoqPreludes(options, this.timeoutMs);
    this.tip = new CoqTip(clientOptions, this.preludes, (len) => this.closedConstants.forgetAfter(len), () => this.closedConstants.forgetEnvironment());
    this.closedConstants = closedConstantsOn(this.tip, this.timeoutMs);
    this.printer = new GoalPrinter(() => this.tip.client, options.printMode ?? 1);
    this.stepTip = { timeoutMs: this.timeoutMs, attempt: (sentences, wantedMs) => this.tip.attempt(sentences, wantedMs), firstHyps: () => this.tip.current[0]?.hyps ?? [] };
    const parts = { tip: this.tip, timeoutMs: this.timeoutMs, refute: options.refute, preludes: this.preludes, printer: this.printer, stepTip: this.stepTip };
    this.hammerPipeline = new HammerPipeline(coqHammerPort({ ...parts, declarations: () => this.declarationSentences() }));
  }

  static async open(options: SessionOptions, givenClientOptions: ClientOptions = {}): Promise<CoqSession> {
    const memory = options.memoryLimitMb ?? DEFAULT_PROVER_MEMORY_MB;
    const withMemory: ClientOptions = memory > 0 ? { memoryLimitMb: memory, ...givenClientOptions } : givenClientOptions;
    // A trusted project: its load paths on coqidetop's command line, their directories readable in the sandbox.
    const clientOptions: ClientOptions = options.project === undefined ? withMemory : { ...withMemory, extraArgs: [...options.project.args], sandbox: withMemory.sandbox === false ? false : { ...(withMemory.sandbox ?? {}), readOnly: [...(withMemory.sandbox?.readOnly ?? []), ...options.project.readOnly] } };
    const s = new CoqSession(options, clientOptions);
    await s.tip.boot();
    await s.closedConstants.warm();
    return s;
  }

  get pid(): number | undefined {
    return this.tip.client.pid;
  }

  get alive(): boolean {
    return this.tip.client.alive;
  }

  /** Run a step: on any error the document goes back to where the step began (restarting if needed). */
  private async transaction(body: () => Promise<{ script: string[]; messages?: string[]; report?: HammerReport }>): Promise<StepOutcome> {
    const len = this.tip.log.length;
    const workable = (): number => this.tip.current.filter((g) => !g.givenUp).length;
    const before = { workable: workable(), shelved: this.tip.shelved };
    try {
      const { script, messages, report } = await body();
      const hidGoal = this.tip.shelved > before.shelved && workable() < before.workable;
      if (this.tip.shelved > 0 && (workable() === 0 || hidGoal)) {
        // Shelved goals (`shelve`, existential variables no step has fixed) are open goals like any other.
        // A step that shelved what it was asked to prove has not proved it, and when nothing else is left
        // they must be done too: bring them back where tactics — and the user — see them. (Evars that
        // `eapply` shelves beside new goals stay shelved: later steps usually fix them.)
        await this.tip.run('Unshelve.', ROUND_TRIP_MS);
        script.push('Unshelve.');
      }
      const last = this.tip.log.at(-1);
      if (!last || this.tip.log.length === len) throw new ProverError('prover', 'internal error: the step sent nothing');
      const checkpoint = this.checkpointAt(last);
      const outcome: StepOutcome = { goals: await this.printer.render(this.tip.current), script, checkpoint };
      if (messages && messages.length > 0) outcome.messages = messages;
      if (report) outcome.report = report;
      return outcome;
    } catch (e) {
      const err = toProverError(e);
      try {
        await this.tip.rewind(len);
      } catch (again) {
        throw toProverError(again);
      }
      throw err;
    }
  }

  async start(goal: string, name = 'arbor_goal'): Promise<StepOutcome> {
    await this.tip.ensureAlive();
    // Refused text changes nothing (`refused`); otherwise GOAL discards an unfinished proof, even when
    // Coq then rejects the new goal. Finished proofs stay.
    const [g, theorem] = refusing(() => [guard('goal', goal), guardName(name)]);
    await this.tip.discardOpenProof().catch((e: unknown) => {
      throw toProverError(e);
    });
    this.printer.newProof();
    this.tip.items.push({ kind: 'proof', start: this.tip.log.length, name: theorem, goal: g });
    // Its END's statement judge compares with the clean environment's reading: read it while the proof is written.
    cleanEnvironment.prefetch(g, this.clientOptions, librarySentences(this.meaningSentences()));
    return this.transaction(async () => {
      await this.tip.run(`Theorem ${theorem} : (${g}).`, this.timeoutMs);
      return { script: [] };
    });
  }

  /**
   * DEFINE: the client's declarations, judged like a client's prelude. Coq delimits
   * each sentence, the vernacular policy judges Coq's reading of it, and only then it runs
   * (coq-text-runner.ts); the script keeps exactly the text Coq ran.
   */
  async define(text: string): Promise<DefineOutcome> {
    await this.tip.ensureAlive();
    // Refused text changes nothing; otherwise, like GOAL, a declaration discards an unfinished proof.
    const pre = precheckUntrusted(text, 'define');
    if (pre !== undefined) throw new ProverError('refused', pre);
    const open = this.tip.openProof();
    const kept = { log: open ? this.tip.log.slice(open.start) : [], items: [...this.tip.items], current: this.tip.current, shelved: this.tip.shelved };
    try {
      await this.tip.discardOpenProof();
    } catch (e) {
      throw toProverError(e);
    }
    const start = this.tip.log.length;
    const failed = async (e: unknown): Promise<never> => {
      await this.tip.rewind(start).catch(() => undefined);
      if (!(e instanceof TextRefused)) throw toProverError(e);
      await this.reopen(kept).catch(() => undefined);
      throw new ProverError('refused', e.message);
    };
    // No notation guard: a redefined notation is allowed (as coqc allows it); what a statement then means is
    // judged by Coq's elaboration at END (statement-judge.ts, docs/notation-overrides.md).
    let blocks = this.tip.openBlocks();
    const ran = await runCoqText(this.tip.client, text, { purpose: 'define', timeoutMs: this.timeoutMs, blocks: { open: blocks, after: (b) => { blocks = b; } } }).catch(failed);
    for (const sentence of ran) this.tip.log.push({ sentence: sentence.text, stateId: sentence.stateId });
    // A block may have opened or closed (even when the same ones are open after: `End S. Section S.`): the
    // document's paths may name other objects from now on.
    if (ran.some((r) => changesBlocks(r.pp))) this.closedConstants.forgetDocumentGlobals();
    this.tip.items.push({ kind: 'define', start, end: this.tip.log.length, blocks });
    const checkpoint = this.checkpointAt(this.tip.log.at(-1) as LogEntry);
    const declared = await declaredBy(this.tip.client, ran, this.timeoutMs).catch((e: unknown) => {
      throw toProverError(e);
    });
    // With the plugin, what stays open is Coq's answer (asked after any sentence that may open or close a block, the
    // same as before otherwise); only without it, the reading's, which the SCRIPT then reads again. The SCRIPT closes it.
    return { declared, checkpoint, script: ran.map((r) => coqTrim(r.text)), ...(hasArborPlugin(this.tip.client) ? { openAfter: blocks.map((b) => b.name) } : {}) };
  }

  /** A refused DEFINE changes nothing: the unfinished proof it discarded comes back, sentence by sentence. */
  private async reopen(kept: { log: LogEntry[]; items: LogItem[]; current: RawGoal[]; shelved: number }): Promise<void> {
    if (kept.log.length === 0) return;
    for (const entry of kept.log) {
      entry.stateId = await this.tip.client.add(entry.sentence, ROUND_TRIP_MS);
      this.tip.log.push(entry);
    }
    await this.tip.client.goals(this.timeoutMs + GRACE_MS);
    this.tip.items = kept.items;
    this.tip.current = kept.current;
    this.tip.shelved = kept.shelved;
  }

  /** SEARCH, CHECK, ABOUT, PRINT, LOCATE at the current state (inside a proof, its hypotheses are in scope). */
  async query(q: QueryCommand): Promise<QueryAnswer> {
    await this.tip.ensureAlive();
    return answerQuery(this.tip.client, q, this.timeoutMs);
  }

  async step(step: ProofStep): Promise<StepOutcome> {
    await this.tip.ensureAlive();
    if (!this.tip.openProof()) throw new ProverError('prover', 'no goal');
    if (this.tip.stale) await this.goals();
    if (this.tip.current[0]?.givenUp) {
      throw new ProverError('fail', 'this goal was given up (give_up/admit) and no proof can keep it: REVERT to before the step that gave it up');
    }
    switch (step.kind) {
      case 'have':
        return this.tactic(`assert (${guardName(step.name)} : ${guard('term', step.expr)})`);
      case 'obtain':
        return this.tactic(obtainTactic(step));
      case 'apply':
        // A reproduction script must be closed: no admitted holes through APPLY.
        if (/\b(admit|give_up|Admitted)\b/.test(step.tactic)) throw new ProverError('prover', 'admit is not allowed');
        return this.tactic(`(${guard('tactic', step.tactic)})`);
      case 'crush':
        return this.transaction(async () => ({ script: [await crushTactic(this.stepTip, step.rules.map((r) => guard('rule', r)), this.timeoutMs)] }));
      case 'rule':
        return this.transaction(() => ruleTactic(this.stepTip, guard('rule', step.rule)));
      case 'unfold':
        return this.transaction(() => unfoldTactic(this.stepTip, guard('rule', step.rule)));
      case 'hammer':
        this.tip.hardDeadline = Date.now() + step.timeoutMs;
        try {
          return await this.transaction(async () => {
            const done = await this.hammerPipeline.hammer(step.timeoutMs);
            // Proved: what the step does after (Unshelve, reading the goals) is not the search, and not cut off.
            this.tip.hardDeadline = undefined;
            return done;
          });
        } finally {
          this.tip.hardDeadline = undefined;
        }
    }
  }

  /** One tactic, run under `Timeout`, recorded without it. */
  private tactic(tac: string): Promise<StepOutcome> {
    return this.transaction(async () => {
      await this.tip.run(`Timeout ${secs(this.timeoutMs)} (${tac}).`, this.timeoutMs);
      return { script: [`${tac}.`] };
    });
  }

  /** The sentences of the preludes and of the document's DEFINEs: its functions, for induction and lemma discovery. */
  private declarationSentences(): string[] {
    const defined = this.tip.items.filter((i) => i.kind === 'define').flatMap((i) => this.tip.log.slice(i.start, i.end).map((e) => e.sentence));
    return [...this.preludes.channelSentences, ...this.preludes.untrustedSentences, ...defined];
  }

  /** What the statement judge reads a statement after: the environment's library sets, then the preludes and DEFINEs. */
  private meaningSentences(): string[] {
    return [...environmentLibrarySentences(this.preludes.environment), ...this.declarationSentences()];
  }

  /**
   * `Qed` in the session: the kernel re-checks the whole proof (shelved, given-up or unresolved goals
   * make it refuse), then `Print Assumptions` must show only what the user trusts. Anything else leaves
   * the session as it was before and throws (`fail` for a refused Qed, `unsound` for assumptions).
   */
  async finish(): Promise<FinishedProof> {
    await this.tip.ensureAlive();
    const proof = this.tip.openProof();
    if (!proof) throw new ProverError('prover', 'no goal');
    const len = this.tip.log.length;
    const limit = Math.max(this.timeoutMs, QED_MIN_MS);
    try {
      const closed = await this.tip.attempt(['Qed.'], limit, { name: proof.name ?? 'arbor_goal' });
      if (!closed.ok) {
        const why = toProverError(closed.error);
        if (why.code === 'timeout') throw why;
        throw new ProverError('fail', `Coq's kernel did not accept the proof: ${why.message}`);
      }
      // Each global's closure walked once per session (closed-constants.ts); candidates resolved by `Locate Term`.
      // The statement's meaning is read beside it (queries at the Qed's own state, and the clean environment,
      // never the tip); both are awaited before anything else moves the tip.
      const judged = this.closedConstants.judge(proof.name ?? 'arbor_goal', this.preludes.trustedNow());
      const declared = this.meaningSentences();
      const meaning = theoremMeaning(this.tip.client, this.clientOptions, proof.name ?? 'arbor_goal', proof.goal ?? '', declared);
      const [verdictOf, statementOf] = await Promise.allSettled([judged, meaning]);
      if (verdictOf.status === 'rejected') throw verdictOf.reason;
      const verdict = verdictOf.value;
      if (!verdict.ok) throw new ProverError('unsound', verdict.reason);
      if (statementOf.status === 'rejected') throw statementOf.reason;
      const statement = statementOf.value;
      // Proved under the open section's hypotheses: a conditional result, said in words wherever it is reported.
      const premises = verdict.sectionVariables ? await sectionPremises(this.tip.client, verdict.sectionVariables, ROUND_TRIP_MS) : [];
      proof.end = this.tip.log.length;
      const checkpoint = this.checkpointAt(this.tip.log.at(-1) as LogEntry);
      return { assumptions: verdict.assumptions, checkpoint, ...(statement ? { statement } : {}), ...(premises.length > 0 ? { premises } : {}) };
    } catch (e) {
      const err = toProverError(e);
      try {
        await this.tip.rewind(len);
        this.tip.stale = true;
      } catch (again) {
        throw toProverError(again);
      }
      throw err;
    }
  }

  /** Marks the log entry as a step's end; small goal lists are kept so REVERT costs one `Edit_at`. */
  private checkpointAt(entry: LogEntry): CoqCheckpoint {
    entry.token = {};
    if (this.tip.current.length <= SNAPSHOT_GOALS) entry.goals = { goals: this.tip.current, shelved: this.tip.shelved };
    else delete entry.goals;
    return { token: entry.token };
  }

  async restore(checkpoint: Checkpoint): Promise<void> {
    await this.tip.ensureAlive();
    const token = (checkpoint as CoqCheckpoint | undefined)?.token;
    const at = this.tip.log.findIndex((e) => e.token === token);
    if (at < 0) throw new ProverError('prover', 'unknown checkpoint');
    try {
      await this.tip.rewind(at + 1);
      const snapshot = (this.tip.log[at] as LogEntry).goals;
      if (snapshot) {
        this.tip.current = snapshot.goals;
        this.tip.shelved = snapshot.shelved;
        this.tip.stale = false;
        return;
      }
      this.tip.stale = true;
    } catch (e) {
      throw toProverError(e);
    }
  }

  async goals(): Promise<OpenGoal[]> {
    await this.tip.ensureAlive();
    try {
      const r = await this.tip.client.goals();
      this.tip.current = r.goals ?? [];
      this.tip.shelved = r.shelved;
      this.tip.stale = false;
      return await this.printer.render(this.tip.current);
    } catch (e) {
      if (e instanceof CoqCrash) await this.tip.restart(this.tip.log.length).catch(() => undefined);
      throw toProverError(e);
    }
  }

  async setPrintMode(mode: PrintMode): Promise<void> {
    this.printer.mode = mode;
  }

  renderScript(goal: string, steps: string[][], openGoals: number): string {
    return this.renderDocument([{ kind: 'proof', name: 'arbor_goal', goal, steps, openGoals }]);
  }

  renderDocument(items: ScriptItem[]): string {
    // Exactly the preludes' sentences that ran (Coq delimited them; a client's were judged): never their raw text.
    return coqDocumentText(this.preludes.documentSentences(), items, this.preludes.environment);
  }

  async dispose(): Promise<void> {
    this.tip.disposed = true;
    await this.tip.client.dispose();
  }

  /** For tests: kill coqidetop as a crash would. */
  killProcessForTest(): void {
    this.tip.client.kill();
  }
}
