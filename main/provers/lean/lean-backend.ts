import type { BackendCheck, ProverBackend, ProverSession, SessionOptions } from '../../shell/prover-session.ts';
import { ProverError } from '../../shell/prover-session.ts';
import { findExecutable, probeVersion } from './find-executable.ts';
import { importsFromPrelude, lakeLeanPath, leanSettingsFromEnv, pantographProcess } from './lean-config.ts';
import type { LeanSettings } from './lean-config.ts';
import { PantographSession } from './pantograph-session.ts';
import { splitCommandLine } from '../../process/command-line.ts';

const INSTALL_LEAN = 'install Lean 4 with elan (the Lean toolchain manager), which provides `lean` and `lake`';
const INSTALL_PANTOGRAPH = 'build Pantograph with the same Lean version (`lake build repl` in a Pantograph checkout) and put `.lake/build/bin/repl` on PATH as `pantograph-repl`, or set ARBOR_PANTOGRAPH to its path';

/** The Lean backend over Pantograph with the given settings (the exported `leanBackend` reads them from the environment). */
export function createLeanBackend(settings: LeanSettings): ProverBackend {
  let leanPath: Promise<string> | undefined;
  return {
    id: 'lean',
    check: () => checkLean(settings),
    async open(options: SessionOptions): Promise<ProverSession> {
      const command = splitCommandLine(settings.pantograph)[0];
      if (command === undefined || !findExecutable(command)) {
        throw new ProverError('unavailable', `Pantograph not found: '${command ?? ''}' is not on PATH; ${INSTALL_PANTOGRAPH}`);
      }
      if (settings.projectDir !== undefined) leanPath ??= lakeLeanPath(settings.projectDir);
      const path = leanPath ? await leanPath : undefined;
      const imports = [...new Set([...settings.imports, ...importsFromPrelude([options.prelude, options.untrustedPrelude].filter(Boolean).join('\n'))])];
      return PantographSession.open({
        process: pantographProcess(settings, imports, path),
        imports,
        timeoutMs: options.timeoutMs,
        ...(settings.graceMs !== undefined ? { graceMs: settings.graceMs } : {}),
        ...(settings.startupMs !== undefined ? { startupMs: settings.startupMs } : {}),
        ...(options.printMode !== undefined ? { printMode: options.printMode } : {}),
      });
    },
  };
}

export const leanBackend: ProverBackend = createLeanBackend(leanSettingsFromEnv());

/** Which of `lean`, `lake` and Pantograph are found, their versions, and the exact fixes. */
export async function checkLean(settings: LeanSettings): Promise<BackendCheck> {
  const details: string[] = [];
  const problems: string[] = [];
  const lean = findExecutable('lean');
  const lake = findExecutable('lake');
  if (lean) details.push(`lean: ${lean} (${(await probeVersion(lean, ['--version'])) ?? 'version unknown'})`);
  else problems.push(`lean not found on PATH: ${INSTALL_LEAN}`);
  if (lake) details.push(`lake: ${lake} (${(await probeVersion(lake, ['--version'])) ?? 'version unknown'})`);
  else problems.push(`lake not found on PATH: ${INSTALL_LEAN}`);
  const command = splitCommandLine(settings.pantograph)[0] ?? '';
  const pantograph = command ? findExecutable(command) : undefined;
  let available = false;
  if (pantograph) {
    const version = await probeVersion(pantograph, [...splitCommandLine(settings.pantograph).slice(1), '--version']);
    details.push(`pantograph: ${pantograph} (${version ?? 'version unknown'}; Arbor targets 0.3.x, reads 0.2.x)`);
    available = version !== undefined;
    if (!version) problems.push(`${pantograph} --version gave no answer: is it Pantograph's repl? ${INSTALL_PANTOGRAPH}`);
  } else problems.push(`Pantograph not found ('${command}'): ${INSTALL_PANTOGRAPH}`);
  details.push(`imports: ${settings.imports.join(' ')}${settings.projectDir ? `; project ${settings.projectDir}` : ''}${settings.memoryMb ? `; memory cap ${settings.memoryMb} MB` : ''}`);
  if (settings.projectDir !== undefined && !lake) problems.push('ARBOR_LEAN_PROJECT is set but lake is missing, so LEAN_PATH cannot be computed');
  return { backend: 'lean', available, details, problems };
}
