import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import { XmlStream, type XmlElement } from './xml-tree.ts';
import {
  addCall,
  decodeAdd,
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
}

/**
 * One coqidetop process over its XML protocol. Calls are serialised (one in flight); feedback
 * messages that arrive while a call is pending belong to that call. `tip` tracks the document's tip so
 * `add` always extends it (Coq 8.16 rejects adds on any other state).
 */
export class CoqideTopClient {
  tip = 0;
  private readonly proc: ChildProcessWithoutNullStreams;
  private readonly xml: XmlStream;
  private pending: Pending | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  private deadReason: string | undefined;
  private readonly grace: number;
  private readonly defaultTimeout: number;
  readonly exited: Promise<void>;

  private constructor(binary: string, options: ClientOptions) {
    this.grace = options.interruptGraceMs ?? 1500;
    this.defaultTimeout = options.defaultTimeoutMs ?? 60_000;
    const env = { ...process.env, PATH: `${HAMMER_LIBEXEC}${delimiter}${process.env.PATH ?? ''}` };
    this.proc = spawn(binary, ['-main-channel', 'stdfds', '-async-proofs', 'off'], { env, stdio: 'pipe' });
    this.proc.stdout.setEncoding('utf8');
    this.proc.stderr.resume(); // ATP noise ("vampire: not found") must not fill the pipe
    this.xml = new XmlStream((e) => this.onElement(e));
    this.proc.stdout.on('data', (chunk: string) => {
      try {
        this.xml.write(chunk);
      } catch (e) {
        this.die(`malformed output: ${(e as Error).message}`);
        this.proc.kill('SIGKILL');
      }
    });
    this.proc.stdin.on('error', () => undefined); // EPIPE after death is reported via 'exit'
    this.exited = new Promise((resolve) => {
      this.proc.on('exit', (code, signal) => {
        this.die(`coqidetop exited (${signal ?? code})`);
        resolve();
      });
      this.proc.on('error', (e) => {
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
    return c;
  }

  get pid(): number | undefined {
    return this.proc.pid;
  }

  get alive(): boolean {
    return this.deadReason === undefined;
  }

  private die(reason: string): void {
    this.deadReason ??= reason;
    const p = this.pending;
    this.pending = undefined;
    p?.reject(new CoqCrash(this.deadReason));
  }

  private onElement(e: XmlElement): void {
    const p = this.pending;
    if (e.tag === 'feedback') {
      const m = feedbackMessage(e);
      if (m && p) p.messages.push(m);
      return;
    }
    if (e.tag !== 'value' || !p) return;
    this.pending = undefined;
    if (e.attrs.val === 'good') p.resolve({ value: e, messages: p.messages });
    else {
      const f = decodeFailure(e);
      p.reject(new CoqFailure(f.message, f.stateId, p.messages));
    }
  }

  /** Send one call; with `timeoutMs`, interrupt (SIGINT) then kill when it does not answer in time. */
  call(xml: string, timeoutMs = this.defaultTimeout): Promise<CallResult> {
    const run = (): Promise<CallResult> =>
      new Promise<CallResult>((resolve, reject) => {
        if (this.deadReason !== undefined) {
          reject(new CoqCrash(this.deadReason));
          return;
        }
        let timer: NodeJS.Timeout | undefined;
        let interrupted = false;
        const done = (): void => clearTimeout(timer);
        this.pending = {
          messages: [],
          resolve: (r) => {
            done();
            resolve(r);
          },
          reject: (e) => {
            done();
            reject(interrupted ? new CoqTimeout(e instanceof CoqCrash) : e);
          },
        };
        timer = setTimeout(() => {
          interrupted = true;
          this.proc.kill('SIGINT'); // CoqIDE's interrupt: the call answers "User interrupt."
          timer = setTimeout(() => this.proc.kill('SIGKILL'), this.grace);
        }, timeoutMs);
        this.proc.stdin.write(xml);
      });
    const result = this.queue.then(run, run);
    this.queue = result.catch(() => undefined);
    return result;
  }

  /** Add a sentence on the tip (parse only; execution happens on `goals`). Returns the new state id. */
  async add(sentence: string, timeoutMs?: number): Promise<number> {
    const r = await this.call(addCall(sentence, this.tip), timeoutMs);
    this.tip = decodeAdd(r.value);
    return this.tip;
  }

  /** Execute up to the tip and return the open goals (`undefined` outside a proof). */
  async goals(timeoutMs?: number): Promise<{ goals: RawGoal[] | undefined; messages: CoqMessage[] }> {
    const r = await this.call(goalCall(), timeoutMs);
    return { goals: decodeGoals(r.value), messages: r.messages };
  }

  async editAt(id: number, timeoutMs?: number): Promise<void> {
    const r = await this.call(editAtCall(id), timeoutMs);
    this.tip = decodeEditAt(r.value) ?? id;
  }

  /** Run a query command (`Check`, `Locate`, …) at a state; returns its messages. */
  async query(text: string, at = this.tip, timeoutMs?: number): Promise<CoqMessage[]> {
    const r = await this.call(queryCall(text, at), timeoutMs);
    return r.messages;
  }

  /** Ask politely, then make sure. */
  async dispose(): Promise<void> {
    if (this.alive) {
      const quit = this.call(quitCall(), 500).catch(() => undefined);
      const t = setTimeout(() => this.proc.kill('SIGKILL'), 500);
      await Promise.race([quit, this.exited]);
      clearTimeout(t);
      if (this.alive) this.proc.kill('SIGKILL');
    }
    await this.exited;
  }

  /** Kill outright (tests, crash simulation, and the last resort of a timeout). */
  kill(): void {
    this.proc.kill('SIGKILL');
  }
}
