import escapeStringRegexp from 'escape-string-regexp';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runProcess } from '../../process/process-manager.ts';
import { leanSandbox } from './lean-config.ts';

/** Lean's three standard axioms (`#print axioms` of Mathlib-style proofs): the only ones a finished proof may use. */
export const TRUSTED_LEAN_AXIOMS: readonly string[] = ['propext', 'Classical.choice', 'Quot.sound'];

export type LeanCheckResult =
  | { ok: true; axioms: string[] }
  | { ok: false; error: string; timedOut: boolean };

export interface LeanCheckOptions {
  /** The `lean` executable (its path). */
  lean: string;
  /** The Lake project (elan picks the project's toolchain from the working directory). */
  cwd?: string;
  /** The REPL's environment (LEAN_PATH of the project). */
  env?: NodeJS.ProcessEnv;
  timeoutMs: number;
}

/**
 * Checks a reproduction script the way a user would, with `lean` on the file alone (through the process
 * manager: own process group, killed at the limit), and reads `#print axioms` of the theorem: Lean's
 * kernel, not Pantograph's elaborator, is what makes it a proof.
 */
export async function checkLeanScript(script: string, theorem: string, options: LeanCheckOptions): Promise<LeanCheckResult> {
  const dir = await mkdtemp(join(tmpdir(), 'arbor-lean-check-'));
  const file = join(dir, 'ArborCheck.lean');
  try {
    await writeFile(file, `${script.replace(/\n*$/, '\n')}\n#print axioms ${theorem}\n`, 'utf8');
    const r = await runProcess({
      program: options.lean,
      args: [file],
      cwd: options.cwd ?? dir,
      ...(options.env ? { env: options.env } : {}),
      timeoutMs: options.timeoutMs,
      // Sandboxed: the script is untrusted text; it reads the file's directory, the project, the toolchain.
      sandbox: { ...leanSandbox(options.cwd, options.env?.LEAN_PATH, [options.lean]), writable: [dir] },
    });
    const output = `${r.stdout}\n${r.stderr}`;
    if (r.timedOut) return { ok: false, error: `lean did not finish checking the script within ${options.timeoutMs} ms`, timedOut: true };
    return readLeanOutput(output, r.exitCode, theorem);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** What `lean FILE` said: its first error, or the axioms `#print axioms theorem` listed. */
export function readLeanOutput(output: string, exitCode: number | null, theorem: string): LeanCheckResult {
  const error = firstLeanError(output);
  if (exitCode !== 0 || error !== undefined) return { ok: false, error: error ?? `lean exited with code ${String(exitCode)}`, timedOut: false };
  const quoted = escapeStringRegexp(theorem);
  if (new RegExp(`'${quoted}' does not depend on any axioms`).test(output)) return { ok: true, axioms: [] };
  const m = new RegExp(`'${quoted}' depends on axioms: \\[([^\\]]*)\\]`).exec(output);
  if (!m) return { ok: false, error: `lean printed no axioms report for ${theorem}`, timedOut: false };
  return { ok: true, axioms: (m[1] ?? '').split(',').map((a) => a.trim()).filter(Boolean) };
}

/** `FILE:line:col: error: message` → `line L: message` (first error only, on one line). */
export function firstLeanError(output: string): string | undefined {
  const m = /(?:^|\n)(?:[^\n]*?:)?(\d+):(\d+): error: ([\s\S]*?)(?=\n[^\n]*?:\d+:\d+: |\s*$)/.exec(output);
  if (!m) return undefined;
  return `line ${m[1]}: ${(m[3] ?? '').trim().replace(/\s+/g, ' ').slice(0, 400)}`;
}
