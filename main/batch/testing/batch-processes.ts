import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { LineSplitter } from '../../../shared/protocol/line-splitter.ts';
import type { ManagedProcess } from '../../process/process-manager.ts';
import { startProcess } from '../../process/process-manager.ts';

const ARBOR_BIN = fileURLToPath(new URL('../../../bin/arbor.js', import.meta.url));

/** A process whose output lines a test can wait on (a condition, never a fixed delay). */
export class WatchedProcess {
  readonly lines: string[] = [];
  readonly errLines: string[] = [];
  private readonly waiters: { test: () => boolean; resolve: () => void }[] = [];
  readonly exited: Promise<number | null>;

  constructor(readonly process: ManagedProcess) {
    for (const [stream, into] of [[process.stdout, this.lines], [process.stderr, this.errLines]] as const) {
      const splitter = new LineSplitter(64 << 20);
      stream.setEncoding('utf8');
      stream.on('data', (chunk: string) => {
        for (const l of splitter.push(chunk)) into.push(l.text);
        this.check();
      });
    }
    this.exited = process.exited.then((r) => {
      this.check();
      return r.code;
    });
  }

  /** Resolves once `test` holds (checked on every new line); rejects after `ms` with what was seen. */
  async until(test: () => boolean, ms = 60_000, what = 'condition'): Promise<void> {
    if (test()) return;
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`timed out waiting for ${what}\nstdout: ${this.lines.slice(-10).join('\n')}\nstderr: ${this.errLines.slice(-10).join('\n')}`)), ms);
      this.waiters.push({ test, resolve: () => { clearTimeout(timer); resolve(); } });
    });
  }

  private check(): void {
    for (let i = this.waiters.length - 1; i >= 0; i--) {
      const w = this.waiters[i] as { test: () => boolean; resolve: () => void };
      if (w.test()) {
        this.waiters.splice(i, 1);
        w.resolve();
      }
    }
  }
}

/** `arbor batch … --json`, with its JSON lines parsed. */
export class BatchRun extends WatchedProcess {
  constructor(args: string[]) {
    super(startProcess({ program: process.execPath, args: [ARBOR_BIN, 'batch', ...args, '--json'], sandbox: false }));
  }

  get events(): { type: string; [k: string]: unknown }[] {
    return this.lines.filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as { type: string });
  }

  of(type: string): { [k: string]: unknown }[] {
    return this.events.filter((e) => e.type === type);
  }
}

/** `arbor worker --queue URL --name NAME …`: its log says when it is ready and which jobs it finished. */
export class QueueWorkerRun extends WatchedProcess {
  constructor(readonly name: string, url: string, extra: string[] = []) {
    super(startProcess({ program: process.execPath, args: [ARBOR_BIN, 'worker', '--queue', url, '--name', name, ...extra], sandbox: false }));
  }

  ready(): Promise<void> {
    return this.until(() => this.errLines.some((l) => l.includes(': provers ')), 60_000, `worker ${this.name} to start`);
  }

  /** Job ids this worker finished (one log line each). */
  finished(): string[] {
    return this.errLines.map((l) => /^worker \S+: ((?:aim|fidelity|hammer|check)-[0-9a-f]{32}) .*: \S+ \(\d+ ms\)$/.exec(l)?.[1]).filter((x): x is string => x !== undefined);
  }
}

/** The item lines of a report file. */
export function reportItems(path: string): { id: string; job: string; outcome: string; worker: string; attempts: number; finished: string; resumed?: boolean; evidence: unknown }[] {
  return readFileSync(path, 'utf8').split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as { type: string }).filter((l) => l.type === 'item') as never;
}

/**
 * The pid of a local pool's worker `name` among the descendants of `ancestor` (Linux /proc), so a test can
 * kill that one worker; undefined when there is none (yet).
 */
export function localWorkerPid(ancestor: number, name: string): number | undefined {
  const parentOf = (pid: number): number | undefined => {
    try {
      // Field 4 of /proc/PID/stat, after the command name in parentheses.
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    } catch {
      return undefined;
    }
  };
  for (const entry of readdirSync('/proc')) {
    const pid = Number(entry);
    if (!Number.isInteger(pid)) continue;
    let cmd: string;
    try {
      cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
    } catch {
      continue;
    }
    if (!cmd.includes(`worker --stdio --name ${name} `) && !cmd.endsWith(`worker --stdio --name ${name}`)) continue;
    for (let p: number | undefined = parentOf(pid), hops = 0; p !== undefined && p > 1 && hops < 8; p = parentOf(p), hops++) {
      if (p === ancestor) return pid;
    }
  }
  return undefined;
}
