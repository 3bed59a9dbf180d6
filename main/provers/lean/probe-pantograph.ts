import { runProcess } from '../../process/process-manager.ts';
import { splitCommandLine } from '../../process/command-line.ts';
import { PANTOGRAPH_FIX, formatVersion, parsePantographVersion, versionProblem } from './pantograph-version.ts';
import type { Version } from './pantograph-version.ts';

export interface PantographProbe {
  /** The command that was run (for messages). */
  command: string;
  version?: Version;
  /** The Lean toolchain Pantograph says it was built with (`0.3.7/v4.21.0` → `v4.21.0`), when it says. */
  toolchain?: string;
  /** Why Arbor will not use it (not found, no version, unsupported version), with the exact fix. */
  problem?: string;
}

/**
 * Runs the configured Pantograph command line with `--version` appended, in the REPL's environment and
 * working directory. The configured words are kept as they are (a wrapper such as `lake env repl` stays
 * in front), and nothing else is added: Pantograph answers `--version` only when it is its sole argument
 * (`Main.lean`: `if args == ["--version"]`); with Lean options or imports beside it, it would start a REPL.
 */
export async function probePantograph(commandLine: string, options: { env?: NodeJS.ProcessEnv; cwd?: string; timeoutMs?: number } = {}): Promise<PantographProbe> {
  let words: string[];
  try {
    words = splitCommandLine(commandLine);
  } catch (err) {
    return { command: commandLine, problem: `the Pantograph command line '${commandLine}' is not usable: ${(err as Error).message}` };
  }
  const [program, ...args] = words;
  if (program === undefined) return { command: commandLine, problem: `no Pantograph command configured: ${PANTOGRAPH_FIX}` };
  const shown = [...words, '--version'].join(' ');
  let r;
  try {
    r = await runProcess({ program, args: [...args, '--version'], sandbox: false /* a version probe, no untrusted text */, timeoutMs: options.timeoutMs ?? 20_000, ...(options.env ? { env: options.env } : {}), ...(options.cwd ? { cwd: options.cwd } : {}) });
  } catch (err) {
    return { command: shown, problem: `\`${shown}\` could not be run (${(err as Error).message}): ${PANTOGRAPH_FIX}` };
  }
  const version = r.exitCode === 0 ? parsePantographVersion(r.stdout) : undefined;
  if (!version) {
    const said = `${r.stdout}\n${r.stderr}`.split('\n').map((l) => l.trim()).find((l) => l !== '') ?? (r.timedOut ? 'no answer in time' : `exit ${String(r.exitCode)}`);
    return {
      command: shown,
      problem: `\`${shown}\` printed no Pantograph version (${said.slice(0, 200)}): the command must be Pantograph's repl alone (Lean options go to ARBOR_LEAN_OPTIONS, imports to ARBOR_LEAN_IMPORTS); ${PANTOGRAPH_FIX}`,
    };
  }
  const problem = versionProblem(version);
  const toolchain = /^\S+\/(v?\d+\.\d+\.\d+[\w.+-]*)\s*$/m.exec(r.stdout.trim().split('\n')[0] ?? '')?.[1];
  return { command: shown, version, ...(toolchain ? { toolchain } : {}), ...(problem ? { problem } : {}) };
}

export const describeProbe = (p: PantographProbe): string => (p.version ? `Pantograph ${formatVersion(p.version)}` : 'Pantograph, version unknown');
