import type { HammerReport } from '../../../shared/protocol/hammer-report.ts';
import type { OpenGoal } from '../../../shared/proof-tree/proof-state.ts';
import type { Checkpoint, DefineOutcome, FinishedProof, PrintMode, ProofStep, ProverSession, ScriptItem, SessionOptions, StepOutcome } from '../../shell/prover-session.ts';
import type { QueryCommand } from '../../../shared/protocol/shell-command.ts';
import type { QueryAnswer } from '../../../shared/protocol/query-answer.ts';
import { precheckUntrusted } from './vernacular-policy.ts';
import { runCoqText, TextRefused } from './coq-text-runner.ts';
import { DEFAULT_PROVER_MEMORY_MB, ProverError } from '../../shell/prover-session.ts';
import { CoqCrash, CoqFailure, CoqTimeout, CoqideTopClient, type ClientOptions } from './coqidetop-client.ts';
import type { CoqMessage, RawGoal } from './xml-protocol.ts';
import type { Attempt, CoqCheckpoint, LogEntry, LogItem } from './coq-log.ts';
import { fragmentProblem, isIdent } from './coq-sentence.ts';
import { coqDocumentText } from './coq-document-text.ts';
import type { OpenBlock } from './document-blocks.ts';
import { functorParameterField, librariesFromPrint } from './functor-parameters.ts';
import { ClosedConstants } from './closed-constants.ts';
import { ClosedLibraryCache } from './closed-library-cache.ts';
import { printedAll, printedAllQueries, rememberPrintedAll } from './printed-all.ts';
import { constantFromLocate, isQualid, sectionVariableFromLocate } from './assumptions.ts';
import { sectionPremises } from './section-premises.ts';
import { cleanEnvironment, librarySentences, notices } from './statement-reading.ts';
import { guard, guardName, refusing, toProverError } from './coq-errors.ts';
import { GoalPrinter } from './coq-goal-printer.ts';
import { answerQuery } from './coq-query.ts';
import { constructorsOf, declaredBy } from './coq-declarations.ts';
import { crushTactic, obtainTactic, ruleTactic, unfoldTactic, type StepTip } from './coq-proof-steps.ts';
import { theoremMeaning } from './theorem-meaning.ts';
import { CoqPreludes } from './coq-preludes.ts';
import { searchPremises } from './premise-search.ts';
import { HammerPipeline } from './hammer/hammer-pipeline.ts';
import type { HammerPort } from './hammer/hammer-port.ts';

export { toProverError } from './coq-errors.ts';

/** How long past a tactic's own `Timeout` we wait for coqidetop before interrupting it. */
const GRACE_MS = 2000;
/** Inside a HAMMER, how long before the deadline a running call is interrupted (the client kills it 1.5 s after). */
const INTERRUPT_LEAD_MS = 700;
/** Limit for calls that only parse or move the tip (Add, Edit_at): they never run tactics. */
const ROUND_TRIP_MS = 5000;

/** Goal lists up to this long are kept with each step (REVERT then needs no `Goal` round trip). */
const SNAPSHOT_GOALS = 64;

/** The kernel re-checks the whole proof term at `Qed`: give it at least this long. */
const QED_MIN_MS = 30_000;

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
  private client!: CoqideTopClient;
  private preludeTip = 0;
  private log: LogEntry[] = [];
  private current: RawGoal[] = [];
  /** Shelved goals of the proof (counted by Coq apart from the goals tactics see). */
  private shelved = 0;
  /** After `restore` the goals are re-read only when a step needs them (keeps REVERT at one round trip). */
  private stale = false;
  /** coqidetop was killed at a HAMMER's deadline: restart it (replaying the log) at the next request. */
  private restartDue = false;
  /** Goals as Arbor shows them (kinds of entries per proof, print modes). */
  private readonly printer: GoalPrinter;
  /** HAMMER's stages, run on this session through its port. */
  private readonly hammerPipeline: HammerPipeline;
  /** What CRUSH, RULE and UNFOLD run on: the tip, and the first goal's hypotheses. */
  private readonly stepTip: StepTip;
  /** Arbor's, the user's, the project's and a client's preludes: what runs before the document. */
  private readonly preludes: CoqPreludes;
  /** Refutation first (from the supervisor: the fidelity engine's counterexample search). */
  private readonly refute: SessionOptions['refute'];
  /** Closed (channel released or cancelled): a step still running must not start a new coqidetop. */
  private disposed = false;
  private readonly timeoutMs: number;
  /** The document's declarations and proofs, as spans of the log. */
  private items: LogItem[] = [];
  /** While a HAMMER runs: the wall-clock instant its budget ends. No call runs past it (see `attempt`). */
  private hardDeadline: number | undefined;
  /** Finished theorems' assumptions, judged without walking the libraries again (closed-constants.ts). */
  readonly closedConstants = new ClosedConstants({
    // Joined with the statement judge's `Locate` batch when both ask at once (one exchange per END).
    query: async (sentences) => (await this.client.queryJoined(sentences, this.client.tip, Math.max(this.timeoutMs, QED_MIN_MS))).filter((m) => m.level === 'notice').map((m) => m.text),
    printAll: (name) => this.printAll(name),
    assumptionsOfAll: (fulls) => this.assumptionsOfAll(fulls),
    resolve: async (name) => {
      const located = notices(await this.client.query(`Locate Term ${name}.`, this.client.tip, ROUND_TRIP_MS).catch(() => []));
      const full = constantFromLocate(located);
      if (full === undefined) return sectionVariableFromLocate(located);
      const libraries = async (): Promise<string[] | undefined> => librariesFromPrint(notices(await this.client.query('Print Libraries.', this.client.tip, ROUND_TRIP_MS)));
      return (await functorParameterField(full, this.openBlocks(), () => libraries().catch(() => undefined))) ?? full;
    },
    logLength: () => this.log.length,
  }, new ClosedLibraryCache({
    query: async (sentences) => (await this.client.query(sentences, this.client.tip, ROUND_TRIP_MS)).filter((m) => m.level === 'notice').map((m) => m.text),
    coqVersion: () => this.client.about(ROUND_TRIP_MS),
  }));

  private constructor(
    options: SessionOptions,
    private readonly clientOptions: ClientOptions,
  ) {
    this.timeoutMs = options.timeoutMs;
    this.refute = options.refute;
    this.printer = new GoalPrinter(() => this.client, options.printMode ?? 1);
    this.hammerPipeline = new HammerPipeline(this.hammerPort());
    this.preludes = new CoqPreludes(options, this.timeoutMs);
    this.stepTip = { timeoutMs: this.timeoutMs, attempt: (sentences, wantedMs) => this.attempt(sentences, wantedMs), firstHyps: () => this.current[0]?.hyps ?? [] };
  }

  static async open(options: SessionOptions, givenClientOptions: ClientOptions = {}): Promise<CoqSession> {
    const memory = options.memoryLimitMb ?? DEFAULT_PROVER_MEMORY_MB;
    const withMemory: ClientOptions = memory > 0 ? { memoryLimitMb: memory, ...givenClientOptions } : givenClientOptions;
    // A trusted project: its load paths on coqidetop's command line, their directories readable in the sandbox.
    const clientOptions: ClientOptions = options.project === undefined ? withMemory : { ...withMemory, extraArgs: [...options.project.args], sandbox: withMemory.sandbox === false ? false : { ...(withMemory.sandbox ?? {}), readOnly: [...(withMemory.sandbox?.readOnly ?? []), ...options.project.readOnly] } };
    const s = new CoqSession(options, clientOptions);
    await s.boot();
    return s;
  }

  get pid(): number | undefined {
    return this.client.pid;
  }

  /** Start coqidetop and run the preludes; throws `unavailable` when that is impossible. */
  private async boot(): Promise<void> {
    if (this.disposed) throw new ProverError('unavailable', 'coqidetop: the session is closed');
    try {
      this.client = await CoqideTopClient.start(this.clientOptions);
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

  /** A fresh coqidetop with the prelude and the log's first `len` sentences. */
  private async restart(len: number): Promise<void> {
    if (this.client.alive) this.client.kill();
    await this.client.exited;
    this.truncate(len);
    await this.boot();
    for (const entry of this.log) entry.stateId = await this.client.add(entry.sentence);
    const r = await this.client.goals();
    this.current = r.goals ?? [];
    this.shelved = r.shelved;
  }

  /** Keeps the log's first `len` sentences and the items that begin in them (a proof cut before its `Qed` is open again). */
  private truncate(len: number): void {
    this.closedConstants.forgetAfter(len);
    this.log.length = len;
    this.items = this.items.filter((i) => i.start < len);
    const last = this.items.at(-1);
    if (last?.end !== undefined && last.end > len) delete last.end;
  }

  /** The sections and modules the document's declarations leave open here. */
  private openBlocks(): OpenBlock[] {
    return this.items.filter((i) => i.kind === 'define').at(-1)?.blocks ?? [];
  }

  /** The proof in progress (not yet closed by `Qed`), if any. */
  private openProof(): LogItem | undefined {
    const last = this.items.at(-1);
    return last?.kind === 'proof' && last.end === undefined ? last : undefined;
  }

  /** Drops an unfinished proof (GOAL and DEFINE discard it, as the seed's GOAL does). */
  private async discardOpenProof(): Promise<void> {
    const open = this.openProof();
    if (open) await this.rewind(open.start);
  }

  private stateAt(len: number): number {
    return len === 0 ? this.preludeTip : (this.log[len - 1] as LogEntry).stateId;
  }

  /** Back to the log's first `len` sentences, restarting coqidetop if it is gone. */
  private async rewind(len: number): Promise<void> {
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
  private async ensureAlive(): Promise<void> {
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
  private async attempt(sentences: string[], wantedMs: number, readBack?: { name: string }): Promise<Attempt> {
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
        // END's Qed: the Print/Check both judges read go in the same exchange (printed-all.ts).
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
      if (error instanceof CoqCrash || (error instanceof CoqTimeout && error.killed) || !this.client.alive) throw error;
      await this.editAtPastInterrupt(before);
      return { ok: false, error };
    }
  }

  private async qedAndReadBack(sentence: string, name: string, ms: number): ReturnType<CoqideTopClient['addAndGoals']> {
    const { sentence: then, queries } = printedAllQueries(name);
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

  private async run(sentence: string, limitMs: number): Promise<RawGoal[]> {
    const r = await this.attempt([sentence], limitMs);
    if (!r.ok) throw r.error;
    return r.goals;
  }

  /** Run a step: on any error the document goes back to where the step began (restarting if needed). */
  private async transaction(body: () => Promise<{ script: string[]; messages?: string[]; report?: HammerReport }>): Promise<StepOutcome> {
    const len = this.log.length;
    const workable = (): number => this.current.filter((g) => !g.givenUp).length;
    const before = { workable: workable(), shelved: this.shelved };
    try {
      const { script, messages, report } = await body();
      const hidGoal = this.shelved > before.shelved && workable() < before.workable;
      if (this.shelved > 0 && (workable() === 0 || hidGoal)) {
        // Shelved goals (`shelve`, existential variables no step has fixed) are open goals like any other.
        // A step that shelved what it was asked to prove has not proved it, and when nothing else is left
        // they must be done too: bring them back where tactics — and the user — see them. (Evars that
        // `eapply` shelves beside new goals stay shelved: later steps usually fix them.)
        await this.run('Unshelve.', ROUND_TRIP_MS);
        script.push('Unshelve.');
      }
      const last = this.log.at(-1);
      if (!last || this.log.length === len) throw new ProverError('prover', 'internal error: the step sent nothing');
      const checkpoint = this.checkpointAt(last);
      const outcome: StepOutcome = { goals: await this.printer.render(this.current), script, checkpoint };
      if (messages && messages.length > 0) outcome.messages = messages;
      if (report) outcome.report = report;
      return outcome;
    } catch (e) {
      const err = toProverError(e);
      try {
        await this.rewind(len);
      } catch (again) {
        throw toProverError(again);
      }
      throw err;
    }
  }

  async start(goal: string, name = 'arbor_goal'): Promise<StepOutcome> {
    await this.ensureAlive();
    // Refused text changes nothing (`refused`); otherwise GOAL discards an unfinished proof, even when
    // Coq then rejects the new goal. Finished proofs stay.
    const [g, theorem] = refusing(() => [guard('goal', goal), guardName(name)]);
    await this.discardOpenProof().catch((e: unknown) => {
      throw toProverError(e);
    });
    this.printer.newProof();
    this.items.push({ kind: 'proof', start: this.log.length, name: theorem, goal: g });
    // Its END's statement judge compares with the clean environment's reading: read it while the proof is written.
    cleanEnvironment.prefetch(g, this.clientOptions, librarySentences(this.declarationSentences()));
    return this.transaction(async () => {
      await this.run(`Theorem ${theorem} : (${g}).`, this.timeoutMs);
      return { script: [] };
    });
  }

  /**
   * DEFINE: the client's declarations, judged like a client's prelude. Coq delimits
   * each sentence, the vernacular policy judges Coq's reading of it, and only then it runs
   * (coq-text-runner.ts); the script keeps exactly the text Coq ran.
   */
  async define(text: string): Promise<DefineOutcome> {
    await this.ensureAlive();
    // Refused text changes nothing; otherwise, like GOAL, a declaration discards an unfinished proof.
    const pre = precheckUntrusted(text, 'define');
    if (pre !== undefined) throw new ProverError('refused', pre);
    const open = this.openProof();
    const kept = { log: open ? this.log.slice(open.start) : [], items: [...this.items], current: this.current, shelved: this.shelved };
    try {
      await this.discardOpenProof();
    } catch (e) {
      throw toProverError(e);
    }
    const start = this.log.length;
    const failed = async (e: unknown): Promise<never> => {
      await this.rewind(start).catch(() => undefined);
      if (!(e instanceof TextRefused)) throw toProverError(e);
      await this.reopen(kept).catch(() => undefined);
      throw new ProverError('refused', e.message);
    };
    // No notation guard: a redefined notation is allowed (as coqc allows it); what a statement then means is
    // judged by Coq's elaboration at END (statement-judge.ts, docs/notation-overrides.md).
    let blocks = this.openBlocks();
    const ran = await runCoqText(this.client, text, { purpose: 'define', timeoutMs: this.timeoutMs, blocks: { open: blocks, after: (b) => { blocks = b; } } }).catch(failed);
    for (const sentence of ran) this.log.push({ sentence: sentence.text, stateId: sentence.stateId });
    this.items.push({ kind: 'define', start, end: this.log.length, blocks });
    const checkpoint = this.checkpointAt(this.log.at(-1) as LogEntry);
    const declared = await declaredBy(this.client, ran.map((r) => r.pp));
    return { declared, checkpoint, script: ran.map((r) => r.text.trim()) };
  }

  /** A refused DEFINE changes nothing: the unfinished proof it discarded comes back, sentence by sentence. */
  private async reopen(kept: { log: LogEntry[]; items: LogItem[]; current: RawGoal[]; shelved: number }): Promise<void> {
    if (kept.log.length === 0) return;
    for (const entry of kept.log) {
      entry.stateId = await this.client.add(entry.sentence, ROUND_TRIP_MS);
      this.log.push(entry);
    }
    await this.client.goals(this.timeoutMs + GRACE_MS);
    this.items = kept.items;
    this.current = kept.current;
    this.shelved = kept.shelved;
  }

  /** SEARCH, CHECK, ABOUT, PRINT, LOCATE at the current state (inside a proof, its hypotheses are in scope). */
  async query(q: QueryCommand): Promise<QueryAnswer> {
    await this.ensureAlive();
    return answerQuery(this.client, q, this.timeoutMs);
  }

  async step(step: ProofStep): Promise<StepOutcome> {
    await this.ensureAlive();
    if (!this.openProof()) throw new ProverError('prover', 'no goal');
    if (this.stale) await this.goals();
    if (this.current[0]?.givenUp) {
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
        this.hardDeadline = Date.now() + step.timeoutMs;
        try {
          return await this.transaction(async () => {
            const done = await this.hammerPipeline.hammer(step.timeoutMs);
            // Proved: what the step does after (Unshelve, reading the goals) is not the search, and not cut off.
            this.hardDeadline = undefined;
            return done;
          });
        } finally {
          this.hardDeadline = undefined;
        }
    }
  }

  /** One tactic, run under `Timeout`, recorded without it. */
  private tactic(tac: string): Promise<StepOutcome> {
    return this.transaction(async () => {
      await this.run(`Timeout ${secs(this.timeoutMs)} (${tac}).`, this.timeoutMs);
      return { script: [`${tac}.`] };
    });
  }

  /** The sentences of the preludes and of the document's DEFINEs: its functions, for induction and lemma discovery. */
  private declarationSentences(): string[] {
    const defined = this.items.filter((i) => i.kind === 'define').flatMap((i) => this.log.slice(i.start, i.end).map((e) => e.sentence));
    return [...this.preludes.channelSentences, ...this.preludes.untrustedSentences, ...defined];
  }

  /** What HAMMER's pipeline may do to this session (see hammer/hammer-port.ts). */
  private hammerPort(): HammerPort {
    return {
      timeoutMs: this.timeoutMs,
      refute: this.refute,
      plugin: () => this.preludes.hammerPlugin,
      deadline: () => this.hardDeadline,
      current: () => this.current,
      length: () => this.log.length,
      attempt: (sentences, wantedMs) => this.attempt(sentences, wantedMs),
      rewind: (len) => this.rewind(len),
      keepGoals: () => {
        const saved = { current: this.current, shelved: this.shelved };
        return () => {
          this.current = saved.current;
          this.shelved = saved.shelved;
        };
      },
      query: async (sentence) => {
        // Cut at the deadline like every call of a HAMMER (a `Check` of a huge subterm is not free).
        const left = Math.min(ROUND_TRIP_MS, (this.hardDeadline ?? Infinity) - Date.now() - INTERRUPT_LEAD_MS);
        if (left < 500) throw new ProverError('timeout', 'timeout');
        return (await this.client.query(sentence, this.client.tip, left)).map((m) => m.text).join('\n');
      },
      premises: (deadline) => {
        const own = this.openProof()?.name;
        return searchPremises({
          // Through `attempt` and `rewind`, as every look-ahead of HAMMER: cut at the deadline, and the log and
          // coqidetop's tip never disagree (a raw Add whose Edit_at was interrupted left them apart).
          printedAll: async () => {
            const len = this.log.length;
            const saved = { current: this.current, shelved: this.shelved };
            const r = await this.attempt(['Set Printing All.'], ROUND_TRIP_MS);
            if (!r.ok) return undefined;
            try {
              return r.goals[0];
            } finally {
              await this.rewind(len);
              this.current = saved.current;
              this.shelved = saved.shelved;
            }
          },
          query: async (sentence) => {
            const left = Math.min(ROUND_TRIP_MS, (this.hardDeadline ?? Infinity) - Date.now());
            // A query the deadline would interrupt is not started: a SIGINT racing its answer could reach the next call.
            if (left < 1000) return [];
            return (await this.client.query(sentence, this.client.tip, left).catch(() => [])).filter((m) => m.level === 'notice').map((m) => m.text);
          },
        }, deadline, new Set(own === undefined ? [] : [own]));
      },
      classify: (goals) => this.printer.classify(goals),
      hypotheses: (line) => this.printer.splitCached(line),
      crush: (rules, limitMs) => crushTactic(this.stepTip, rules, limitMs),
      declarations: () => this.declarationSentences(),
      theorems: () => this.items.filter((i) => i.kind === 'proof' && i.end !== undefined && i.name !== undefined).map((i) => i.name as string),
      declaresNothing: () => this.preludes.channelSentences.length === 0 && this.preludes.untrustedSentences.length === 0 && !this.items.some((i) => i.kind === 'define'),
      toProverError,
      fatal: (e) => e instanceof CoqCrash || (e instanceof CoqTimeout && e.killed) || !this.client.alive,
      fragmentProblem,
      isIdent,
      constructorsOf,
    };
  }

  /** `Print name` at the tip with every detail shown (no notations, implicit arguments, return clauses). */
  private async printAll(name: string): Promise<string> {
    // One exchange with the `Check` the statement judge reads next (printed-all.ts).
    const { print } = await printedAll(this.client, name, Math.max(this.timeoutMs, QED_MIN_MS));
    if (print === undefined) throw new ProverError('prover', `Print ${name} failed`);
    return print;
  }

  /** `Print Assumptions` on a throw-away definition that mentions every global of `fulls` (see closed-constants.ts). */
  private async assumptionsOfAll(fulls: readonly string[]): Promise<string | undefined> {
    if (!fulls.every(isQualid)) return undefined;
    const definition = `Definition arbor_joint_closure : unit := ${fulls.map((f) => `let _ := @${f} in `).join('')}tt.`;
    const limit = Math.max(this.timeoutMs, QED_MIN_MS);
    // One pipelined exchange; the slow way only when Coq refused something or the state was not the one expected.
    const fast = await this.client.queriesAfter(definition, ['Print Assumptions arbor_joint_closure.'], limit).then((a) => notices(a[0] ?? []), () => undefined);
    if (fast !== undefined) return fast;
    const tip = this.client.tip;
    try {
      await this.client.add(definition, ROUND_TRIP_MS);
      return notices(await this.client.query('Print Assumptions arbor_joint_closure.', this.client.tip, limit));
    } catch {
      return undefined;
    } finally {
      await this.client.editAt(tip, ROUND_TRIP_MS);
    }
  }

  /**
   * `Qed` in the session: the kernel re-checks the whole proof (shelved, given-up or unresolved goals
   * make it refuse), then `Print Assumptions` must show only what the user trusts. Anything else leaves
   * the session as it was before and throws (`fail` for a refused Qed, `unsound` for assumptions).
   */
  async finish(): Promise<FinishedProof> {
    await this.ensureAlive();
    const proof = this.openProof();
    if (!proof) throw new ProverError('prover', 'no goal');
    const len = this.log.length;
    const limit = Math.max(this.timeoutMs, QED_MIN_MS);
    try {
      const closed = await this.attempt(['Qed.'], limit, { name: proof.name ?? 'arbor_goal' });
      if (!closed.ok) {
        const why = toProverError(closed.error);
        if (why.code === 'timeout') throw why;
        throw new ProverError('fail', `Coq's kernel did not accept the proof: ${why.message}`);
      }
      // Each global's closure walked once per session (closed-constants.ts); candidates resolved by `Locate Term`.
      // The statement's meaning is read beside it (queries at the Qed's own state, and the clean environment,
      // never the tip); both are awaited before anything else moves the tip.
      const judged = this.closedConstants.judge(proof.name ?? 'arbor_goal', this.preludes.trustedNow());
      const declared = this.declarationSentences();
      const meaning = theoremMeaning(this.client, this.clientOptions, proof.name ?? 'arbor_goal', proof.goal ?? '', declared);
      const [verdictOf, statementOf] = await Promise.allSettled([judged, meaning]);
      if (verdictOf.status === 'rejected') throw verdictOf.reason;
      const verdict = verdictOf.value;
      if (!verdict.ok) throw new ProverError('unsound', verdict.reason);
      if (statementOf.status === 'rejected') throw statementOf.reason;
      const statement = statementOf.value;
      // Proved under the open section's hypotheses: a conditional result, said in words wherever it is reported.
      const premises = verdict.sectionVariables ? await sectionPremises(this.client, verdict.sectionVariables, ROUND_TRIP_MS) : [];
      proof.end = this.log.length;
      const checkpoint = this.checkpointAt(this.log.at(-1) as LogEntry);
      return { assumptions: verdict.assumptions, checkpoint, ...(statement ? { statement } : {}), ...(premises.length > 0 ? { premises } : {}) };
    } catch (e) {
      const err = toProverError(e);
      try {
        await this.rewind(len);
        this.stale = true;
      } catch (again) {
        throw toProverError(again);
      }
      throw err;
    }
  }

  /** Marks the log entry as a step's end; small goal lists are kept so REVERT costs one `Edit_at`. */
  private checkpointAt(entry: LogEntry): CoqCheckpoint {
    entry.token = {};
    if (this.current.length <= SNAPSHOT_GOALS) entry.goals = { goals: this.current, shelved: this.shelved };
    else delete entry.goals;
    return { token: entry.token };
  }

  async restore(checkpoint: Checkpoint): Promise<void> {
    await this.ensureAlive();
    const token = (checkpoint as CoqCheckpoint | undefined)?.token;
    const at = this.log.findIndex((e) => e.token === token);
    if (at < 0) throw new ProverError('prover', 'unknown checkpoint');
    try {
      await this.rewind(at + 1);
      const snapshot = (this.log[at] as LogEntry).goals;
      if (snapshot) {
        this.current = snapshot.goals;
        this.shelved = snapshot.shelved;
        this.stale = false;
        return;
      }
      this.stale = true;
    } catch (e) {
      throw toProverError(e);
    }
  }

  async goals(): Promise<OpenGoal[]> {
    await this.ensureAlive();
    try {
      const r = await this.client.goals();
      this.current = r.goals ?? [];
      this.shelved = r.shelved;
      this.stale = false;
      return await this.printer.render(this.current);
    } catch (e) {
      if (e instanceof CoqCrash) await this.restart(this.log.length).catch(() => undefined);
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
    this.disposed = true;
    await this.client.dispose();
  }

  /** For tests: kill coqidetop as a crash would. */
  killProcessForTest(): void {
    this.client.kill();
  }
}
