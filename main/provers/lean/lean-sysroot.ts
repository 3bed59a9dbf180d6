import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { runProcess } from '../../process/process-manager.ts';

/**
 * What to do when Pantograph cannot find its Lean, said the same way in `--check`, on the Provers page and
 * in the start-up error.
 */
export const LEAN_SYSROOT_FIX = 'put the `lean` of the toolchain Pantograph was built with on PATH (with elan: `elan toolchain install` the version in Pantograph\'s lean-toolchain, then `elan default` it, or set ARBOR_LEAN_PROJECT to a Lake project whose lean-toolchain names it), or set LEAN_SYSROOT to that toolchain\'s directory (e.g. ~/.elan/toolchains/leanprover--lean4---v4.21.0)';

/** LEAN_SYSROOT set to nothing: Pantograph takes that as Lean's system root and finds no library. */
export const EMPTY_LEAN_SYSROOT = 'LEAN_SYSROOT is set but empty: Pantograph then takes the empty path as Lean\'s system root (Lean.findSysroot runs `lean --print-prefix` only when LEAN_SYSROOT is unset) and finds no library: unset LEAN_SYSROOT, or set it to the toolchain\'s directory (e.g. ~/.elan/toolchains/leanprover--lean4---v4.21.0)';

export interface LeanSysroot {
  /** The directory Pantograph will read Lean's own library from (`<sysroot>/lib/lean`). */
  sysroot?: string;
  /** Where it came from: LEAN_SYSROOT or `lean --print-prefix`. */
  source?: 'LEAN_SYSROOT' | 'lean --print-prefix';
  /** The version `lean --version` reports (`4.21.0`), when `lean` runs. */
  leanVersion?: string;
  /** Why Pantograph would die at start-up, with the fix. */
  problem?: string;
}

/**
 * Finds Lean's system root the way Pantograph's repl does at start-up, before anything else (`Main.lean`:
 * `Lean.initSearchPath (← Lean.findSysroot)`, outside any handler): LEAN_SYSROOT, else the output of
 * `lean --print-prefix` (`Lean.findSysroot`, leanprover/lean4 `src/Lean/Util/Path.lean`). When that fails the
 * repl dies with an uncaught exception, so Arbor asks the same question first and names the fix. Run in the
 * REPL's environment and working directory: elan's `lean` picks the toolchain of the Lake project it runs in.
 */
export async function findLeanSysroot(options: { env?: NodeJS.ProcessEnv; cwd?: string; timeoutMs?: number } = {}): Promise<LeanSysroot> {
  const env = options.env ?? process.env;
  const fromEnv = env.LEAN_SYSROOT;
  // Lean's `IO.getEnv` is `some ""` for a variable set to nothing: the repl then takes "" as the system root
  // and never runs `lean --print-prefix`.
  if (fromEnv === '') return { source: 'LEAN_SYSROOT', problem: EMPTY_LEAN_SYSROOT };
  if (fromEnv !== undefined) {
    // The toolchain's own `lean` says which Lean wrote its library.
    const leanVersion = await leanVersionOf(join(fromEnv, 'bin', 'lean'), env, options.cwd, options.timeoutMs);
    return withLibrary({ sysroot: fromEnv, source: 'LEAN_SYSROOT', ...(leanVersion ? { leanVersion } : {}) });
  }
  const leanVersion = await leanVersionOf('lean', env, options.cwd, options.timeoutMs);
  let r;
  try {
    r = await runProcess({ program: 'lean', args: ['--print-prefix'], env, timeoutMs: options.timeoutMs ?? 20_000, ...(options.cwd ? { cwd: options.cwd } : {}) });
  } catch (err) {
    return { problem: `Pantograph runs \`lean --print-prefix\` at start-up to find Lean's library, and \`lean\` could not be run (${(err as Error).message}): ${LEAN_SYSROOT_FIX}` };
  }
  // The process manager reports a program that could not be started as no exit code and no timeout.
  if (r.exitCode === null && !r.timedOut) return { problem: `Pantograph runs \`lean --print-prefix\` at start-up to find Lean's library, and \`lean\` could not be run (not on PATH${env.PATH ? '' : ', PATH is empty'}): ${LEAN_SYSROOT_FIX}` };
  const prefix = r.stdout.trim();
  if (r.exitCode !== 0 || prefix === '') {
    const said = `${r.stderr}\n${r.stdout}`.split('\n').map((l) => l.trim()).find((l) => l !== '') ?? (r.timedOut ? 'no answer in time' : `exit ${String(r.exitCode)}`);
    return { problem: `Pantograph runs \`lean --print-prefix\` at start-up to find Lean's library, and it failed (${said.slice(0, 200)}): ${LEAN_SYSROOT_FIX}` };
  }
  return withLibrary({ sysroot: prefix, source: 'lean --print-prefix', ...(leanVersion ? { leanVersion } : {}) });
}

function withLibrary(found: LeanSysroot): LeanSysroot {
  const init = join(found.sysroot as string, 'lib', 'lean', 'Init.olean');
  if (existsSync(init)) return found;
  return { ...found, problem: `Lean's library is not where Pantograph will look for it: ${init} does not exist (system root ${found.sysroot} from ${found.source}): ${LEAN_SYSROOT_FIX}` };
}

/** `Lean (version 4.21.0, x86_64-unknown-linux-gnu, commit …, Release)` → `4.21.0`. */
export function parseLeanVersion(output: string): string | undefined {
  return /\bversion (\d+\.\d+\.\d+(?:-[\w.]+)?)/.exec(output)?.[1];
}

async function leanVersionOf(lean: string, env: NodeJS.ProcessEnv, cwd: string | undefined, timeoutMs = 20_000): Promise<string | undefined> {
  try {
    const r = await runProcess({ program: lean, args: ['--version'], env, timeoutMs, ...(cwd ? { cwd } : {}) });
    return r.exitCode === 0 ? parseLeanVersion(r.stdout) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A Lean of another version than Pantograph's cannot serve it: its `.olean` files are refused ("incompatible
 * header"). Known only when Pantograph's `--version` names its toolchain (`0.3.7/v4.21.0`, later builds).
 */
export function toolchainProblem(pantographToolchain: string | undefined, sysroot: LeanSysroot): string | undefined {
  if (pantographToolchain === undefined || sysroot.leanVersion === undefined) return undefined;
  const wanted = pantographToolchain.replace(/^v/, '');
  if (wanted === sysroot.leanVersion) return undefined;
  return `Pantograph is built with Lean ${wanted}, but the Lean it will use (${sysroot.source === 'LEAN_SYSROOT' ? `LEAN_SYSROOT=${sysroot.sysroot ?? ''}` : '`lean` on PATH'}) is ${sysroot.leanVersion}; Lean refuses the library of another version ("incompatible header"): ${LEAN_SYSROOT_FIX}`;
}
