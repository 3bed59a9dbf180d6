import { startProcess, type ManagedProcess } from './process-manager.ts';
import type { SandboxOptions } from './sandbox.ts';

/**
 * A child process spoken to one line at a time (the channel protocol, Pantograph's REPL). Lines on stdout
 * are delivered in order to whoever waits; the tail of stderr is kept for error messages. Used by the
 * external pass-through engine and the Lean (Pantograph) session (the isabelle backend speaks MessagePack over TCP).
 */
export interface LineProcessOptions {
  command: string;
  args: readonly string[];
  /** Default: a temporary directory of its own (see the process manager). */
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  memoryLimitMb?: number;
  /** Host paths it may read beyond the system and its working directory; it always runs sandboxed (it reads untrusted text). */
  sandbox?: SandboxOptions;
}

export type ProcessExit = { code: number | null; signal: NodeJS.Signals | null; error?: string };

export class LineProcessExited extends Error {
  constructor(readonly exit: ProcessExit, readonly stderrTail: string) {
    super(describeExit(exit, stderrTail));
  }
}

export class LineTimeout extends Error {}

export function describeExit(exit: ProcessExit, stderrTail: string): string {
  const how = exit.error ?? (exit.signal ? `killed by ${exit.signal}` : `exited with code ${exit.code}`);
  const tail = stderrTail.trim().split('\n').slice(-3).join(' | ');
  return tail ? `${how}: ${tail}` : how;
}

/**
 * The longest line Arbor reads (as the MessagePack limit of the isabelle backend): a process that prints more
 * without a line break is broken, and is stopped before it fills Arbor's memory.
 */
export const MAX_LINE_CHARS = 64 << 20;

export class LineProcess {
  private readonly child: ManagedProcess;
  private buffer = '';
  /** Why Arbor stopped the process itself (a line past MAX_LINE_CHARS). */
  private overflow: string | undefined;
  private readonly lines: string[] = [];
  private waiter: { resolve: (line: string) => void; reject: (err: Error) => void } | undefined;
  private stderr = '';
  private exitInfo: ProcessExit | undefined;
  private readonly exited: Promise<ProcessExit>;

  constructor(options: LineProcessOptions) {
    // Own process group and working directory, dies with Arbor (the process manager).
    this.child = startProcess({
      program: options.command,
      args: options.args,
      env: options.env ?? process.env,
      sandbox: options.sandbox ?? {},
      ...(options.cwd !== undefined ? { cwd: options.cwd } : {}),
      ...(options.memoryLimitMb !== undefined ? { memoryLimitMb: options.memoryLimitMb } : {}),
    });
    this.child.stdout.setEncoding('utf8');
    this.child.stderr.setEncoding('utf8');
    this.child.stdout.on('data', (chunk: string) => this.onData(chunk));
    this.child.stderr.on('data', (chunk: string) => {
      this.stderr = (this.stderr + chunk).slice(-4000);
    });
    // A write to a dead process must not crash Arbor; the exit is reported to the waiter instead.
    this.child.stdin.on('error', () => undefined);
    this.exited = new Promise((resolve) => {
      this.child.child.on('error', (err) => this.finish({ code: null, signal: null, error: `cannot start ${options.command}: ${err.message}` }, resolve));
      void this.child.exited.then(({ code, signal }) => this.finish({ code, signal, ...(this.overflow !== undefined ? { error: this.overflow } : {}) }, resolve));
    });
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  get alive(): boolean {
    return this.exitInfo === undefined;
  }

  stderrTail(): string {
    return this.stderr;
  }

  write(line: string): void {
    if (!this.alive) throw new LineProcessExited(this.exitInfo as ProcessExit, this.stderr);
    this.child.stdin.write(`${line}\n`);
  }

  /** The next stdout line; rejects with `LineTimeout` after `timeoutMs`, or `LineProcessExited`. */
  nextLine(timeoutMs: number): Promise<string> {
    const queued = this.lines.shift();
    if (queued !== undefined) return Promise.resolve(queued);
    if (!this.alive) return Promise.reject(new LineProcessExited(this.exitInfo as ProcessExit, this.stderr));
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiter = undefined;
        reject(new LineTimeout(`no answer within ${timeoutMs} ms`));
      }, timeoutMs);
      this.waiter = {
        resolve: (line) => { clearTimeout(timer); resolve(line); },
        reject: (err) => { clearTimeout(timer); reject(err); },
      };
    });
  }

  /** Kills the process group and waits for the exit. */
  async kill(): Promise<ProcessExit> {
    if (this.alive) this.child.kill();
    return this.exited;
  }

  whenExited(): Promise<ProcessExit> {
    return this.exited;
  }

  private onData(chunk: string): void {
    if (this.overflow !== undefined) return;
    this.buffer += chunk;
    // Only a chunk with a line break can end a line: a long line is not rescanned with every chunk.
    if (!chunk.includes('\n')) {
      if (this.buffer.length > MAX_LINE_CHARS) {
        this.overflow = `printed a line longer than ${MAX_LINE_CHARS} characters; stopped`;
        this.buffer = '';
        this.child.kill();
      }
      return;
    }
    let nl: number;
    while ((nl = this.buffer.indexOf('\n')) >= 0) {
      const line = this.buffer.slice(0, nl).replace(/\r$/, '');
      this.buffer = this.buffer.slice(nl + 1);
      const waiter = this.waiter;
      if (waiter) {
        this.waiter = undefined;
        waiter.resolve(line);
      } else this.lines.push(line);
    }
  }

  private finish(exit: ProcessExit, resolve: (e: ProcessExit) => void): void {
    if (this.exitInfo) return;
    this.exitInfo = exit;
    const waiter = this.waiter;
    this.waiter = undefined;
    // Let stdout drain first: the last answer may arrive together with the exit.
    setImmediate(() => {
      if (waiter) {
        const line = this.lines.shift();
        if (line !== undefined) waiter.resolve(line);
        else waiter.reject(new LineProcessExited(exit, this.stderr));
      }
    });
    resolve(exit);
  }
}
