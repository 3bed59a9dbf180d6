import { existsSync, realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, dirname, isAbsolute, join } from 'node:path';
import { runProcess } from '../../process/process-manager.ts';
import type { SandboxOptions } from '../../process/sandbox.ts';
import { splitCommandLine } from '../../process/command-line.ts';
import type { LineProcessOptions } from '../../process/line-process.ts';
import { ProverError } from '../../shell/prover-session.ts';
import { findExecutable } from '../../process/find-executable.ts';

/** How Arbor runs Pantograph. Defaults come from the environment (see `leanSettingsFromEnv`). */
export interface LeanSettings {
  /**
   * The REPL's command line (default `pantograph-repl`; Pantograph builds it as `.lake/build/bin/repl`): the
   * program, or a wrapper with its arguments (`lake env repl`), never Pantograph's own options.
   */
  pantograph: string;
  /** Modules to import (default `Init`; Pantograph imports nothing unless told). */
  imports: string[];
  /** A Lake project whose `LEAN_PATH` the REPL gets (`lake env printenv LEAN_PATH`), e.g. one with Mathlib. */
  projectDir?: string;
  /** Virtual-memory cap per REPL (`ulimit -v`), megabytes. */
  memoryMb?: number;
  /** Lean options for the REPL, `key=value` (passed as `--key=value`). */
  leanOptions: string[];
  startupMs?: number;
  graceMs?: number;
}

/**
 * Settings from the environment, so `arbor-shell --backend lean` needs no Lean-specific flags:
 * ARBOR_PANTOGRAPH (command line), ARBOR_LEAN_IMPORTS (modules, comma or blank separated),
 * ARBOR_LEAN_PROJECT (Lake project directory), ARBOR_LEAN_MEMORY_MB, ARBOR_LEAN_OPTIONS.
 */
export function leanSettingsFromEnv(env: NodeJS.ProcessEnv = process.env): LeanSettings {
  const list = (v: string | undefined): string[] => (v ?? '').split(/[\s,]+/).filter(Boolean);
  const settings: LeanSettings = {
    pantograph: env.ARBOR_PANTOGRAPH?.trim() || 'pantograph-repl',
    imports: list(env.ARBOR_LEAN_IMPORTS).length > 0 ? list(env.ARBOR_LEAN_IMPORTS) : ['Init'],
    leanOptions: list(env.ARBOR_LEAN_OPTIONS),
  };
  if (env.ARBOR_LEAN_PROJECT) settings.projectDir = env.ARBOR_LEAN_PROJECT;
  const memory = Number(env.ARBOR_LEAN_MEMORY_MB);
  if (Number.isFinite(memory) && memory > 0) settings.memoryMb = memory;
  return settings;
}

/** A prelude for Lean names extra modules: `import Foo` lines or bare module names. */
export function importsFromPrelude(prelude: string | undefined): string[] {
  if (prelude === undefined) return [];
  return prelude.split(/[\n;,]+/).map((l) => l.trim().replace(/^import\s+/, '')).flatMap((l) => l.split(/\s+/)).filter((m) => /^[A-Za-z_][\w.]*$/.test(m));
}

/** `lake env printenv LEAN_PATH` in the project, so the REPL finds the project's compiled libraries. */
export function lakeLeanPath(projectDir: string, timeoutMs = 60_000): Promise<string> {
  const lake = findExecutable('lake');
  if (!lake) return Promise.reject(new ProverError('unavailable', `lake not found on PATH (needed for the Lean project ${projectDir}); install Lean with elan, or unset ARBOR_LEAN_PROJECT`));
  // lake elaborates the project's lakefile (code): sandboxed like the REPL, the project read-only.
  return runProcess({ program: lake, args: ['env', 'printenv', 'LEAN_PATH'], cwd: projectDir, timeoutMs, env: pantographEnv(undefined), sandbox: leanSandbox(projectDir, undefined, [lake]) }).then((r) => {
    if (r.exitCode !== 0) throw new ProverError('unavailable', `lake env printenv LEAN_PATH failed in ${projectDir}: ${(r.stderr || (r.timedOut ? 'timed out' : `exit ${r.exitCode}`)).trim().split('\n').slice(-1)[0] ?? ''}; run \`lake build\` there first`);
    return r.stdout.trim();
  });
}

/** The environment of the REPL, its `--version` probe and `lean` checks: the project's LEAN_PATH when there is one. */
export function pantographEnv(leanPath: string | undefined): NodeJS.ProcessEnv {
  // ELAN_HOME explicitly: inside the sandbox HOME is the process's own directory, not the user's.
  const elan = { ELAN_HOME: process.env.ELAN_HOME ?? join(homedir(), '.elan') };
  return leanPath !== undefined ? { ...process.env, ...elan, LEAN_PATH: leanPath } : { ...process.env, ...elan };
}

/**
 * What Lean's processes (Pantograph, lake, lean) may read in the sandbox: the toolchains (ELAN_HOME),
 * the project, the directories on LEAN_PATH, and the directories of the configured programs.
 */
export function leanSandbox(projectDir: string | undefined, leanPath: string | undefined, programs: readonly string[]): SandboxOptions {
  const elanHome = process.env.ELAN_HOME ?? join(homedir(), '.elan');
  const programDirs = programs.filter((p) => isAbsolute(p) && existsSync(p)).map((p) => dirname(realpathSync(p)));
  // Pantograph finds Lean through LEAN_SYSROOT or the `lean` on PATH (`lean --print-prefix`): both must be
  // visible inside, wherever the toolchain lives (the toolchain's root is the parent of its bin/).
  const sysroot = process.env.LEAN_SYSROOT;
  const lean = findExecutable('lean');
  const toolchain = [...(sysroot !== undefined && isAbsolute(sysroot) && existsSync(sysroot) ? [sysroot] : []), ...(lean !== undefined ? [dirname(dirname(realpathSync(lean))), dirname(lean)] : [])];
  const readOnly = [elanHome, ...(projectDir !== undefined ? [projectDir] : []), ...(leanPath ?? '').split(delimiter).filter((p) => isAbsolute(p)), ...programDirs, ...toolchain];
  return { readOnly, passEnv: ['LEAN_PATH', 'ELAN_HOME', 'ELAN_TOOLCHAIN', 'LEAN_SYSROOT'] };
}

/** The REPL's process: its command line, imports as arguments, Lean options, memory cap via `ulimit -v`. */
export function pantographProcess(settings: LeanSettings, imports: readonly string[], leanPath: string | undefined): LineProcessOptions {
  const [command, ...args] = splitCommandLine(settings.pantograph);
  if (command === undefined) throw new ProverError('unavailable', 'no Pantograph command configured (ARBOR_PANTOGRAPH)');
  const fullArgs = [...args, ...settings.leanOptions.map((o) => `--${o}`), ...imports];
  const options: LineProcessOptions = { command, args: fullArgs, env: pantographEnv(leanPath), sandbox: leanSandbox(settings.projectDir, leanPath, [command]) };
  if (settings.projectDir !== undefined) options.cwd = settings.projectDir;
  if (settings.memoryMb !== undefined) {
    // `sh -c 'ulimit -v KB && exec "$@"' KB cmd args…`: the limit applies to the REPL itself.
    return { ...options, command: '/bin/sh', args: ['-c', 'ulimit -v "$0" && exec "$@"', String(Math.round(settings.memoryMb * 1024)), command, ...fullArgs] };
  }
  return options;
}
