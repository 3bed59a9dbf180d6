import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface CoqcResult {
  ok: boolean;
  /** coqc's stdout+stderr (messages, `idtac` markers, hammer's reconstruction hint). */
  output: string;
  timedOut: boolean;
  ms: number;
}

export interface CoqcOptions {
  /** Wall-clock limit after which the whole process group is killed. */
  killAfterMs: number;
  coqc?: string;
}

const HAMMER_BIN = '/usr/libexec/coq-hammer';

/**
 * Check one `.v` file with `coqc` in a fresh temporary directory (one file per attempt, so attempts never
 * share state), in its own process group so a timeout kills the ATPs hammer started too.
 */
export async function runCoqc(source: string, opts: CoqcOptions): Promise<CoqcResult> {
  const dir = await mkdtemp(join(tmpdir(), 'arbor-fidelity-'));
  const file = join(dir, 'Attempt.v');
  const started = performance.now();
  try {
    await writeFile(file, source, 'utf8');
    return await new Promise<CoqcResult>((resolve) => {
      const child = spawn(opts.coqc ?? 'coqc', ['-q', 'Attempt.v'], {
        cwd: dir,
        detached: true,
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...process.env, PATH: `${HAMMER_BIN}:${process.env.PATH ?? ''}` },
      });
      let output = '';
      let timedOut = false;
      child.stdout.on('data', (d: Buffer) => { output += d.toString('utf8'); });
      child.stderr.on('data', (d: Buffer) => { output += d.toString('utf8'); });
      const timer = setTimeout(() => {
        timedOut = true;
        killGroup(child.pid);
      }, opts.killAfterMs);
      child.on('error', (e) => {
        clearTimeout(timer);
        resolve({ ok: false, output: `${output}${e.message}`, timedOut, ms: performance.now() - started });
      });
      child.on('close', (code) => {
        clearTimeout(timer);
        killGroup(child.pid); // stray ATP children of a finished coqc
        resolve({ ok: code === 0 && !timedOut, output, timedOut, ms: performance.now() - started });
      });
    });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

function killGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

/** coqc's first error message, without the file/line banner. */
export function coqErrorMessage(output: string): string {
  const m = /Error:\s*([\s\S]*?)(?:\n\s*\n|$)/u.exec(output);
  return (m?.[1] ?? output).trim().replace(/\s+/gu, ' ').slice(0, 500);
}

/** The line of coqc's first error (1-based), if reported. */
export function coqErrorLine(output: string): number | null {
  const m = /line (\d+), characters/u.exec(output);
  return m ? Number(m[1]) : null;
}
