import { LineProcess, LineProcessExited, LineTimeout, describeExit } from '../../process/line-process.ts';
import type { LineProcessOptions } from '../../process/line-process.ts';
import { ProverError } from '../../shell/prover-session.ts';
import { EMPTY_LEAN_SYSROOT, LEAN_SYSROOT_FIX } from './lean-sysroot.ts';

/** The message of a timeout Arbor saw itself (the REPL did not answer), as opposed to Pantograph's interrupt. */
export const SILENT = 'Pantograph did not answer in time';

/**
 * One Pantograph REPL process: waits for `ready.`, then sends `cmd {json}` lines and reads one JSON line
 * per command. Payloads are always `JSON.stringify`d, so no text from a proof can end the line or leave
 * the payload. A process that dies or stays silent past a deadline is reported as `crashed`/`timeout`
 * (the session decides about restart and replay).
 */
export class PantographClient {
  private constructor(private readonly proc: LineProcess) {}

  /**
   * Starts the REPL and waits for `ready.`. Pantograph loads its imports before printing `ready.`, outside
   * any handler (`Main.lean`): a module that cannot be imported ends the process with Lean's
   * `uncaught exception: …` on stderr and exit code 1 — never a JSON answer — and that is reported here.
   */
  static async start(options: LineProcessOptions, startupMs: number, imports: readonly string[] = []): Promise<PantographClient> {
    const proc = new LineProcess(options);
    try {
      for (;;) {
        const line = (await proc.nextLine(startupMs)).trim();
        if (line === 'ready.') return new PantographClient(proc);
      }
    } catch (err) {
      await proc.kill();
      if (err instanceof LineProcessExited) throw new ProverError('unavailable', startupFailure(options.command, imports, err, options.env ?? process.env));
      // Before importing, the repl waits on `lean --print-prefix` without a limit (unless LEAN_SYSROOT is set).
      const sysroot = (options.env ?? process.env).LEAN_SYSROOT === undefined ? '; it first runs `lean --print-prefix` (LEAN_SYSROOT is unset), so a `lean` that hangs holds it too: `arbor-shell --check` tests that `lean`' : '';
      if (err instanceof LineTimeout) throw new ProverError('unavailable', `Pantograph (${options.command}) did not print ready. within ${startupMs} ms (importing ${imports.join(' ') || 'nothing'})${sysroot}`);
      throw err;
    }
  }

  get pid(): number | undefined {
    return this.proc.pid;
  }

  get alive(): boolean {
    return this.proc.alive;
  }

  /** Sends one command; resolves with its JSON answer (which may be `{error, desc}`). */
  async request(cmd: string, payload: Record<string, unknown>, deadlineMs: number): Promise<unknown> {
    const line = `${cmd} ${JSON.stringify(payload)}`;
    try {
      this.proc.write(line);
      // One deadline for the answer: blank lines before it do not extend it.
      const end = Date.now() + deadlineMs;
      let text: string;
      do text = await this.proc.nextLine(Math.max(1, end - Date.now())); while (text.trim() === '');
      try {
        return JSON.parse(text) as unknown;
      } catch {
        throw new ProverError('crashed', `Pantograph answered with something that is not JSON: ${text.slice(0, 80)}`);
      }
    } catch (err) {
      if (err instanceof LineTimeout) throw new ProverError('timeout', SILENT);
      if (err instanceof LineProcessExited) throw new ProverError('crashed', `Pantograph ${describeExit(err.exit, err.stderrTail)}`);
      throw err;
    }
  }

  async kill(): Promise<void> {
    await this.proc.kill();
  }
}

/** Lean's runtime prints an escaped exception as `uncaught exception: MESSAGE` and exits with code 1. */
function startupFailure(command: string, imports: readonly string[], err: LineProcessExited, env: NodeJS.ProcessEnv): string {
  const stderr = err.stderrTail;
  const at = stderr.indexOf('uncaught exception:');
  if (at < 0) return `Pantograph (${command}) did not start: ${describeExit(err.exit, stderr)}`;
  const message = stderr.slice(at + 'uncaught exception:'.length).trim();
  const first = message.split('\n')[0] ?? '';
  if (/^Options cannot be parsed/.test(first)) return `Pantograph refused its Lean options (ARBOR_LEAN_OPTIONS, key=value each): ${first}`;
  // `Main.lean` runs `Lean.findSysroot` (`lean --print-prefix` unless LEAN_SYSROOT) before anything else;
  // `IO.Process.run` throws "process 'lean' exited with code N" when it fails (255: not executable).
  if (/^process 'lean' exited with code/.test(first)) {
    const said = message.split('\n').slice(1).map((l) => l.trim()).filter((l) => l !== '' && l !== 'stderr:')[0];
    return `Pantograph could not find Lean: at start-up it runs \`lean --print-prefix\` (Lean.findSysroot), which failed (${first}${said ? `: ${said}` : ''}): ${LEAN_SYSROOT_FIX}`;
  }
  // Lean's library was written by another Lean than the one Pantograph is built with.
  if (/^failed to read file '.*', (incompatible|invalid) header/.test(first)) {
    return `Pantograph and the Lean it found are of different versions (${first}): ${LEAN_SYSROOT_FIX}`;
  }
  // Lean's own modules are missing from the system root (a `lean` that is not a toolchain's, a wrong LEAN_SYSROOT),
  // whichever import needed them: Mathlib imports `Init` too, and only the system root holds it.
  if (/^unknown module prefix '(Init|Lean|Std)'/.test(first)) {
    if (env.LEAN_SYSROOT === '') return `Pantograph could not find Lean's own library: ${first}: ${EMPTY_LEAN_SYSROOT}`;
    const paths = message.split('\n').slice(1).map((l) => l.trim()).filter((l) => l.startsWith('/')).slice(0, 3);
    return `Pantograph could not find Lean's own library: ${first} (searched ${paths.join(', ')}): ${LEAN_SYSROOT_FIX}`;
  }
  const paths = message.split('\n').slice(1).map((l) => l.trim()).filter((l) => l.startsWith('/')).slice(0, 3);
  const where = paths.length > 0 ? ` (searched ${paths.join(', ')})` : '';
  return `Pantograph could not import ${imports.join(' ') || 'its modules'}: ${first}${where}; check the Lean imports (ARBOR_LEAN_IMPORTS, the prelude) and, for a Lake project, set ARBOR_LEAN_PROJECT to it after \`lake build\``;
}
