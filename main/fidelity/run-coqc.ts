import { runProcess } from '../process/process-manager.ts';
import type { ProjectArgs } from '../shell/prover-session.ts';
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
  /**
   * The workspace's trusted project (WorkspaceTrust.projectArgs, never a client's text): its load paths on
   * coqc's command line and its directories readable, read-only, in the sandbox — as every coqidetop gets them.
   */
  project?: ProjectArgs;
}

const HAMMER_BIN = '/usr/libexec/coq-hammer';

/**
 * Check one `.v` file with `coqc` in a fresh temporary directory (one file per attempt, so attempts never
 * share state), through the process manager (its own process group, so a timeout kills the ATPs hammer started too).
 */
export async function runCoqc(source: string, opts: CoqcOptions): Promise<CoqcResult> {
  const dir = await mkdtemp(join(tmpdir(), 'arbor-fidelity-'));
  const file = join(dir, 'Attempt.v');
  const started = performance.now();
  try {
    await writeFile(file, source, 'utf8');
    const r = await runProcess({
      program: opts.coqc ?? 'coqc',
      // As Arbor's coqidetop: no native compiler (coq/coq#17871, coqidetop-client.ts).
      args: ['-q', '-w', '-deprecated-native-compiler-option', '-native-compiler', 'no', ...(opts.project?.args ?? []), 'Attempt.v'],
      cwd: dir,
      env: { ...process.env, PATH: `${HAMMER_BIN}:${process.env.PATH ?? ''}` },
      timeoutMs: opts.killAfterMs,
      // Sandboxed; it writes Attempt.vo and friends next to the file.
      sandbox: { writable: [dir], ...(opts.project !== undefined ? { readOnly: [...opts.project.readOnly] } : {}) },
    });
    const output = `${r.stdout}${r.stderr}`;
    return { ok: r.exitCode === 0 && !r.timedOut, output, timedOut: r.timedOut, ms: performance.now() - started };
  } finally {
    await rm(dir, { recursive: true, force: true });
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
