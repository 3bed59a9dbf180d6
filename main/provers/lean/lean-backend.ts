import type { BackendCheck, ProverBackend, ProverSession, SessionOptions } from '../../shell/prover-session.ts';
import { ProverError } from '../../shell/prover-session.ts';
import { findExecutable, probeVersion } from '../../process/find-executable.ts';
import { importsFromPrelude, lakeLeanPath, leanSettingsFromEnv, pantographEnv, pantographProcess } from './lean-config.ts';
import type { LeanSettings } from './lean-config.ts';
import { checkLeanScript } from './lean-check.ts';
import { PantographSession } from './pantograph-session.ts';
import { MIN_PANTOGRAPH, PANTOGRAPH_FIX, formatVersion } from './pantograph-version.ts';
import { describeProbe, probePantograph } from './probe-pantograph.ts';
import { findLeanSysroot, toolchainProblem } from './lean-sysroot.ts';
import type { PantographProbe } from './probe-pantograph.ts';
import { splitCommandLine } from '../../process/command-line.ts';

const INSTALL_LEAN = 'install Lean 4 with elan (the Lean toolchain manager), which provides `lean` and `lake`';

/** The Lean backend over Pantograph with the given settings (the exported `leanBackend` reads them from the environment). */
export function createLeanBackend(settings: LeanSettings): ProverBackend {
  let leanPath: Promise<string> | undefined;
  // One `--version` probe per backend once it succeeded: a refused or missing REPL is probed again next time.
  let probed: Promise<PantographProbe> | undefined;
  const probe = async (path: string | undefined): Promise<PantographProbe> => {
    probed ??= probePantograph(settings.pantograph, probeOptions(settings, path));
    const result = await probed;
    if (result.problem) probed = undefined;
    return result;
  };
  return {
    id: 'lean',
    check: () => checkLean(settings),
    async open(options: SessionOptions): Promise<ProverSession> {
      const command = commandOf(settings);
      if (command === undefined || !findExecutable(command)) {
        throw new ProverError('unavailable', `Pantograph not found: '${command ?? ''}' is not on PATH; ${PANTOGRAPH_FIX}`);
      }
      if (settings.projectDir !== undefined) leanPath ??= lakeLeanPath(settings.projectDir);
      const path = leanPath ? await leanPath : undefined;
      const version = await probe(path);
      if (version.problem) throw new ProverError('unavailable', version.problem);
      const imports = [...new Set([...settings.imports, ...importsFromPrelude([options.prelude, options.untrustedPrelude].filter(Boolean).join('\n'))])];
      const timeoutMs = options.timeoutMs;
      const graceMs = settings.graceMs ?? 10_000;
      return PantographSession.open({
        process: pantographProcess(settings, imports, path),
        imports,
        timeoutMs,
        graceMs,
        ...(settings.startupMs !== undefined ? { startupMs: settings.startupMs } : {}),
        ...(options.printMode !== undefined ? { printMode: options.printMode } : {}),
        checkScript: async (script, theorem) => {
          // Where Lean is installed, its kernel checks every finished proof's script (through the process manager).
          const lean = findExecutable('lean');
          if (!lean) return undefined;
          return checkLeanScript(script, theorem, {
            lean,
            env: pantographEnv(path),
            ...(settings.projectDir !== undefined ? { cwd: settings.projectDir } : {}),
            timeoutMs: timeoutMs + graceMs,
          });
        },
      });
    },
  };
}

export const leanBackend: ProverBackend = createLeanBackend(leanSettingsFromEnv());

function commandOf(settings: LeanSettings): string | undefined {
  try {
    return splitCommandLine(settings.pantograph)[0];
  } catch {
    return undefined;
  }
}

function probeOptions(settings: LeanSettings, leanPath: string | undefined): { env: NodeJS.ProcessEnv; cwd?: string } {
  return { env: pantographEnv(leanPath), ...(settings.projectDir !== undefined ? { cwd: settings.projectDir } : {}) };
}

/** Which of `lean`, `lake` and Pantograph are found, their versions (Pantograph's gated), and the exact fixes. */
export async function checkLean(settings: LeanSettings): Promise<BackendCheck> {
  return (await inspectLean(settings)).check;
}

/** `checkLean`, plus the Pantograph executable and the version its `--version` reported (for the detection table). */
export async function inspectLean(settings: LeanSettings): Promise<{ check: BackendCheck; pantograph: { name: string; path?: string; version?: string } }> {
  const details: string[] = [];
  const problems: string[] = [];
  const lean = findExecutable('lean');
  const lake = findExecutable('lake');
  if (lean) details.push(`lean: ${lean} (${(await probeVersion(lean, ['--version'])) ?? 'version unknown'}); finished proofs are re-checked with it`);
  else problems.push(`lean not found on PATH: ${INSTALL_LEAN} (Pantograph runs it at start-up unless LEAN_SYSROOT is set, and Arbor checks every finished proof's script with it)`);
  if (lake) details.push(`lake: ${lake} (${(await probeVersion(lake, ['--version'])) ?? 'version unknown'})`);
  else problems.push(`lake not found on PATH: ${INSTALL_LEAN}`);
  const command = commandOf(settings) ?? '';
  const path = command ? findExecutable(command) : undefined;
  const pantograph: { name: string; path?: string; version?: string } = { name: command || 'pantograph-repl', ...(path ? { path } : {}) };
  let available = false;
  if (path) {
    const probe = await probePantograph(settings.pantograph, probeOptions(settings, undefined));
    if (probe.version) pantograph.version = formatVersion(probe.version);
    details.push(`pantograph: ${path} (${describeProbe(probe)}; Arbor speaks to ${MIN_PANTOGRAPH} … 0.3.x)`);
    if (probe.problem) problems.push(probe.problem);
    else {
      // `--version` answers without Lean; the REPL itself needs Lean's library at start-up (`lean-sysroot.ts`).
      const sysroot = await findLeanSysroot(probeOptions(settings, undefined));
      if (sysroot.sysroot !== undefined) details.push(`Lean library for Pantograph: ${sysroot.sysroot}/lib/lean (from ${sysroot.source}${sysroot.leanVersion ? `, Lean ${sysroot.leanVersion}` : ''})`);
      const problem = sysroot.problem ?? toolchainProblem(probe.toolchain, sysroot);
      if (problem) problems.push(problem);
      else available = true;
    }
  } else problems.push(`Pantograph not found ('${command}'): ${PANTOGRAPH_FIX}`);
  details.push(`imports: ${settings.imports.join(' ')}${settings.projectDir ? `; project ${settings.projectDir}` : ''}${settings.memoryMb ? `; memory cap ${settings.memoryMb} MB` : ''}`);
  if (settings.projectDir !== undefined && !lake) problems.push('ARBOR_LEAN_PROJECT is set but lake is missing, so LEAN_PATH cannot be computed');
  return { check: { backend: 'lean', available, details, problems }, pantograph };
}
