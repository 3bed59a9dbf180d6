import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import type { BackendId } from '../shell/prover-session.ts';
import { Shell } from '../shell/shell.ts';
import { recordTranscript } from '../shell/transcript-writer.ts';
import { createProverEngineFactory, loadBackend } from '../supervisor/engine-factory.ts';
import type { EngineFactory } from '../supervisor/engine-factory.ts';
import { serveStdio } from './stdio-server.ts';

const BACKENDS: readonly BackendId[] = ['coq', 'eq', 'lean', 'isabelle'];

export const ARBOR_SHELL_USAGE = `Usage: arbor-shell [options]
Serves Arbor's channel protocol on stdin/stdout: one request per line (or separated by ';'),
one JSON response per line. Diagnostics go to stderr; exit status 0 at end of input.

Options:
  --backend NAME      prover backend: coq (default), eq, lean, isabelle
  --prelude FILE      prelude for every channel (Coq: vernacular such as Require Import;
                      eq: an AIM ARTICLE preamble)
  --timeout SECONDS   default limit of HAMMER, END and CRUSH (default 10)
  --transcript FILE   append every request and response to FILE as JSON lines
  --pool N            prover sessions kept warm for NEW_CHANNEL (default 1)
  --check             report which backends are installed, what is missing and how to fix it
  -h, --help          this text`;

export async function runArborShell(argv: string[]): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        backend: { type: 'string', default: 'coq' },
        prelude: { type: 'string' },
        timeout: { type: 'string', default: '10' },
        transcript: { type: 'string' },
        pool: { type: 'string', default: '1' },
        check: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
      strict: true,
    }));
  } catch (err) {
    process.stderr.write(`arbor-shell: ${(err as Error).message}\n${ARBOR_SHELL_USAGE}\n`);
    return 2;
  }
  if (values.help) {
    process.stdout.write(`${ARBOR_SHELL_USAGE}\n`);
    return 0;
  }
  if (values.check) return runCheck();
  const backend = values.backend as BackendId;
  if (!BACKENDS.includes(backend)) return usageError(`unknown backend '${values.backend}' (coq, eq, lean, isabelle)`);
  const timeoutSeconds = Number(values.timeout);
  if (!(timeoutSeconds > 0)) return usageError(`--timeout must be a positive number of seconds`);
  const poolSize = Number(values.pool);
  if (!Number.isInteger(poolSize) || poolSize < 0 || poolSize > 16) return usageError('--pool must be an integer from 0 to 16');
  let prelude: string | undefined;
  if (values.prelude !== undefined) {
    try {
      prelude = await readFile(values.prelude, 'utf8');
    } catch (err) {
      return usageError(`cannot read prelude: ${(err as Error).message}`);
    }
  }

  let factory: EngineFactory;
  try {
    const prover = await loadBackend(backend);
    factory = createProverEngineFactory(prover, { backend, timeoutMs: timeoutSeconds * 1000, poolSize, ...(prelude !== undefined ? { prelude } : {}) });
  } catch (err) {
    process.stderr.write(`arbor-shell: backend ${backend}: ${(err as Error).message}\n`);
    return 1;
  }
  const shell = new Shell({ createEngine: (channel, channelPrelude) => factory.createEngine(channel, channelPrelude) });
  const transcript = values.transcript !== undefined ? recordTranscript(shell, values.transcript) : undefined;
  const stop = async (): Promise<void> => {
    await shell.close();
    await factory.dispose();
    await transcript?.close();
  };
  const onSignal = (): void => {
    void stop().finally(() => process.exit(130));
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  await serveStdio(shell, process.stdin, process.stdout);
  await stop();
  return 0;
}

async function runCheck(): Promise<number> {
  let allOk = true;
  for (const id of BACKENDS) {
    if (id === 'isabelle') {
      process.stdout.write(`isabelle: external process speaking the channel protocol (configure its command line)\n`);
      continue;
    }
    try {
      const backend = await loadBackend(id);
      const check = await backend.check();
      process.stdout.write(`${id}: ${check.available ? 'available' : 'NOT AVAILABLE'}\n`);
      for (const d of check.details) process.stdout.write(`  ${d}\n`);
      for (const p of check.problems) process.stdout.write(`  problem: ${p}\n`);
      if (id === 'coq' && !check.available) allOk = false;
    } catch (err) {
      process.stdout.write(`${id}: NOT AVAILABLE\n  problem: ${(err as Error).message}\n`);
    }
  }
  return allOk ? 0 : 1;
}

function usageError(message: string): number {
  process.stderr.write(`arbor-shell: ${message}\n`);
  return 2;
}
