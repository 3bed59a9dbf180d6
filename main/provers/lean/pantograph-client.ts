import { LineProcess, LineProcessExited, LineTimeout, describeExit } from '../isabelle/line-process.ts';
import type { LineProcessOptions } from '../isabelle/line-process.ts';
import { ProverError } from '../../shell/prover-session.ts';
import { isPantographError } from './pantograph-protocol.ts';

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

  static async start(options: LineProcessOptions, startupMs: number): Promise<PantographClient> {
    const proc = new LineProcess(options);
    try {
      for (;;) {
        const line = (await proc.nextLine(startupMs)).trim();
        if (line === 'ready.') return new PantographClient(proc);
        if (line === '') continue;
        // Pantograph prints a JSON error instead of `ready.` when an import fails.
        let parsed: unknown;
        try { parsed = JSON.parse(line); } catch { parsed = undefined; }
        if (isPantographError(parsed)) throw new ProverError('unavailable', `Pantograph could not start: ${parsed.error}: ${parsed.desc}`);
      }
    } catch (err) {
      await proc.kill();
      if (err instanceof ProverError) throw err;
      if (err instanceof LineProcessExited) throw new ProverError('unavailable', `Pantograph (${options.command}) did not start: ${describeExit(err.exit, err.stderrTail)}`);
      if (err instanceof LineTimeout) throw new ProverError('unavailable', `Pantograph (${options.command}) did not print ready. within ${startupMs} ms`);
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
      let text: string;
      do text = await this.proc.nextLine(deadlineMs); while (text.trim() === '');
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
