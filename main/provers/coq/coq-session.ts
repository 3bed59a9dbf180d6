import type { DiscoveredLemma, HammerReport, HammerStage } from '../../../shared/protocol/hammer-report.ts';
import type { OpenGoal, ContextEntry } from '../../../shared/proof-tree/proof-state.ts';
import type { Checkpoint, DefineOutcome, FinishedProof, PrintMode, ProofStep, ProverSession, ScriptItem, SessionOptions, StepOutcome } from '../../shell/prover-session.ts';
import type { QueryCommand } from '../../../shared/protocol/shell-command.ts';
import type { EnvironmentEntry, QueryAnswer } from '../../../shared/protocol/query-answer.ts';
import { SEARCH_LIMIT } from '../../../shared/protocol/query-answer.ts';
import { firstLocated, moduleOf, parseAbout, parseCheck, parseLocate, parsePrint, parseSearchResult } from './coq-queries.ts';
import { precheckUntrusted } from './vernacular-policy.ts';
import { runCoqText, TextRefused } from './coq-text-runner.ts';
import { DEFAULT_PROVER_MEMORY_MB, ProverError } from '../../shell/prover-session.ts';
import { CoqCrash, CoqFailure, CoqTimeout, CoqideTopClient, type ClientOptions } from './coqidetop-client.ts';
import type { CoqMessage, RawGoal } from './xml-protocol.ts';
import { splitHyp, type SplitHyp } from './coq-hyps.ts';
import { fragmentProblem, isIdent, splitSentences } from './coq-sentence.ts';
import { guessKind, kindsFromCheck, looksLikeProp, sortQuery, type EntryKind } from './context-kind.ts';
import { globalNames, parseCoqTerm, toSexp } from './coq-sexp.ts';
import { reconstructionFrom, reconstructionVariants } from './hammer-reconstruction.ts';
import { arborPrelude, SESSION_ONLY_PRELUDE } from './prelude.ts';
import { cleanEnvironment, cleanReading, readTerm, typeFromCheck } from './statement-reading.ts';
import { compareReadings } from './statement-meaning.ts';
import type { StatementMeaning } from '../../../shared/protocol/statement-meaning.ts';
import { deepRecursors, inductionTactics, nestedInductionTactics, recursionInductionTactics, wantsWitness, WHOLE_GOAL_PORTFOLIO, witnessTactics } from './hammer-portfolio.ts';
import { conjectures, fixpointSignatures, refutationTactic } from './lemma-discovery.ts';
import { arrowParts, refutationPlan, refutingInstance, type ConstructorShape } from './instance-refutation.ts';
import { constantFromLocate, constantsFromLocate, declaredAssumptions, isQualid } from './assumptions.ts';
import { ClosedConstants } from './closed-constants.ts';

/** How long past a tactic's own `Timeout` we wait for coqidetop before interrupting it. */
const GRACE_MS = 2000;
/** Limit for calls that only parse or move the tip (Add, Edit_at): they never run tactics. */
const ROUND_TRIP_MS = 5000;
/** Quick closers tried on each subgoal before CoqHammer's `hammer` (seed 000: blast 1 s, fastforce 2 s). */
const QUICK: { tac: string; secs: number }[] = [
  { tac: 'solve [congruence]', secs: 1 },
  { tac: 'solve [lia]', secs: 1 },
  { tac: 'solve [sfirstorder]', secs: 1 },
  { tac: 'solve [sauto limit: 1000]', secs: 2 },
];
const LOCATE_KINDS = /^(?!Notation|Ltac|Module|ModuleType|No object)\S+\s+(\S+)/;

interface LogEntry {
  /** As sent (with `Timeout`); replayed after a restart. */
  sentence: string;
  stateId: number;
  /** Set on the last sentence of each step: what a Checkpoint points at. */
  token?: object;
  /** The goals after that step, when small: REVERT to it then needs no `Goal` round trip. */
  goals?: { goals: RawGoal[]; shelved: number };
}

interface CoqCheckpoint {
  token: object;
}

/** An item of the document in the log: a declaration, or a proof (open until its `Qed`). */
interface LogItem {
  kind: 'define' | 'proof';
  /** Log length before its first sentence. */
  start: number;
  /** Log length after its last sentence (a proof's `Qed`); undefined while a proof is open. */
  end?: number;
  /** A proof's theorem name and statement. */
  name?: string;
  goal?: string;
}

type Attempt = { ok: true; goals: RawGoal[]; messages: CoqMessage[] } | { ok: false; error: unknown };

/** Around a client's declarations: Coq then refuses a notation that redefines one in use (`Notation "x = y" := True`). */
const NOTATION_GUARD_ON = 'Set Warnings "+notation-overridden".';
const NOTATION_GUARD_OFF = 'Set Warnings "notation-overridden".';

/** Goal lists up to this long are kept with each step (REVERT then needs no `Goal` round trip). */
const SNAPSHOT_GOALS = 64;

/** The kernel re-checks the whole proof term at `Qed`: give it at least this long. */
const QED_MIN_MS = 30_000;

const secs = (ms: number): number => Math.max(1, Math.ceil(ms / 1000));
const flat = (s: string): string => s.replace(/\s+/g, ' ').trim();

const guard = (what: string, text: string): string => {
  const problem = fragmentProblem(text);
  if (problem !== undefined) throw new ProverError('parse', `parse error: ${what}: ${problem}`);
  return text.trim();
};
/** Runs validations whose failure must leave the document unchanged, as `refused` errors. */
const refusing = <T>(validate: () => T): T => {
  try {
    return validate();
  } catch (e) {
    throw new ProverError('refused', toProverError(e).message);
  }
};
const guardName = (name: string): string => {
  if (!isIdent(name)) throw new ProverError('parse', `parse error: bad name '${name}'`);
  return name;
};

/** Coq's answers and our client's failures, as the shell's stable error codes. */
export const toProverError = (e: unknown): ProverError => {
  if (e instanceof ProverError) return e;
  if (e instanceof CoqTimeout) return new ProverError('timeout', 'timeout');
  if (e instanceof CoqCrash) return new ProverError('crashed', `crashed: ${e.message}`);
  if (e instanceof CoqFailure) {
    const msg = flat(e.message);
    // Arbor interrupts a call only at a time limit (`Timeout`, a HAMMER's deadline): both are timeouts.
    if (msg === 'Timeout!' || msg === 'User interrupt.') return new ProverError('timeout', 'timeout');
    if (/^Syntax error|^Syntax Error|Lexer:/.test(msg)) return new ProverError('parse', `parse error: ${msg}`);
    return new ProverError('prover', msg);
  }
  return new ProverError('prover', e instanceof Error ? e.message : String(e));
};

const isTimeout = (e: unknown): boolean => toProverError(e).code === 'timeout';

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
  /** Basenames of assumptions the user's own prelude declares (see assumptions.ts)… */
  private readonly preludeAssumptions: Set<string>;
  /** …and their full kernel names, resolved after boot: the only assumptions trusted beyond the library's. */
  private trustedAssumptions = new Set<string>();
  /** After `restore` the goals are re-read only when a step needs them (keeps REVERT at one round trip). */
  private stale = false;
  private mode: PrintMode;
  /** Per proof: a type's kind as Coq's `Check` said (null: Coq could not tell; guess by shape). */
  private readonly kinds = new Map<string, EntryKind | null>();
  private readonly splits = new Map<string, SplitHyp[]>();
  private readonly fullNames = new Map<string, string>();
  private readonly arborSentences: string[];
  /** Refutation first (from the supervisor: the fidelity engine's counterexample search). */
  private readonly refute: SessionOptions['refute'];
  /** The user's own prelude (trusted), as Coq delimited it at the first boot (restarts replay these). */
  private channelSentences: string[] = [];
  /** The project file's prelude, then a client's (`PRELUDE`): the sentences Coq delimited and the policy allowed at the first boot. */
  private untrustedSentences: string[] = [];
  /** Whether the preludes' sentences are known (after the first boot). */
  private preludesRead = false;
  private readonly preludeTexts: { trusted: string; project: string; untrusted: string; trustProject: boolean };
  /** Whether CoqHammer's plugin (the `hammer` tactic) loaded; without it HAMMER uses the quick tactics only. */
  private hammerPlugin = true;
  /** Closed (channel released or cancelled): a step still running must not start a new coqidetop. */
  private disposed = false;
  private readonly timeoutMs: number;
  /** The document's declarations and proofs, as spans of the log. */
  private items: LogItem[] = [];
  /** While a HAMMER runs: the wall-clock instant its budget ends. No call runs past it (see `attempt`). */
  private hardDeadline: number | undefined;
  /** Finished theorems' assumptions, judged without walking the libraries again (closed-constants.ts). */
  readonly closedConstants = new ClosedConstants({
    query: async (sentences) => this.answerTexts(await this.client.query(sentences, this.client.tip, Math.max(this.timeoutMs, QED_MIN_MS))),
    printAll: (name) => this.printAll(name),
    assumptionsOfAll: (fulls) => this.assumptionsOfAll(fulls),
    resolve: async (name) => {
      const located = await this.client.query(`Locate Term ${name}.`, this.client.tip, ROUND_TRIP_MS).catch(() => []);
      return constantFromLocate(this.answerText(located));
    },
    logLength: () => this.log.length,
  });

  private constructor(
    options: SessionOptions,
    private readonly clientOptions: ClientOptions,
  ) {
    this.timeoutMs = options.timeoutMs;
    this.refute = options.refute;
    this.mode = options.printMode ?? 1;
    this.arborSentences = splitSentences(arborPrelude());
    this.preludeTexts = { trusted: options.prelude ?? '', project: options.projectPrelude ?? '', untrusted: options.untrustedPrelude ?? '', trustProject: options.trustProjectAxioms === true };
    this.preludeAssumptions = declaredAssumptions(options.prelude ?? '');
  }

  static async open(options: SessionOptions, givenClientOptions: ClientOptions = {}): Promise<CoqSession> {
    const memory = options.memoryLimitMb ?? DEFAULT_PROVER_MEMORY_MB;
    const clientOptions: ClientOptions = memory > 0 ? { memoryLimitMb: memory, ...givenClientOptions } : givenClientOptions;
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
    const initTip = this.client.tip;
    try {
      for (const s of SESSION_ONLY_PRELUDE) await this.client.add(s);
    } catch (e) {
      if (!(e instanceof CoqFailure)) throw toProverError(e);
      this.hammerPlugin = false;
      await this.client.editAt(initTip);
    }
    const run = async (what: string, body: () => Promise<void>): Promise<void> => {
      try {
        await body();
        await this.client.goals();
      } catch (e) {
        await this.client.dispose();
        if (e instanceof TextRefused) throw new ProverError('refused', e.message);
        const msg = toProverError(e).message;
        if (what === 'Arbor prelude') throw new ProverError('unavailable', `${what}: ${msg} (fix: apt-get install coq libcoq-hammer)`);
        throw new ProverError('prover', `${what}: ${msg}`);
      }
    };
    const addAll = async (sentences: string[]): Promise<void> => {
      for (const s of sentences) await this.client.add(s);
    };
    await run('Arbor prelude', () => addAll(this.arborSentences));
    // The preludes are split by Coq itself (and a client's judged sentence by sentence) at the first boot;
    // a restart replays exactly the sentences that ran then.
    const first = !this.preludesRead;
    await run('prelude', async () => {
      if (first) this.channelSentences = (await runCoqText(this.client, this.preludeTexts.trusted, { timeoutMs: this.timeoutMs })).map((r) => r.text.trim());
      else await addAll(this.channelSentences);
    });
    // The user's prelude's assumptions by full kernel name, read before any client text runs (a restart replays
    // the same sentences, so the names stay).
    if (first) this.trustedAssumptions = await this.resolveNames(this.preludeAssumptions);
    const judged = [
      { text: this.preludeTexts.project, purpose: 'project' as const },
      { text: this.preludeTexts.untrusted, purpose: 'prelude' as const },
    ].filter((p) => p.text.trim() !== '');
    if (first ? judged.length > 0 : this.untrustedSentences.length > 0) {
      // A client's notation must not redefine one in use (`Notation "x = y" := True` would make `1 = 2`
      // trivial): Coq's own check refuses redefinitions while the client's text runs. As for DEFINE, the
      // guard runs before the client's sentences are added (notations are read then).
      await run('prelude', () => addAll([NOTATION_GUARD_ON]));
      await run('prelude', async () => {
        if (first) {
          const sentences: string[] = [];
          for (const { text, purpose } of judged) {
            const ran = await runCoqText(this.client, text, { purpose, timeoutMs: this.timeoutMs });
            sentences.push(...ran.map((r) => r.text.trim()));
            // The assumptions the user confirmed are those Coq read in the project prelude (its reprints: no comments).
            if (purpose === 'project' && this.preludeTexts.trustProject) {
              for (const full of await this.resolveNames(declaredAssumptions(ran.map((r) => r.pp).join(' ')))) this.trustedAssumptions.add(full);
            }
          }
          this.untrustedSentences = sentences;
        } else await addAll(this.untrustedSentences);
      });
      await run('prelude', () => addAll([NOTATION_GUARD_OFF]));
    }
    this.preludesRead = true;
    this.preludeTip = this.client.tip;
  }

  /**
   * The user's prelude's assumptions by full kernel name, read right after it ran (before any client text
   * exists): `Locate Term` lists every constant of a basename, and only the user's prelude has declared any
   * outside the library by then. Later declarations (`Module M. Declare Instance x…`) get other kernel
   * names, so they never borrow this trust.
   */
  private async resolveNames(names: Iterable<string>): Promise<Set<string>> {
    const trusted = new Set<string>();
    for (const n of names) {
      if (!isQualid(n)) continue;
      const out = await this.client.query(`Locate Term ${n}.`, this.client.tip, ROUND_TRIP_MS).catch(() => []);
      for (const full of constantsFromLocate(this.answerText(out))) if (!/^(Coq|Hammer)\./.test(full)) trusted.add(full);
    }
    return trusted;
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
    this.log.length = len;
    this.closedConstants.forgetAfter(len);
    this.items = this.items.filter((i) => i.start < len);
    const last = this.items.at(-1);
    if (last?.end !== undefined && last.end > len) delete last.end;
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
        await this.client.editAt(this.stateAt(len), ROUND_TRIP_MS);
        return;
      } catch (e) {
        if (this.client.alive && !(e instanceof CoqTimeout)) throw e;
      }
    }
    await this.restart(len);
  }

  /**
   * Add sentences on the tip and execute them. A Coq failure or an interrupted timeout is an answer
   * (`ok: false`, document restored); a dead process is thrown for the enclosing step to recover.
   */
  private async attempt(sentences: string[], wantedMs: number): Promise<Attempt> {
    const len = this.log.length;
    const before = this.client.tip;
    // Inside a HAMMER the user's budget is a wall-clock limit: a call is interrupted at the deadline
    // (SIGINT to coqidetop's group: its ATPs too) and none starts after it.
    const hardLeft = this.hardDeadline === undefined ? Infinity : this.hardDeadline - Date.now();
    if (hardLeft <= 0) throw new ProverError('timeout', 'timeout');
    const limitMs = Math.min(wantedMs, hardLeft);
    try {
      let r: { goals: RawGoal[] | undefined; shelved: number; messages: CoqMessage[] };
      if (sentences.length === 1) {
        // The common case: one pipelined exchange, the same two calls as a raw Add+Goal, one round trip.
        const sentence = sentences[0] as string;
        const a = await this.client.addAndGoals(sentence, Math.min(limitMs + GRACE_MS, hardLeft));
        this.log.push({ sentence, stateId: a.stateId });
        r = a;
      } else {
        for (const sentence of sentences) this.log.push({ sentence, stateId: await this.client.add(sentence, ROUND_TRIP_MS) });
        r = await this.client.goals(Math.min(limitMs + GRACE_MS, Math.max(1, (this.hardDeadline ?? Infinity) - Date.now())));
      }
      this.current = r.goals ?? [];
      this.shelved = r.shelved;
      this.stale = false;
      return { ok: true, goals: this.current, messages: r.messages };
    } catch (error) {
      this.log.length = len;
      if (error instanceof CoqCrash || (error instanceof CoqTimeout && error.killed) || !this.client.alive) throw error;
      await this.client.editAt(before, ROUND_TRIP_MS);
      return { ok: false, error };
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
      const outcome: StepOutcome = { goals: await this.render(this.current), script, checkpoint };
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
    // Refused text changes nothing (`refused`); otherwise GOAL discards an unfinished proof, even when
    // Coq then rejects the new goal. Finished proofs stay.
    const [g, theorem] = refusing(() => [guard('goal', goal), guardName(name)]);
    await this.discardOpenProof().catch((e: unknown) => {
      throw toProverError(e);
    });
    this.kinds.clear();
    this.items.push({ kind: 'proof', start: this.log.length, name: theorem, goal: g });
    return this.transaction(async () => {
      await this.run(`Theorem ${theorem} : (${g}).`, this.timeoutMs);
      return { script: [] };
    });
  }

  /**
   * DEFINE: the client's declarations, under the same notation guard as a client's prelude. Coq delimits
   * each sentence, the vernacular policy judges Coq's reading of it, and only then it runs
   * (coq-text-runner.ts); the script keeps exactly the text Coq ran.
   */
  async define(text: string): Promise<DefineOutcome> {
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
    // Notations are read when a sentence is added: the warning setting must have run before the client's sentences are.
    const on = await this.attempt([NOTATION_GUARD_ON], this.timeoutMs).catch(failed);
    if (!on.ok) await failed(on.error);
    const ran = await runCoqText(this.client, text, { purpose: 'define', timeoutMs: this.timeoutMs }).catch(failed);
    for (const sentence of ran) this.log.push({ sentence: sentence.text, stateId: sentence.stateId });
    const off = await this.attempt([NOTATION_GUARD_OFF], this.timeoutMs).catch(failed);
    if (!off.ok) await failed(off.error);
    this.items.push({ kind: 'define', start, end: this.log.length });
    const checkpoint = this.checkpointAt(this.log.at(-1) as LogEntry);
    const declared = await this.declaredBy(ran.map((r) => r.pp));
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

  /** What declarations added: the names their heads declare (and an inductive type's constructors), with types. */
  private async declaredBy(sentences: string[]): Promise<EnvironmentEntry[]> {
    const names = sentences.flatMap(declaredNames);
    const out: EnvironmentEntry[] = [];
    for (const n of names) {
      if (n.startsWith('"')) {
        out.push({ name: n, type: '', kind: 'Notation', module: 'document' });
        continue;
      }
      const about = parseAbout(this.answerText(await this.client.query(`About ${n}.`, this.client.tip, ROUND_TRIP_MS).catch(() => [])), n);
      if (!about) continue;
      out.push(entryOf(about));
      if (about.kind === 'Inductive') {
        const printed = this.answerText(await this.client.query(`Print ${n}.`, this.client.tip, ROUND_TRIP_MS).catch(() => []));
        for (const c of constructorsOf(printed)) out.push({ ...c, kind: 'Constructor', module: 'document' });
      }
    }
    return out;
  }

  /** Each notice of an answer (progress feedback such as "Fetching opaque proofs from disk" is info, not answer). */
  private answerTexts(ms: CoqMessage[]): string[] {
    return ms.filter((m) => m.level === 'notice').map((m) => m.text);
  }

  /** `Print name` at the tip with every detail shown (no notations, implicit arguments, return clauses). */
  private async printAll(name: string): Promise<string> {
    const tip = this.client.tip;
    try {
      await this.client.add('Set Printing All.', ROUND_TRIP_MS);
      return this.answerText(await this.client.query(`Print ${name}.`, this.client.tip, Math.max(this.timeoutMs, QED_MIN_MS)));
    } finally {
      await this.client.editAt(tip, ROUND_TRIP_MS);
    }
  }

  /** `Print Assumptions` on a throw-away definition that mentions every global of `fulls` (see closed-constants.ts). */
  private async assumptionsOfAll(fulls: readonly string[]): Promise<string | undefined> {
    if (!fulls.every(isQualid)) return undefined;
    const tip = this.client.tip;
    const limit = Math.max(this.timeoutMs, QED_MIN_MS);
    try {
      await this.client.add(`Definition arbor_joint_closure : unit := ${fulls.map((f) => `let _ := @${f} in `).join('')}tt.`, ROUND_TRIP_MS);
      return this.answerText(await this.client.query('Print Assumptions arbor_joint_closure.', this.client.tip, limit));
    } catch {
      return undefined;
    } finally {
      await this.client.editAt(tip, ROUND_TRIP_MS);
    }
  }

  private answerText(ms: CoqMessage[]): string {
    return ms.filter((m) => m.level === 'notice').map((m) => m.text).join('\n');
  }

  /** SEARCH, CHECK, ABOUT, PRINT, LOCATE at the current state (inside a proof, its hypotheses are in scope). */
  async query(q: QueryCommand): Promise<QueryAnswer> {
    const limit = Math.min(this.timeoutMs, 10_000);
    const ask = async (sentence: string): Promise<CoqMessage[]> => {
      try {
        return (await this.client.query(sentence, this.client.tip, limit + GRACE_MS)).filter((m) => m.level === 'notice');
      } catch (e) {
        throw toProverError(e);
      }
    };
    const ident = (n: string): string => {
      if (!/^"[^"\n]*"$/.test(n) && !/^[\p{L}_][\p{L}\p{N}_'.]*$/u.test(n)) throw new ProverError('parse', `parse error: bad name '${n}'`);
      return n;
    };
    switch (q.name) {
      case 'SEARCH': {
        const pattern = guard('pattern', q.pattern);
        const found = (await ask(`Timeout ${secs(limit)} Search (${pattern}).`)).map((m) => parseSearchResult(m.text)).filter((e): e is EnvironmentEntry => e !== undefined);
        const results = found.slice(0, SEARCH_LIMIT);
        for (const r of results) {
          const located = firstLocated(this.answerText(await ask(`Locate ${r.name}.`).catch(() => [])));
          if (located) {
            r.kind = located.kind;
            const module = moduleOf(located.fullName);
            if (module !== undefined) r.module = module;
          }
        }
        return { pattern: q.pattern, results, truncated: found.length > results.length };
      }
      case 'CHECK': {
        const term = guard('term', q.term);
        const answer = parseCheck(this.answerText(await ask(`Check (${term}).`)));
        if (!answer) throw new ProverError('prover', 'internal error: unreadable Check output');
        return answer;
      }
      case 'ABOUT': {
        const answer = parseAbout(this.answerText(await ask(`About ${ident(q.ident)}.`)), q.ident);
        if (!answer) throw new ProverError('prover', `${q.ident} not found`);
        return answer;
      }
      case 'PRINT':
        return parsePrint(this.answerText(await ask(`Print ${ident(q.ident)}.`)), q.ident);
      case 'LOCATE': {
        const answer = parseLocate(this.answerText(await ask(`Locate ${ident(q.ident)}.`)), q.ident);
        for (const r of answer.results) if (/^Top\./.test(r.name) && r.kind !== 'Notation') r.name = r.name.replace(/^Top\./, '');
        return answer;
      }
    }
  }

  async step(step: ProofStep): Promise<StepOutcome> {
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
        return this.transaction(async () => ({ script: [await this.crush(step.rules.map((r) => guard('rule', r)), this.timeoutMs)] }));
      case 'rule':
        return this.rule(guard('rule', step.rule));
      case 'unfold':
        return this.unfold(guard('rule', step.rule));
      case 'hammer':
        this.hardDeadline = Date.now() + step.timeoutMs;
        try {
          return await this.transaction(() => this.hammer(step.timeoutMs));
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

  /** CRUSH: arbor_crush, else (on timeout) the weak simplifier; `fail` when nothing changes. */
  private async crush(rules: string[], limitMs: number): Promise<string> {
    const rewrites = rules.map((r) => `try rewrite ${r} in *`).join('; ');
    const strong = rules.length === 0 ? 'arbor_crush' : `(intros; ${rewrites}; arbor_crush; try solve [eauto using ${rules.join(', ')}])`;
    const first = await this.attempt([`Timeout ${secs(limitMs)} (progress ${strong}).`], limitMs);
    if (first.ok) return `progress ${strong}.`;
    if (!isTimeout(first.error)) throw new ProverError('fail', 'fail');
    const weak = await this.attempt([`Timeout ${secs(limitMs)} (progress arbor_weak).`], limitMs);
    if (weak.ok) return 'progress arbor_weak.';
    throw isTimeout(weak.error) ? new ProverError('timeout', 'timeout') : new ProverError('fail', 'fail');
  }

  /** RULE: resolution (apply, eapply), then elimination on a hypothesis of the current goal. */
  private rule(r: string): Promise<StepOutcome> {
    return this.transaction(async () => {
      const hyps = (this.current[0]?.hyps ?? []).flatMap(splitHyp).map((h) => h.name).filter(isIdent);
      const variants = [`apply ${r}`, `eapply ${r}`, ...hyps.map((h) => `eapply ${r} in ${h}`)];
      let firstError: unknown;
      for (const v of variants) {
        const a = await this.attempt([`Timeout ${secs(this.timeoutMs)} (${v}).`], this.timeoutMs);
        if (a.ok) return { script: [`${v}.`] };
        firstError ??= a.error;
        if (/not found in the current environment/.test(toProverError(a.error).message)) break;
      }
      throw firstError;
    });
  }

  /** UNFOLD: `unfold` for definitions, `rewrite` for equations, `bad rule` otherwise. */
  private unfold(r: string): Promise<StepOutcome> {
    return this.transaction(async () => {
      const t = secs(this.timeoutMs);
      const u = await this.attempt([`Timeout ${t} (unfold ${r}).`], this.timeoutMs);
      if (u.ok) return { script: [`unfold ${r}.`] };
      const um = toProverError(u.error).message;
      if (/not found in the current environment/.test(um)) throw u.error;
      const w = await this.attempt([`Timeout ${t} (rewrite ${r}).`], this.timeoutMs);
      if (w.ok) return { script: [`rewrite ${r}.`] };
      const wm = toProverError(w.error).message;
      if (/Cannot find a relation to rewrite|setoid rewrite failed|not a rewriting relation|homogeneous relation/.test(wm))
        throw new ProverError('bad rule', 'bad rule: not an equation');
      throw w.error;
    });
  }

  /**
   * HAMMER (issue 13): refutation first; then the portfolio on the original goal, cheapest first
   * (decision procedures, rewriting, sauto), then induction on each candidate variable — each within its
   * slice of the budget; then CRUSH, and per subgoal it left quick closers and CoqHammer with the rest.
   */
  private async hammer(requestedMs: number): Promise<{ script: string[]; messages: string[]; report: HammerReport }> {
    const started = Date.now();
    // The user's budget is a wall-clock limit, loaded machine or not: every slice is cut from what is left.
    const budgetMs = requestedMs;
    const deadline = Math.min(started + budgetMs, this.hardDeadline ?? Infinity);
    const left = (): number => deadline - Date.now();
    const others = this.current.length - 1;
    const script: string[] = [];
    const messages: string[] = [];
    const stages: HammerStage[] = [];
    const discovered: DiscoveredLemma[] = [];
    const report = (): HammerReport => ({ stages, ms: Date.now() - started, ...(discovered.length > 0 ? { discovered } : {}) });
    try {
      const done = await this.hammerStages({ started, budgetMs, left, others, script, messages, stages, discovered, report });
      // Proved: what the step does after (Unshelve, reading the goals) is not the search, and not cut off.
      this.hardDeadline = undefined;
      return done;
    } catch (e) {
      // Stopped at the deadline in the middle of a stage: the answer still says what was tried.
      if (e instanceof ProverError && e.report === undefined && e.code === 'timeout') e.report = report();
      throw e;
    }
  }

  private async hammerStages(h: {
    started: number; budgetMs: number; left: () => number; others: number; script: string[]; messages: string[];
    stages: HammerStage[]; discovered: DiscoveredLemma[]; report: () => HammerReport;
  }): Promise<{ script: string[]; messages: string[]; report: HammerReport }> {
    const { started, budgetMs, left, others, script, messages, stages, discovered, report } = h;
    const refuted = await this.refuteFirst(stages, left);
    if (refuted) throw new ProverError('fail', `the goal is false: ${refuted} (a counterexample Coq checked)`, report());
    // The whole goal through the portfolio, then induction, within their shares of the budget.
    const whole = await this.wholeGoal(started + budgetMs * 0.45, stages);
    if (whole !== undefined) return { script: [`${whole}.`], messages, report: { ...report(), closedWith: whole } };
    const inducted = await this.byInduction(started + budgetMs * 0.7, stages);
    if (inducted !== undefined) return { script: [`${inducted}.`], messages, report: { ...report(), closedWith: inducted } };
    // Lemma discovery: its own slice (at most a quarter of the budget), never what CRUSH and CoqHammer need last.
    const withLemma = await this.discover(Math.min(started + budgetMs * 0.9, Date.now() + budgetMs * 0.25), stages, discovered);
    if (withLemma !== undefined) return { script: withLemma, messages, report: { ...report(), closedWith: withLemma.join(' ') } };
    const crushStart = Date.now();
    try {
      script.push(await this.crush([], Math.min(this.timeoutMs, Math.max(1000, budgetMs / 4), Math.max(0, left()))));
      stages.push({ stage: 'crush', ms: Date.now() - crushStart, outcome: this.current.length > others ? 'progress' : 'closed' });
    } catch (e) {
      if (!(e instanceof ProverError) || (e.code !== 'fail' && e.code !== 'timeout')) throw e;
      stages.push({ stage: 'crush', ms: Date.now() - crushStart, outcome: e.code === 'timeout' ? 'timeout' : 'failed' });
    }
    while (this.current.length > others) {
      if (left() <= 0) throw new ProverError('timeout', 'timeout', report());
      const tac = await this.closeFirst(left, messages, stages);
      if (tac === undefined) throw new ProverError(left() <= 0 ? 'timeout' : 'fail', left() <= 0 ? 'timeout' : 'fail', report());
      script.push(`${tac}.`);
    }
    return { script, messages, report: { ...report(), closedWith: script.join(' ') } };
  }

  /** The current goal as one closed statement (`forall (x : T), H -> goal`), for the counterexample search. */
  private async closedStatement(): Promise<string | undefined> {
    const raw = this.current[0];
    if (!raw) return undefined;
    // A let-bound name (`x := 5 : nat`) is not a free variable: generalising it could make a true goal look false.
    if (raw.hyps.flatMap((h) => this.splitCached(h)).some((h) => h.body !== undefined)) return undefined;
    const [goal] = await this.classify([raw]);
    if (!goal) return undefined;
    let text = `(${goal.goal})`;
    for (const e of [...goal.context].reverse()) text = e.kind === 'var' ? `forall (${e.name} : ${e.text}), ${text}` : `(${e.text}) -> ${text}`;
    return text;
  }

  /**
   * Refutation first: a false goal is reported with its instance before any budget goes to proving it.
   * The search runs in the document's environment (instance-refutation.ts): this coqidetop, at its tip,
   * proves the negation of the goal's closure at small values. The fidelity engine's search (the
   * supervisor's `refute`, which knows Z and real arithmetic but checks in an empty environment) runs only
   * when the document declares nothing of its own, so its `max` is the library's.
   */
  private async refuteFirst(stages: HammerStage[], left: () => number): Promise<string | undefined> {
    const t0 = Date.now();
    const own = await this.refuteHere(Math.min(5000, Math.max(1000, left() / 5), left())).catch((e: unknown) => {
      // The deadline, or a prover that died, ends the HAMMER; anything else only ends this search.
      if ((isTimeout(e) && left() <= 0) || e instanceof CoqCrash || (e instanceof CoqTimeout && e.killed) || !this.client.alive) throw e;
      return undefined;
    });
    if (own !== undefined) {
      // The detail is the instance alone: it is what Messages and the tools show as the counterexample.
      stages.push({ stage: 'refutation', ms: Date.now() - t0, outcome: 'refuted', detail: own });
      return own;
    }
    const declaresNothing = this.channelSentences.length === 0 && this.untrustedSentences.length === 0 && !this.items.some((i) => i.kind === 'define');
    if (!this.refute || !declaresNothing) {
      stages.push({ stage: 'refutation', ms: Date.now() - t0, outcome: 'failed', detail: 'no counterexample on small instances' });
      return undefined;
    }
    const statement = await this.closedStatement();
    if (statement === undefined) return undefined;
    const found = await this.refute(statement, Math.min(10_000, Math.max(2000, left() / 4), Math.max(0, left()))).catch(() => undefined);
    stages.push({ stage: 'refutation', ms: Date.now() - t0, outcome: found ? 'refuted' : 'failed', detail: found ? found.summary : 'no counterexample on small instances' });
    return found?.summary;
  }

  /** The in-session search: the instance (`n = 1`) when Coq proved the goal's closure false there. */
  private async refuteHere(limitMs: number): Promise<string | undefined> {
    const raw = this.current[0];
    // A let-bound name (`x := 5 : nat`) is not a free variable: generalising it could make a true goal look false.
    if (!raw || raw.hyps.flatMap((h) => this.splitCached(h)).some((h) => h.body !== undefined) || /\blet\b/.test(raw.goal)) return undefined;
    const shape = await this.afterIntros();
    if (!shape || shape.goal === '') return undefined;
    const context = shape.context.map((e) => ({ kind: e.kind === 'var' ? 'var' as const : 'hyp' as const, name: e.name, text: flat(e.text) }));
    const plan = refutationPlan(context, flat(shape.goal), await this.inductiveShapes(context.filter((e) => e.kind === 'var').map((e) => e.text)));
    if (plan === undefined || [plan.statement, plan.tactic].some((t) => fragmentProblem(t) !== undefined)) return undefined;
    const len = this.log.length;
    const saved = { current: this.current, shelved: this.shelved };
    const secsNow = Math.max(1, Math.floor(limitMs / 1000));
    const r = await this.attempt([`Timeout ${secsNow} (assert (~ (${plan.statement})) by (${plan.tactic})).`], secsNow * 1000);
    if (!r.ok) return undefined;
    // Only the answer stays: the document and its goals are as they were.
    await this.rewind(len);
    this.current = saved.current;
    this.shelved = saved.shelved;
    return refutingInstance(plan, r.messages.map((m) => m.text)) ?? 'an instance of small values (Coq proved the negation)';
  }

  /** The constructors of the document's inductive types among `types` (`Print`), for the counterexample search. */
  private async inductiveShapes(types: string[]): Promise<Map<string, ConstructorShape[]>> {
    const out = new Map<string, ConstructorShape[]>();
    const heads = new Set(types.flatMap((t) => t.match(/[\p{L}_][\p{L}\p{N}_'.]*/gu) ?? []));
    for (const head of heads) {
      if (/^(nat|bool|unit|Z|N|positive|list|option|prod|Type|Set|Prop|forall)$/.test(head) || !isIdent(head)) continue;
      const printed = (await this.client.query(`Print ${head}.`, this.client.tip, ROUND_TRIP_MS).catch(() => [])).map((m) => m.text).join('\n');
      if (!/^\s*(Inductive|Variant)\s/.test(printed)) continue;
      const ctors = constructorsOf(printed).map((c) => ({ name: c.name, parts: arrowParts(c.type) }));
      // Only a type of its own (no parameters, no dependent constructor types).
      if (ctors.length === 0 || ctors.some((c) => c.parts.at(-1) !== head || c.parts.some((p) => /^forall\b/.test(p)))) continue;
      out.set(head, ctors.map((c) => ({ name: c.name, args: c.parts.slice(0, -1) })));
    }
    return out;
  }

  /**
   * Each portfolio tactic on the whole goal, until one closes it or the stage's deadline passes; the
   * document's own finished theorems come first, as rewrites and as premises.
   */
  private async wholeGoal(until: number, stages: HammerStage[]): Promise<string | undefined> {
    const own = this.items.filter((i) => i.kind === 'proof' && i.end !== undefined && i.name !== undefined).map((i) => i.name as string).slice(-12);
    const first = own.length === 0 ? [] : [
      { stage: 'rewrite' as const, tactic: `solve [intros; simpl in *; rewrite ?${own.join(', ?')} in *; simpl in *; (lia || congruence || reflexivity || auto)]`, secs: 2 },
      { stage: 'sauto' as const, tactic: `solve [hauto use: ${own.join(', ')}]`, secs: 2 },
    ];
    // An existential or divisibility goal: witnesses from its variables, right after the decision procedures.
    const shape = await this.afterIntros();
    const witnesses = shape && wantsWitness(shape.goal) ? witnessTactics(shape.vars.filter((e) => e.text === 'nat').map((e) => e.name), shape.vars.map((e) => e.name), flat(shape.goal)) : [];
    return this.firstClosing([...WHOLE_GOAL_PORTFOLIO.filter((p) => p.stage === 'decision'), ...witnesses, ...first, ...WHOLE_GOAL_PORTFOLIO.filter((p) => p.stage !== 'decision')], until, stages);
  }

  /** The variables `intros` introduces (names and types) and the goal it leaves; the document and goals stay as they were. */
  private async afterIntros(): Promise<{ vars: ContextEntry[]; context: ContextEntry[]; goal: string } | undefined> {
    const before = new Set((this.current[0]?.hyps ?? []).flatMap(splitHyp).map((h) => h.name));
    const saved = { current: this.current, shelved: this.shelved };
    const len = this.log.length;
    const intro = await this.attempt(['intros.'], ROUND_TRIP_MS);
    if (!intro.ok) return undefined;
    const [goal] = await this.classify(this.current.slice(0, 1));
    await this.rewind(len);
    this.current = saved.current;
    this.shelved = saved.shelved;
    const context = goal?.context ?? [];
    return { vars: context.filter((e) => e.kind === 'var' && !before.has(e.name)), context, goal: goal?.goal ?? '' };
  }

  /**
   * Induction (see hammer-portfolio.ts): structural on each variable of an inductive type the goal
   * quantifies over — first, when the goal mentions one of the document's functions that recurses two steps
   * at a time, strong induction shaped like it; then nested induction on two variables.
   */
  private async byInduction(until: number, stages: HammerStage[]): Promise<string | undefined> {
    const shape = await this.afterIntros();
    if (shape === undefined) return undefined;
    const introduced = shape.vars;
    const candidates = introduced.filter((e) => !/->|^(Type|Set|Prop)\b/.test(e.text)).map((e) => e.name);
    if (candidates.length === 0) {
      stages.push({ stage: 'induction', ms: 0, outcome: 'skipped', detail: 'no variable of an inductive type to induct on' });
      return undefined;
    }
    const all = introduced.map((e) => e.name);
    const natVars = introduced.filter((e) => e.text === 'nat').map((e) => e.name);
    const deep = deepRecursors(this.declarationSentences()).filter((f) => new RegExp(`(^|[^\\w'.])${f}($|[^\\w'])`).test(this.current[0]?.goal ?? ''));
    // A goal about a function that recurses two steps at a time is inducted on the way it recurses first:
    // that is the likeliest proof, and under load the stage's window may hold only one or two attempts.
    const tactics = [
      ...(deep.length > 0 ? recursionInductionTactics(natVars, candidates, all, deep) : []),
      ...inductionTactics(candidates, all),
      ...(candidates.length >= 2 ? nestedInductionTactics(candidates, all) : []),
    ];
    return this.firstClosing(tactics.map((tactic) => ({ stage: 'induction' as const, tactic, secs: 3 })), until, stages);
  }

  /** The sentences of the preludes and of the document's DEFINEs: its functions, for induction and lemma discovery. */
  private declarationSentences(): string[] {
    const defined = this.items.filter((i) => i.kind === 'define').flatMap((i) => this.log.slice(i.start, i.end).map((e) => e.sentence));
    return [...this.channelSentences, ...this.untrustedSentences, ...defined];
  }

  /**
   * Lemma discovery (see lemma-discovery.ts): each conjecture about the document's functions the goal
   * mentions is first refuted on small instances (Coq proves its negation: cheap, and a false lemma is never
   * used), else asserted and proved by its own induction tactics, and the goal retried with it. Returns the
   * script (`assert (L : …) by (…).` and the closing tactic) when one closed the goal. Every proved lemma goes
   * into `found`, used or not, so it can be offered as a `HAVE`.
   */
  private async discover(until: number, stages: HammerStage[], found: DiscoveredLemma[]): Promise<string[] | undefined> {
    const fns = this.declarationSentences().flatMap(fixpointSignatures);
    if (fns.length === 0) return undefined;
    const len = this.log.length;
    const goal = await this.afterIntros();
    if (!goal || goal.goal === '') return undefined;
    const view = { vars: goal.context.filter((e) => e.kind === 'var').map((e) => ({ name: e.name, type: e.text })), goal: goal.goal };
    // Built from printed goals and declarations: each piece must still be one sentence fragment (the injection guard).
    const candidates = conjectures(view, fns, new Set(goal.context.map((e) => e.name)))
      .filter((c) => [c.statement, ...c.proofs, ...c.closers].every((t) => fragmentProblem(t) === undefined));
    if (candidates.length === 0) {
      stages.push({ stage: 'discovery', ms: 0, outcome: 'skipped', detail: 'no conjecture about the document\'s functions fits this goal' });
      return undefined;
    }
    const firstLine = (e: unknown): string => toProverError(e).message.split('\n')[0]?.slice(0, 160) ?? '';
    for (const c of candidates) {
      const tactic = `assert (${c.name} : ${c.statement})`;
      if (until - Date.now() < 1000) {
        stages.push({ stage: 'discovery', tactic, ms: 0, outcome: 'skipped', detail: 'its share of the budget is spent' });
        continue;
      }
      const t0 = Date.now();
      const refutation = refutationTactic(c);
      if (refutation !== undefined) {
        const r = await this.attempt([`Timeout 2 (assert (~ (${c.statement})) by (${refutation})).`], 2000);
        if (r.ok) {
          await this.rewind(len);
          stages.push({ stage: 'discovery', tactic, ms: Date.now() - t0, outcome: 'refuted', detail: 'false on a small instance (Coq proved its negation): not used' });
          continue;
        }
      }
      const asserted = await this.attempt([`${tactic}.`], ROUND_TRIP_MS);
      if (!asserted.ok) {
        stages.push({ stage: 'discovery', tactic, ms: Date.now() - t0, outcome: 'failed', detail: `not a statement Coq accepts: ${firstLine(asserted.error)}` });
        continue;
      }
      // The conjecture's own induction first, then HAMMER's induction stage on it (each variable, the others generalised or not).
      const inductive = c.binders.filter((b) => /^(nat|list-)/.test(b.sort)).map((b) => b.name);
      const proofs = [...c.proofs, ...inductionTactics(inductive, c.binders.map((b) => b.name))];
      const proof = await this.firstClosing(proofs.map((p) => ({ stage: 'discovery' as const, tactic: p, secs: 2 })), until, []);
      if (proof === undefined) {
        await this.rewind(len);
        stages.push({ stage: 'discovery', tactic, ms: Date.now() - t0, outcome: Date.now() >= until ? 'timeout' : 'failed', detail: 'not proved' });
        continue;
      }
      // The goal again, the lemma now a hypothesis: a few more seconds than the slice if need be (it is proved).
      const closer = await this.firstClosing(c.closers.map((p) => ({ stage: 'discovery' as const, tactic: p, secs: 2 })), Math.max(until, Date.now() + 3000), []);
      found.push({ name: c.name, statement: c.statement, proof, used: closer !== undefined });
      if (closer !== undefined) {
        stages.push({ stage: 'discovery', tactic, ms: Date.now() - t0, outcome: 'closed', detail: `proved by ${proof}; the goal closed with it by ${closer}` });
        return [`${tactic} by (${proof}).`, `${closer}.`];
      }
      await this.rewind(len);
      stages.push({ stage: 'discovery', tactic, ms: Date.now() - t0, outcome: 'progress', detail: `proved by ${proof}, but the goal did not close with it` });
    }
    return undefined;
  }

  private async firstClosing(tactics: { stage: HammerStage['stage']; tactic: string; secs: number }[], until: number, stages: HammerStage[]): Promise<string | undefined> {
    const count = this.current.length;
    const end = Math.min(until, this.hardDeadline ?? Infinity);
    for (const t of tactics) {
      const secsNow = Math.min(t.secs, Math.floor((end - Date.now()) / 1000));
      if (secsNow < 1) {
        stages.push({ stage: t.stage, tactic: t.tactic, ms: 0, outcome: 'skipped', detail: 'its share of the budget is spent' });
        continue;
      }
      const t0 = Date.now();
      const a = await this.attempt([`Timeout ${secsNow} (${t.tactic}).`], secsNow * 1000);
      const closed = a.ok && this.current.length < count;
      stages.push({ stage: t.stage, tactic: t.tactic, ms: Date.now() - t0, outcome: closed ? 'closed' : !a.ok && isTimeout(a.error) ? 'timeout' : 'failed' });
      if (closed) return t.tactic;
      if (a.ok) await this.rewind(this.log.length - 1);
    }
    return undefined;
  }

  /** Closes the first goal; returns the tactic that did it as it goes into the script. Records each stage. */
  private async closeFirst(left: () => number, messages: string[], stages: HammerStage[]): Promise<string | undefined> {
    const count = this.current.length;
    const firstLine = (e: unknown): string => toProverError(e).message.split('\n')[0]?.slice(0, 160) ?? '';
    for (const q of QUICK) {
      if (left() < q.secs * 1000) {
        stages.push({ stage: 'quick', tactic: q.tac, ms: 0, outcome: 'skipped', detail: 'budget spent' });
        break;
      }
      const t0 = Date.now();
      const a = await this.attempt([`Timeout ${q.secs} (${q.tac}).`], q.secs * 1000);
      const closed = a.ok && this.current.length < count;
      stages.push({ stage: 'quick', tactic: q.tac, ms: Date.now() - t0, outcome: closed ? 'closed' : !a.ok && isTimeout(a.error) ? 'timeout' : 'failed', ...(!a.ok ? { detail: firstLine(a.error) } : {}) });
      if (closed) return q.tac;
    }
    if (!this.hammerPlugin) {
      stages.push({ stage: 'coqhammer', ms: 0, outcome: 'skipped', detail: 'CoqHammer is not installed' });
      return undefined;
    }
    const len = this.log.length;
    const clamp = (x: number, lo: number, hi: number): number => Math.max(lo, Math.min(hi, Math.floor(x)));
    // CoqHammer gives up when its ATPs or its reconstruction run past their own limits, which happens on
    // a loaded machine (e.g. two channels hammering on two cores). While the budget lasts, try again with
    // limits twice as long.
    let h: Awaited<ReturnType<CoqSession['attempt']>> | undefined;
    if (left() < 2000) stages.push({ stage: 'coqhammer', ms: 0, outcome: 'skipped', detail: 'budget spent' });
    for (let scale = 1; scale <= 4 && left() >= 2000; scale *= 2) {
      const total = secs(left()) - 1;
      const started = Date.now();
      h = await this.attempt(
        [
          // 4 strategies instead of CoqHammer's 8: on two cores 8 ATP processes mostly wait for each other.
          'Set Hammer GSMode 4.',
          `Set Hammer ATPLimit ${clamp(total / 3, 2, 10 * scale)}.`,
          `Set Hammer ReconstrLimit ${clamp(total / 6, 1, 5 * scale)}.`,
          `Timeout ${total} hammer.`,
        ],
        total * 1000,
      );
      stages.push({ stage: 'coqhammer', ms: Date.now() - started, outcome: h.ok ? 'closed' : isTimeout(h.error) || /Timeout/.test(firstLine(h.error)) ? 'timeout' : 'failed', ...(!h.ok ? { detail: firstLine(h.error) } : { detail: `ATP limit ${clamp(total / 3, 2, 10 * scale)} s` }) });
      // A quick failure is not a time limit (e.g. a goal outside the ATPs' logic): longer limits won't help.
      if (h.ok || Date.now() - started < 1000) break;
    }
    // The hammer's own run never stays in the document: only its checked reconstruction does.
    if (!h?.ok) return undefined;
    const texts = h.messages.map((m) => m.text);
    messages.push(...texts.filter((m) => /succeeded|dependencies|Replace the hammer/.test(m)).map(flat));
    await this.rewind(len);
    const found = reconstructionFrom(texts);
    if (found === undefined) {
      stages.push({ stage: 'reconstruction', ms: 0, outcome: 'failed', detail: 'CoqHammer printed no reconstruction' });
      return undefined;
    }
    for (const v of reconstructionVariants(found)) {
      if (left() < 1000) {
        stages.push({ stage: 'reconstruction', tactic: v, ms: 0, outcome: 'skipped', detail: 'budget spent' });
        break;
      }
      const t0 = Date.now();
      const a = await this.attempt([`Timeout ${Math.floor(left() / 1000)} (${v}).`], left());
      const closed = a.ok && this.current.length < count;
      stages.push({ stage: 'reconstruction', tactic: v, ms: Date.now() - t0, outcome: closed ? 'closed' : 'failed', ...(!a.ok ? { detail: firstLine(a.error) } : {}) });
      if (closed) return v;
      if (a.ok) await this.rewind(len);
    }
    return undefined;
  }

  /**
   * `Qed` in the session: the kernel re-checks the whole proof (shelved, given-up or unresolved goals
   * make it refuse), then `Print Assumptions` must show only what the user trusts. Anything else leaves
   * the session as it was before and throws (`fail` for a refused Qed, `unsound` for assumptions).
   */
  async finish(): Promise<FinishedProof> {
    const proof = this.openProof();
    if (!proof) throw new ProverError('prover', 'no goal');
    const len = this.log.length;
    const limit = Math.max(this.timeoutMs, QED_MIN_MS);
    try {
      const closed = await this.attempt(['Qed.'], limit);
      if (!closed.ok) {
        const why = toProverError(closed.error);
        if (why.code === 'timeout') throw why;
        throw new ProverError('fail', `Coq's kernel did not accept the proof: ${why.message}`);
      }
      // `Print Assumptions`, each global's closure walked once per session (closed-constants.ts); each candidate
      // is resolved with `Locate Term`, whose answer holds kinds and kernel paths only (see assumptions.ts).
      const verdict = await this.closedConstants.judge(proof.name ?? 'arbor_goal', this.trustedAssumptions);
      if (!verdict.ok) throw new ProverError('unsound', verdict.reason);
      const statement = await this.meaning(proof.name ?? 'arbor_goal', proof.goal ?? '');
      proof.end = this.log.length;
      const checkpoint = this.checkpointAt(this.log.at(-1) as LogEntry);
      return { assumptions: verdict.assumptions, checkpoint, ...(statement ? { statement } : {}) };
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

  /**
   * What the finished theorem means (issue 21): its type as Coq elaborated it (`Set Printing All`, names
   * resolved to kernel names), against the same text read in the clean environment. Undefined when they are
   * the same term. A reading that cannot be made is shown as such, never silently dropped: nobody may be
   * shown a statement as plainly proved when its meaning was not checked.
   */
  private async meaning(name: string, goalText: string): Promise<StatementMeaning | undefined> {
    const tip = this.client.tip;
    let printed: string | undefined;
    try {
      await this.client.add('Set Printing All.', ROUND_TRIP_MS);
      await this.client.goals(ROUND_TRIP_MS);
      printed = typeFromCheck(this.answerText(await this.client.query(`Check ${name}.`, this.client.tip, ROUND_TRIP_MS)));
    } catch {
      printed = undefined;
    } finally {
      await this.client.editAt(tip, ROUND_TRIP_MS);
    }
    if (printed === undefined) return { elaborated: goalText, clean: null, differences: ['the elaborated statement could not be read back from Coq: its meaning was not checked'] };
    const doc = await readTerm(this.client, printed, tip);
    const clean = await cleanReading(goalText, this.clientOptions).catch((e: unknown) => ({ error: `the clean environment is unavailable (${(e as Error).message})` }));
    if ('error' in clean) {
      // No clean reading to compare with: still say what the document's names would mean there.
      const full = await cleanEnvironment.names([...doc.full.keys()].filter(isQualid), this.clientOptions).catch(() => undefined);
      const own = [...doc.full].filter(([, f]) => !/^(Coq|Hammer)\./.test(f)).map(([shown]) => shown);
      const referring = await cleanEnvironment.referring(own, this.clientOptions).catch(() => undefined);
      // Arbor's own guard sentences around a client's declarations change nothing a term means.
      const declared = this.declarationSentences().filter((d) => d !== NOTATION_GUARD_ON && d !== NOTATION_GUARD_OFF);
      if (referring !== undefined && onlyNewWords(own, referring, clean.error, declared)) return undefined;
      return compareReadings(doc, full ? { ...clean, full } : clean);
    }
    return compareReadings(doc, clean);
  }

  /** Marks the log entry as a step's end; small goal lists are kept so REVERT costs one `Edit_at`. */
  private checkpointAt(entry: LogEntry): CoqCheckpoint {
    entry.token = {};
    if (this.current.length <= SNAPSHOT_GOALS) entry.goals = { goals: this.current, shelved: this.shelved };
    else delete entry.goals;
    return { token: entry.token };
  }

  async restore(checkpoint: Checkpoint): Promise<void> {
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
    try {
      const r = await this.client.goals();
      this.current = r.goals ?? [];
      this.shelved = r.shelved;
      this.stale = false;
      return await this.render(this.current);
    } catch (e) {
      if (e instanceof CoqCrash) await this.restart(this.log.length).catch(() => undefined);
      throw toProverError(e);
    }
  }

  async setPrintMode(mode: PrintMode): Promise<void> {
    this.mode = mode;
  }

  // ---- goals as Arbor wants them ----

  private async render(goals: RawGoal[]): Promise<OpenGoal[]> {
    const open = await this.classify(goals);
    return this.mode === 2 ? this.asSexp(open) : open;
  }

  /** var/hyp for every entry: by shape, from the per-proof cache, else one `Check` for all new types. */
  private async classify(goals: RawGoal[]): Promise<OpenGoal[]> {
    const split = goals.map((g) => ({ g, entries: g.hyps.flatMap((h) => this.splitCached(h)) }));
    const unknown = [...new Set((split[0]?.entries ?? []).map((e) => e.type).filter((t) => !this.kinds.has(t) && !looksLikeProp(t)))];
    if (unknown.length > 0) {
      let kinds: EntryKind[] | undefined;
      try {
        const out = await this.client.query(sortQuery(unknown));
        kinds = kindsFromCheck(out.map((m) => m.text).join('\n'), unknown.length);
      } catch (e) {
        if (!(e instanceof CoqFailure)) throw e;
      }
      // null: Coq could not tell (remembered too, so a strange type costs one query, not one per step).
      unknown.forEach((t, i) => this.kinds.set(t, kinds?.[i] ?? null));
    }
    return split.map(({ g, entries }) => ({
      goal: g.goal,
      context: entries.map((e): ContextEntry => ({ kind: this.kindOf(e.name, e.type), name: e.name, text: e.type })),
    }));
  }

  private kindOf(name: string, type: string): EntryKind {
    const k = this.kinds.get(type);
    if (k) return k;
    if (k === undefined && looksLikeProp(type)) {
      this.kinds.set(type, 'hyp');
      return 'hyp';
    }
    return guessKind(name, type);
  }

  /** Hypothesis lines repeat from step to step; split each text once. */
  private splitCached(hyp: string): SplitHyp[] {
    let hit = this.splits.get(hyp);
    if (!hit) {
      if (this.splits.size > 10_000) this.splits.clear();
      hit = splitHyp(hyp);
      this.splits.set(hyp, hit);
    }
    return hit;
  }

  /** Print mode 2: the same goals printed under `Set Printing All`, then converted to s-expressions. */
  private async asSexp(open: OpenGoal[]): Promise<OpenGoal[]> {
    if (open.length === 0) return open;
    const tip = this.client.tip;
    await this.client.add('Set Printing All.');
    let all: RawGoal[];
    try {
      all = (await this.client.goals()).goals ?? [];
    } finally {
      await this.client.editAt(tip);
    }
    const parsed = all.map((g) => {
      const entries = g.hyps.flatMap(splitHyp);
      const locals = new Set(entries.map((e) => e.name));
      const terms = [g.goal, ...entries.map((e) => e.type)].map((t) => {
        try {
          return parseCoqTerm(t);
        } catch {
          return undefined;
        }
      });
      return { g, entries, locals, terms };
    });
    const wanted = new Set<string>();
    for (const p of parsed) for (const t of p.terms) if (t) for (const n of globalNames(t, p.locals)) if (!this.fullNames.has(n)) wanted.add(n);
    for (const n of wanted) {
      const out = await this.client.query(`Locate ${n}.`).catch(() => []);
      const line = out.flatMap((m) => m.text.split('\n')).find((l) => LOCATE_KINDS.test(l));
      this.fullNames.set(n, LOCATE_KINDS.exec(line ?? '')?.[1] ?? n);
    }
    const resolve = (n: string): string => this.fullNames.get(n) ?? n;
    return open.map((o, i) => {
      const p = parsed[i];
      if (!p) return o;
      const show = (j: number, fallback: string): string => {
        const t = p.terms[j];
        return t ? toSexp(t, p.locals, resolve) : fallback;
      };
      return {
        goal: show(0, p.g.goal),
        context: o.context.map((e, j) => ({ ...e, text: show(j + 1, p.entries[j]?.type ?? e.text) })),
      };
    });
  }

  renderScript(goal: string, steps: string[][], openGoals: number): string {
    return this.renderDocument([{ kind: 'proof', name: 'arbor_goal', goal, steps, openGoals }]);
  }

  renderDocument(items: ScriptItem[]): string {
    // Exactly the preludes' sentences that ran (Coq delimited them; a client's were judged): never their raw text.
    const untrusted = this.untrustedSentences.length === 0 ? [] : [NOTATION_GUARD_ON, ...this.untrustedSentences, NOTATION_GUARD_OFF];
    const preludes = [...this.channelSentences, ...untrusted];
    const channel = preludes.length === 0 ? [] : ['(* channel prelude *)', ...preludes, ''];
    const body = items.flatMap((item) => {
      if (item.kind === 'define') return [...item.script, ''];
      const end = item.openGoals > 0 ? [`  (* ${item.openGoals} open goal${item.openGoals === 1 ? '' : 's'} *)`, 'Admitted.'] : ['Qed.'];
      return [`Theorem ${item.name} : (${item.goal}).`, 'Proof.', ...item.steps.flat().map((s) => `  ${s}`), ...end, ''];
    });
    return [arborPrelude().trimEnd(), '', ...channel, ...body].join('\n').replace(/\n+$/, '\n');
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

/** OBTAIN: an existential assert, destructed in the second goal so the witnesses and conditions are named. */
export const obtainTactic = (step: Extract<ProofStep, { kind: 'obtain' }>): string => {
  const vars = step.vars.map(guardName);
  const conds = step.conds.map((c) => ({ name: guardName(c.name), expr: guard('term', c.expr) }));
  const name = guardName(step.name);
  const body = conds.length === 0 ? 'True' : conds.map((c) => `(${c.expr})`).join(' /\\ ');
  const type = step.type === undefined ? undefined : guard('type', step.type);
  const binder = vars.length === 0 ? '' : type === undefined ? `exists ${vars.join(' ')}, ` : `exists (${vars.join(' ')} : ${type}), `;
  const pattern = [...vars, ...conds.map((c) => c.name)];
  if (pattern.length === 1 && vars.length === 0) return `assert (${pattern[0] ?? name} : ${body})`;
  const destruct = pattern.length === 0 ? `clear ${name}` : `destruct ${name} as ${pattern.length === 1 ? `[${pattern[0] ?? ''} _]` : `(${pattern.join(' & ')})`}`;
  return `assert (${name} : ${binder}${body}); [| ${destruct}]`;
};

/** The names a declaration's head declares (`Definition x`, `Inductive t … with u`, `Notation "…"`), from the one sentence reader. */
export const declaredNames = (sentence: string): string[] => {
  const text = sentence.replace(/^\s*(#\[[^\]]*\]\s*)*/, '').replace(/^(Local|Global|Polymorphic|Monomorphic|Program|Private|Cumulative|NonCumulative)\s+/g, '');
  const notation = /^(?:Notation|Infix|Reserved Notation)\s+("[^"]*")/.exec(text);
  if (notation) return [notation[1] as string];
  const head = /^(Definition|Fixpoint|CoFixpoint|Function|Inductive|CoInductive|Variant|Record|Structure|Class|Instance|Lemma|Theorem|Corollary|Fact|Remark|Example|Let|Abbreviation)\s+([\p{L}_][\p{L}\p{N}_']*)/u.exec(text);
  if (!head) return [];
  const names = [head[2] as string];
  if (/^(Fixpoint|CoFixpoint|Inductive|CoInductive)$/.test(head[1] as string)) {
    for (const m of text.matchAll(/\swith\s+([\p{L}_][\p{L}\p{N}_']*)/gu)) names.push(m[1] as string);
  }
  return names;
};

/** `Inductive tree : Set :=  Leaf : tree | Node : tree -> nat -> tree -> tree.` → its constructors and their types. */
export const constructorsOf = (printed: string): EnvironmentEntry[] => {
  const m = /:=\s*([\s\S]*?)\.?\s*(?:\n\s*\n|$)/.exec(printed);
  if (!m) return [];
  return (m[1] as string).split(/\s\|\s/).map((c) => /^\s*([\p{L}_][\p{L}\p{N}_']*)\s*:\s*([\s\S]*)$/u.exec(c))
    .filter((c): c is RegExpExecArray => c !== null).map((c) => ({ name: c[1] as string, type: flat(c[2] as string) }));
};

const entryOf = (a: ReturnType<typeof parseAbout> & object): EnvironmentEntry => {
  const e: EnvironmentEntry = { name: a.name, type: a.type };
  if (a.module !== undefined) e.module = a.module;
  if (a.kind !== undefined) e.kind = a.kind;
  return e;
};

/** Declarations that change how a term is read (notations, scopes, coercions, implicit arguments, instances, imports). */
const READS_DIFFERENTLY = /^(Notation|Infix|Reserved|Open|Close|Bind|Delimit|Declare|Coercion|Canonical|Arguments|Instance|Existing|Class|Hint|Set|Unset|Require|From|Import|Export|Include|Typeclasses|Generalizable|Implicit)\b/;

/**
 * A statement that does not elaborate in a clean environment only because it uses the document's own new
 * words (`double`, defined by the document and naming nothing in the library) means what it says: the
 * comparison has nothing else to find when the document changed no notation, scope, coercion, implicit
 * argument, instance or import, no name of its shadows a library one and none looks like another (non-ASCII).
 */
function onlyNewWords(own: readonly string[], referring: ReadonlySet<string>, error: string, declarations: readonly string[]): boolean {
  if (!/was not found in the current environment/.test(error) || own.length === 0) return false;
  if (own.some((shown) => referring.has(shown) || [...shown].some((c) => c.charCodeAt(0) > 127))) return false;
  const head = (sentence: string): string => sentence.replace(/^\s*(#\[[^\]]*\]\s*)*/, '').replace(/^((Local|Global|Polymorphic|Monomorphic|Program|Private|Cumulative|NonCumulative)\s+)+/, '');
  return !declarations.some((d) => READS_DIFFERENTLY.test(head(d)) || /:>/.test(d));
}
