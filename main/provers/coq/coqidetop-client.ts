import { startProcess, type ManagedProcess } from '../../process/process-manager.ts';
import { descendants, listProcesses, type ProcInfo } from '../../process/process-tree.ts';
import type { SandboxOptions } from '../../process/sandbox.ts';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import { XmlStream, type XmlElement } from './xml-tree.ts';
import type { AnnotateAnswer } from './coq-sentence.ts';
import { coqFlat } from '../../../shared/protocol/coq-lexical.ts';
import {
  aboutCall,
  addCall,
  annotateCall,
  decodeAbout,
  decodeAdd,
  decodeAnnotate,
  decodeAnnotateHead,
  decodeEditAt,
  decodeFailure,
  decodeGoals,
  decodeStateId,
  editAtCall,
  feedbackMessage,
  goalCall,
  initCall,
  queryCall,
  quitCall,
  type CoqMessage,
  type RawGoal,
} from './xml-protocol.ts';

/** CoqHammer's helper programs (`htimeout`, `predict`) live here on Debian; the child needs them on PATH. */
export const HAMMER_LIBEXEC = '/usr/libexec/coq-hammer';

/** First of `names` found executable on PATH. */
export const findOnPath = (names: string[], path = process.env.PATH ?? ''): string | undefined => {
  for (const name of names) {
    for (const dir of path.split(delimiter)) {
      if (!dir) continue;
      const full = join(dir, name);
      try {
        accessSync(full, constants.X_OK);
        return full;
      } catch {
        // not here
      }
    }
  }
  return undefined;
};

export const resolveCoqidetop = (): string | undefined => findOnPath(['coqidetop.opt', 'coqidetop']);

/** Coq answered `fail` (a parse or tactic error). */
export class CoqFailure extends Error {
  constructor(
    message: string,
    readonly stateId: number | undefined,
    readonly messages: CoqMessage[],
    /** Where Coq's error ends in the text it was given, in bytes (Annotate's parse errors), when it says. */
    readonly locEnd?: number,
  ) {
    super(message);
    this.name = 'CoqFailure';
  }
}

/** The process died, or answered nothing usable; the client is dead. */
export class CoqCrash extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CoqCrash';
  }
}

/** A call ran past its limit. `killed`: SIGINT did not help and the process was killed. */
export class CoqTimeout extends Error {
  constructor(readonly killed: boolean) {
    super('timeout');
    this.name = 'CoqTimeout';
  }
}

export interface CallResult {
  value: XmlElement;
  messages: CoqMessage[];
}

interface Pending {
  resolve: (r: CallResult) => void;
  reject: (e: Error) => void;
  messages: CoqMessage[];
}

export interface ClientOptions {
  binary?: string;
  /** After SIGINT, how long to wait for the interrupted answer before killing. */
  interruptGraceMs?: number;
  /** Limit for calls that do not give their own (a wedged process must never wedge the caller). */
  defaultTimeoutMs?: number;
  /** Address-space cap of the coqidetop process, in MB (see process-manager). */
  memoryLimitMb?: number;
  /** Host paths beyond the system it may read (a user's load path). `false` only for the sandbox benchmark's baseline. */
  sandbox?: SandboxOptions | false;
  /** Arguments after Arbor's own (a trusted project's load paths: `-Q dir Lib`, `-R dir Lib`, `-w …`). */
  extraArgs?: readonly string[];
}

/** A call waiting for its turn's joint exchange; a joint query's text is known only when the turn ends. */
interface JoinedCall {
  xml: string | (() => string);
  timeoutMs: number;
  resolve: (r: CallResult) => void;
  reject: (e: unknown) => void;
}

/** One query inside a joint one (`queryCommandsJoined`). */
interface JointMember {
  text: string;
  commands: number;
  timeoutMs: number;
  resolve: (m: CoqMessage[]) => void;
  reject: (e: unknown) => void;
}

/**
 * One coqidetop process over its XML protocol. Calls are serialised (one operation at a time; a `batch`
 * pipelines its calls, which coqidetop answers in order); feedback messages belong to the oldest
 * unanswered call. `tip` tracks the document's tip so
 * `add` always extends it (Coq 8.16 rejects adds on any other state).
 */
export class CoqideTopClient {
  tip = 0;
  /** The newest state id coqidetop gave (ids are fresh and increasing): what the next Add is expected to get. */
  private newest = 0;
  /** Whether `newest` is surely the newest id (false after a pipelined exchange failed: ids may have been used). */
  private newestKnown = true;
  private readonly proc: ManagedProcess;
  private readonly xml: XmlStream;
  /** Calls written and not yet answered, in order (more than one only inside a `batch`). */
  private readonly pending: Pending[] = [];
  private queue: Promise<unknown> = Promise.resolve();
  private deadReason: string | undefined;
  private readonly grace: number;
  private readonly defaultTimeout: number;
  readonly exited: Promise<void>;

  private constructor(binary: string, options: ClientOptions) {
    this.grace = options.interruptGraceMs ?? 1500;
    this.defaultTimeout = options.defaultTimeoutMs ?? 60_000;
    const env = { ...process.env, PATH: `${HAMMER_LIBEXEC}${delimiter}${process.env.PATH ?? ''}` };
    // Sandboxed: untrusted sentences reach it, and CoqHammer runs shell commands (its ATPs, PredictPath).
    this.proc = startProcess({
      program: binary,
      // No native compiler: Coq 8.16.1's evaluates a primitive float under a binder wrongly (coq/coq#17871), and the
      // kernel's native conversion with it, so `native_compute` could prove False; without it, Coq falls back to the VM.
      args: ['-main-channel', 'stdfds', '-async-proofs', 'off', '-w', '-deprecated-native-compiler-option', '-native-compiler', 'no', ...(options.extraArgs ?? [])],
      env,
      sandbox: options.sandbox ?? {},
      ...(options.memoryLimitMb !== undefined ? { memoryLimitMb: options.memoryLimitMb } : {}),
    });
    this.proc.stdout.setEncoding('utf8');
    this.proc.stderr.resume(); // ATP noise ("vampire: not found") must not fill the pipe
    this.xml = new XmlStream((e) => this.onElement(e));
    this.proc.stdout.on('data', (chunk: string) => {
      try {
        this.xml.write(chunk);
      } catch (e) {
        this.die(`malformed output: ${(e as Error).message}`);
        this.proc.kill();
      }
    });
    this.proc.stdin.on('error', () => undefined); // EPIPE after death is reported via 'exit'
    this.exited = new Promise((resolve) => {
      void this.proc.exited.then(({ code, signal }) => {
        this.die(`coqidetop exited (${signal ?? code})`);
        resolve();
      });
      this.proc.child.on('error', (e) => {
        this.die(`coqidetop: ${e.message}`);
        resolve();
      });
    });
  }

  /** Spawn and `Init`. */
  static async start(options: ClientOptions = {}): Promise<CoqideTopClient> {
    const binary = options.binary ?? resolveCoqidetop();
    if (!binary) throw new CoqCrash('coqidetop not found on PATH');
    const c = new CoqideTopClient(binary, options);
    const r = await c.call(initCall());
    c.tip = decodeStateId(r.value.children.find((x) => typeof x === 'object') as XmlElement);
    c.newest = c.tip;
    return c;
  }

  get pid(): number | undefined {
    return this.proc.pid;
  }

  /** The pid of coqidetop itself (below the sandbox, when there is one), for what measures it; undefined once gone. */
  get proverPid(): number | undefined {
    return this.mainProcess(listProcesses())?.pid;
  }

  /** coqidetop itself in the process group started for it: not the sandbox, not a copy CoqHammer forked. */
  private mainProcess(all: readonly ProcInfo[]): ProcInfo | undefined {
    const isTop = (p: { name: string }): boolean => /^coqidetop/.test(p.name);
    const group = all.filter((q) => q.pgid === this.proc.pid);
    return group.find((q) => isTop(q) && !group.some((r) => r.pid === q.ppid && isTop(r)));
  }

  get alive(): boolean {
    return this.deadReason === undefined;
  }

  private die(reason: string): void {
    this.deadReason ??= reason;
    for (const p of this.pending.splice(0)) p.reject(new CoqCrash(this.deadReason));
  }

  private onElement(e: XmlElement): void {
    const p = this.pending[0];
    if (e.tag === 'feedback') {
      const m = feedbackMessage(e);
      if (m && p) p.messages.push(m);
      return;
    }
    if (e.tag !== 'value' || !p) return;
    this.pending.shift();
    if (e.attrs.val === 'good') p.resolve({ value: e, messages: p.messages });
    else {
      const f = decodeFailure(e);
      p.reject(new CoqFailure(f.message, f.stateId, p.messages, f.locEnd));
    }
  }

  /**
   * SIGINT to coqidetop alone; what it forked (CoqHammer's ATPs and its forked copies of coqidetop) is killed.
   * A forked copy that gets SIGINT unwinds into coqidetop's own loop, answers on the shared stdout and reads
   * the next calls: its stray answers and the calls it took left the log and Coq's tip apart (`Stm.add called
   * for a different state`, `Stm.Vcs_aux.Expired`).
   */
  private interrupt(): void {
    const all = listProcesses();
    const main = this.mainProcess(all);
    if (main === undefined) {
      this.proc.signal('SIGINT');
      return;
    }
    for (const d of descendants(main.pid, all)) {
      try {
        process.kill(d.pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }
    try {
      process.kill(main.pid, 'SIGINT');
    } catch {
      // Already gone: the pending answers fail with the exit.
    }
  }

  /** Send one call; past `timeoutMs`, interrupt (SIGINT), then kill when that does not help. */
  async call(xml: string, timeoutMs = this.defaultTimeout): Promise<CallResult> {
    const [r] = await this.batch([xml], timeoutMs);
    return r as CallResult;
  }

  /**
   * Send calls back to back and wait for all their answers: coqidetop reads and answers them strictly in
   * order, so pipelining e.g. Add+Goal saves a round trip per step. The batch holds the client's lock, so
   * callers still see one operation at a time. Rejects with the first failure, after every answer is in.
   */
  async batch(xmls: string[], timeoutMs = this.defaultTimeout, signal?: AbortSignal): Promise<CallResult[]> {
    const settled = await this.batchSettled(xmls, timeoutMs, { signal });
    const failed = settled.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed) throw failed.reason;
    return settled.map((r) => (r as PromiseFulfilledResult<CallResult>).value);
  }

  /**
   * As `batch`, each call's own outcome (a failed call does not hide the others' answers); a timeout fails them all.
   * With `rest`, the limit covers the first `rest.after` calls and the others get `rest.ms` of their own from
   * their answer on; a timeout in that second part is not thrown: those calls fail (interrupted) and the first keep their answers.
   * An aborted `signal` (a `.v` run's Cancel) interrupts at once, as when the limit passes.
   */
  batchSettled(xmls: string[], timeoutMs = this.defaultTimeout, options: { rest?: { after: number; ms: number }; signal?: AbortSignal } = {}): Promise<PromiseSettledResult<CallResult>[]> {
    const { rest, signal } = options;
    const run = async (): Promise<PromiseSettledResult<CallResult>[]> => {
      if (this.deadReason !== undefined) throw new CoqCrash(this.deadReason);
      let interrupted = false;
      let done = false;
      const stop = (): void => {
        if (interrupted) return;
        interrupted = true;
        clearTimeout(timer);
        this.interrupt(); // CoqIDE's interrupt: the running call answers "User interrupt."
        timer = setTimeout(() => this.proc.kill(), this.grace);
      };
      const limit = (ms: number): NodeJS.Timeout => setTimeout(stop, ms);
      let timer: NodeJS.Timeout | undefined = limit(timeoutMs);
      signal?.addEventListener('abort', stop, { once: true });
      const answers = xmls.map(
        () =>
          new Promise<CallResult>((resolve, reject) => {
            this.pending.push({ messages: [], resolve, reject });
          }),
      );
      if (rest !== undefined && rest.after > 0 && rest.after < xmls.length) {
        // The second part's own limit starts when the first part has answered, in time.
        void Promise.allSettled(answers.slice(0, rest.after)).then(() => {
          // After the whole batch (answers in one chunk) no timer may be left to interrupt a later call.
          if (interrupted || done) return;
          clearTimeout(timer);
          timer = limit(rest.ms);
        });
      }
      this.proc.stdin.write(xmls.join(''));
      if (signal?.aborted) stop();
      const settled = await Promise.allSettled(answers);
      done = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', stop);
      if (interrupted) await this.absorbInterrupt();
      // A timeout is the first part's when it failed there (an interrupt the second part took is its calls' failure).
      const failed = settled.slice(0, rest?.after ?? settled.length).find((r): r is PromiseRejectedResult => r.status === 'rejected');
      if (failed && interrupted) throw new CoqTimeout(failed.reason instanceof CoqCrash);
      return settled;
    };
    const result = this.queue.then(run, run);
    this.queue = result.catch(() => undefined);
    return result;
  }

  /**
   * After a SIGINT: coqidetop keeps an interrupt that arrived between two calls and fails the *next* call
   * with "User interrupt" (whatever it is: an Edit_at that restores the tip, a later Add). A harmless call
   * takes it now, so no later call answers for it. An interrupt the running call already took leaves
   * nothing: the call then just answers. Still under the batch's lock.
   */
  private async absorbInterrupt(): Promise<void> {
    if (this.deadReason !== undefined) return;
    const answer = new Promise<CallResult>((resolve, reject) => {
      this.pending.push({ messages: [], resolve, reject });
    });
    const killer = setTimeout(() => this.proc.kill(), this.grace);
    this.proc.stdin.write(aboutCall());
    await answer.catch(() => undefined);
    clearTimeout(killer);
  }

  /**
   * Add a sentence on the tip and execute it in one pipelined exchange (Add parses only; Goal forces
   * execution). If the Add fails, the Goal just observes the unchanged tip and its answer is dropped.
   */
  async addAndGoals(sentence: string, timeoutMs?: number, signal?: AbortSignal): Promise<{ stateId: number; goals: RawGoal[] | undefined; shelved: number; messages: CoqMessage[]; all: RawGoal[] | undefined; shelvedIds: string[] }> {
    const tip = this.tip;
    const [add, goal] = (await this.batch([addCall(sentence, tip), goalCall()], timeoutMs, signal)) as [CallResult, CallResult];
    this.tip = decodeAdd(add.value);
    this.newest = Math.max(this.newest, this.tip);
    this.newestKnown = true;
    const lists = decodeGoals(goal.value);
    return { stateId: this.tip, goals: lists?.goals, shelved: lists?.shelved ?? 0, messages: goal.messages, all: lists?.all, shelvedIds: lists?.shelvedIds ?? [] };
  }

  /**
   * `addAndGoals`, and in the same exchange `queries` at the new state — or one sentence further (`then`), and
   * back to the new state: END's `Qed` with what its judges read (printed-all.ts). The sentence's outcome is
   * exactly `addAndGoals`'; `answers` is undefined whenever anything about the queries went wrong (ids not
   * as expected, a refusal), and the caller then asks the slow way.
   */
  async addAndGoalsThen(sentence: string, then: string | undefined, queries: readonly string[], timeoutMs?: number): Promise<{ added: Awaited<ReturnType<CoqideTopClient['addAndGoals']>>; answers: CoqMessage[][] | undefined }> {
    if (!this.newestKnown) return { added: await this.addAndGoals(sentence, timeoutMs), answers: undefined };
    const tip = this.tip;
    const expected = this.newest + 1;
    const further = then === undefined ? [...queries.map((q) => queryCall(q, expected))] : [addCall(then, expected), ...queries.map((q) => queryCall(q, expected + 1)), editAtCall(expected)];
    const settled = await this.batchSettled([addCall(sentence, tip), goalCall(), ...further], timeoutMs, { rest: { after: 2, ms: timeoutMs ?? this.defaultTimeout } }).catch((e: unknown) => {
      this.newestKnown = false;
      throw e;
    });
    const [add, goal] = settled as [PromiseSettledResult<CallResult>, PromiseSettledResult<CallResult>];
    const rest = settled.slice(2);
    if (add.status === 'rejected' || goal.status === 'rejected') {
      // As addAndGoals: the tip is left to the caller, who goes back to the state before the sentence.
      this.newestKnown = false;
      throw add.status === 'rejected' ? add.reason : (goal as PromiseRejectedResult).reason;
    }
    this.tip = decodeAdd(add.value.value);
    this.newest = Math.max(this.newest, this.tip);
    const lists = decodeGoals(goal.value.value);
    const added = { stateId: this.tip, goals: lists?.goals, shelved: lists?.shelved ?? 0, messages: goal.value.messages, all: lists?.all, shelvedIds: lists?.shelvedIds ?? [] };
    if (this.tip === expected && rest.every((r) => r.status === 'fulfilled')) {
      if (then === undefined) return { added, answers: rest.map((r) => (r as PromiseFulfilledResult<CallResult>).value.messages) };
      this.newest = Math.max(this.newest, expected + 1);
      return { added, answers: rest.slice(1, -1).map((r) => (r as PromiseFulfilledResult<CallResult>).value.messages) };
    }
    // Something of the queries failed or went to another state: back to the new state for sure.
    this.newestKnown = false;
    await this.editAt(this.tip, timeoutMs);
    return { added, answers: undefined };
  }

  /** Add a sentence on the tip (parse only; execution happens on `goals`). Returns the new state id. */
  async add(sentence: string, timeoutMs?: number): Promise<number> {
    const r = await this.call(addCall(sentence, this.tip), timeoutMs);
    this.tip = decodeAdd(r.value);
    this.newest = Math.max(this.newest, this.tip);
    this.newestKnown = true;
    return this.tip;
  }

  /** Execute up to the tip and return the open goals (`undefined` outside a proof). */
  async goals(timeoutMs?: number, options: { joined?: boolean } = {}): Promise<{ goals: RawGoal[] | undefined; shelved: number; messages: CoqMessage[] }> {
    const r = await (options.joined === true ? this.callJoined(goalCall(), timeoutMs) : this.call(goalCall(), timeoutMs));
    const lists = decodeGoals(r.value);
    return { goals: lists?.goals, shelved: lists?.shelved ?? 0, messages: r.messages };
  }

  async editAt(id: number, timeoutMs?: number): Promise<void> {
    const r = await this.call(editAtCall(id), timeoutMs);
    this.tip = decodeEditAt(r.value) ?? id;
  }

  /**
   * Coq's parse of the first sentence of `text` at the tip (nothing runs): its pretty-print, '' when only
   * blanks and comments are left; a parse error is `ok: false` with Coq's message.
   */
  async annotate(text: string, timeoutMs = 5000): Promise<AnnotateAnswer> {
    try {
      // Joined: pieces asked together (a sentence and the piece one character shorter) share one exchange.
      const r = await this.callJoined(annotateCall(text), timeoutMs);
      const tacticHead = decodeAnnotateHead(r.value);
      return { ok: true, pp: decodeAnnotate(r.value), ...(tacticHead !== undefined ? { tacticHead } : {}) };
    } catch (e) {
      if (e instanceof CoqFailure) return { ok: false, message: coqFlat(e.message), ...(e.locEnd !== undefined ? { locEnd: e.locEnd } : {}) };
      throw e;
    }
  }

  /**
   * Queries in the state one sentence after the tip, and back to the tip — one pipelined exchange instead of
   * Add, Query…, Edit_at one after the other. The queries name the state the Add is expected to create (ids
   * are fresh and increasing); when the Add got another id their answers belong to some other state, so
   * they are dropped and this throws (callers then go the slow way). Throws as `batch` does when the Add or
   * a query fails; the tip is the old one either way.
   */
  async queriesAfter(sentence: string, queries: readonly string[], timeoutMs?: number): Promise<CoqMessage[][]> {
    // A refused sentence may use up an id unseen: the first miss teaches the next id, the second try lines up.
    for (let attempt = 0; ; attempt++) {
      const tip = this.tip;
      // After a failed exchange the next id is unknown: Add alone first (it tells the id), then the rest.
      const known = this.newestKnown;
      const expected = known ? this.newest + 1 : await this.add(sentence, timeoutMs).catch(async (e: unknown) => {
        if (this.alive) await this.editAt(tip, timeoutMs).catch(() => undefined);
        throw e;
      });
      let answers: CallResult[];
      try {
        answers = await this.batch([...(known ? [addCall(sentence, tip)] : []), ...queries.map((q) => queryCall(q, expected)), editAtCall(tip)], timeoutMs);
      } catch (e) {
        this.newestKnown = false;
        // The Add may have been taken and the Edit_at refused: make sure of the tip.
        if (this.alive) await this.editAt(tip, timeoutMs).catch(() => undefined);
        throw e;
      }
      const added = known ? decodeAdd((answers[0] as CallResult).value) : expected;
      this.newest = Math.max(this.newest, added);
      this.tip = decodeEditAt((answers.at(-1) as CallResult).value) ?? tip;
      if (added === expected) return answers.slice(known ? 1 : 0, -1).map((a) => a.messages);
      if (attempt > 0) throw new Error(`coqidetop: the new state is ${added}, not ${expected} as expected`);
    }
  }

  /** Coq's version and build (the XML `About` call): what a cache of Coq's answers is keyed by. */
  async about(timeoutMs?: number): Promise<string> {
    return decodeAbout((await this.call(aboutCall(), timeoutMs)).value);
  }

  /**
   * A query sent with the others asked in the same turn of the event loop, in one exchange (END's two
   * judges each ask their `Locate` batch once the same `Print`/`Check` answer is in). Each keeps its own
   * answer or failure; the exchange's limit is the largest asked.
   */
  async queryJoined(text: string, at = this.tip, timeoutMs = this.defaultTimeout): Promise<CoqMessage[]> {
    return (await this.callJoined(queryCall(text, at), timeoutMs)).messages;
  }

  /**
   * A call that changes nothing (a query, `Annotate`, `Goal`), sent with the others asked in the same turn
   * of the event loop, in the order asked: one exchange instead of one each.
   */
  private callJoined(xml: string | (() => string), timeoutMs = this.defaultTimeout): Promise<CallResult> {
    return new Promise((resolve, reject) => {
      this.pushJoined({ xml, timeoutMs, resolve, reject });
    });
  }

  private pushJoined(entry: JoinedCall): void {
    if (this.joined === undefined) {
      this.joined = [];
      setImmediate(() => this.flushJoined());
    }
    this.joined.push(entry);
  }

  private joined: JoinedCall[] | undefined;

  /**
   * A query of `commands` commands that each print exactly one notice (`Locate`, `Check`, `Inspect`), sent
   * with the others of its kind asked in the same turn at the same state as ONE query: coqidetop sets up and
   * drops a state around every query, which costs it more than a `Locate` (bench/end-queries.bench.ts). The
   * answer is this query's notices. When the joint answer does not line up (a command printed more or fewer
   * notices, or Coq refused one), each query is asked again on its own and gets its own answer or failure;
   * a timeout or a crash fails them all, as it would have failed each.
   */
  queryCommandsJoined(text: string, commands: number, at = this.tip, timeoutMs = this.defaultTimeout): Promise<CoqMessage[]> {
    return new Promise((resolve, reject) => {
      const member: JointMember = { text, commands, timeoutMs, resolve, reject };
      const group = this.merging?.get(at);
      if (group !== undefined) {
        group.members.push(member);
        group.entry.timeoutMs = Math.max(group.entry.timeoutMs, timeoutMs);
        return;
      }
      const members = [member];
      const entry: JoinedCall = {
        xml: () => queryCall(members.map((m) => m.text).join(' '), at),
        timeoutMs,
        resolve: (r) => {
          const said = r.messages.filter((m) => m.level === 'notice');
          if (members.length === 1) return member.resolve(said);
          if (said.length !== members.reduce((n, m) => n + m.commands, 0)) return this.askEach(members, at);
          let from = 0;
          for (const m of members) {
            m.resolve(said.slice(from, from + m.commands));
            from += m.commands;
          }
        },
        // Coq refused a command: each query again on its own. A timeout or a crash is every query's.
        reject: (e) => (members.length > 1 && e instanceof CoqFailure ? this.askEach(members, at) : members.forEach((m) => m.reject(e))),
      };
      (this.merging ??= new Map()).set(at, { members, entry });
      this.pushJoined(entry);
    });
  }

  /** The queries of a joint one that did not line up, each on its own (still joined: one more exchange). */
  private askEach(members: readonly JointMember[], at: number): void {
    for (const m of members) this.callJoined(queryCall(m.text, at), m.timeoutMs).then((r) => m.resolve(r.messages.filter((x) => x.level === 'notice')), m.reject);
  }

  /** This turn's joint queries, by the state they ask at. */
  private merging: Map<number, { members: JointMember[]; entry: JoinedCall }> | undefined;

  private flushJoined(): void {
    const asked = this.joined ?? [];
    this.joined = undefined;
    // A joint query's text is complete once its turn is over: later queries start a joint query of their own.
    this.merging = undefined;
    this.batchSettled(asked.map((q) => (typeof q.xml === 'string' ? q.xml : q.xml())), Math.max(...asked.map((q) => q.timeoutMs))).then(
      (settled) => settled.forEach((r, i) => (r.status === 'fulfilled' ? asked[i]?.resolve(r.value) : asked[i]?.reject(r.reason))),
      (e: unknown) => asked.forEach((q) => q.reject(e)),
    );
  }

  /** Run a query command (`Check`, `Locate`, …) at a state; returns its messages. */
  async query(text: string, at = this.tip, timeoutMs?: number): Promise<CoqMessage[]> {
    const r = await this.call(queryCall(text, at), timeoutMs);
    return r.messages;
  }

  /**
   * Whether this process keeps Arbor's event loop alive. A shared helper process (the clean environment
   * of statement-reading.ts) is held only while a call is in progress, so it never keeps Arbor from exiting.
   */
  holdEventLoop(on: boolean): void {
    const handles = [this.proc.child, this.proc.stdin, this.proc.stdout, this.proc.stderr] as unknown as { ref?: () => void; unref?: () => void }[];
    for (const h of handles) (on ? h.ref : h.unref)?.call(h);
  }

  /** Ask politely, then make sure. */
  async dispose(): Promise<void> {
    if (this.alive) {
      const quit = this.call(quitCall(), 500).catch(() => undefined);
      const t = setTimeout(() => this.proc.kill(), 500);
      await Promise.race([quit, this.exited]);
      clearTimeout(t);
      if (this.alive) this.proc.kill();
    }
    await this.exited;
  }

  /** Kill outright (tests, crash simulation, and the last resort of a timeout). */
  kill(): void {
    this.proc.kill();
  }
}
