import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import type { BackendId } from '../shell/prover-session.ts';
import { DEFAULT_MAX_CHANNELS, Shell } from '../shell/shell.ts';
import { recordTranscript } from '../shell/transcript-writer.ts';
import { loadBackend, type EngineFactory } from '../supervisor/engine-factory.ts';
import { composeBackends, isTimeoutSeconds, MAX_TIMEOUT_SECONDS } from '../supervisor/compose-backends.ts';
import { checkServerConfig } from '../provers/isabelle/isa-repl-server.ts';
import type { IsabelleServerConfig } from '../provers/isabelle/isa-repl-server.ts';
import { detectBackends, formatDetections, formatSandbox } from '../supervisor/backend-detection.ts';
import { sandboxStatus } from '../process/process-manager.ts';
import { describeSandbox } from '../../shared/settings/sandbox-status.ts';
import { serveStdio } from './stdio-server.ts';

const BACKENDS: readonly BackendId[] = ['coq', 'eq', 'lean', 'isabelle', 'external'];

export const ARBOR_SHELL_USAGE = `Usage: arbor-shell [options]
Serves Arbor's channel protocol on stdin/stdout: one request per line (or separated by ';'),
one JSON response per line. Diagnostics go to stderr; exit status 0 at end of input.

Options:
  --backend NAME      prover backend: coq (default), eq, lean, isabelle, external
                      (lean reads ARBOR_PANTOGRAPH, ARBOR_LEAN_IMPORTS, ARBOR_LEAN_PROJECT and
                      ARBOR_LEAN_MEMORY_MB from the environment)
  --isabelle-address HOST:PORT
                      isabelle: a running Isa-REPL server (github.com/xqyww123/Isa-REPL) with
                      Isabelle/Minilang installed (default: ARBOR_ISABELLE_ADDRESS)
  --isabelle-server "CMD …"
                      isabelle: the command that starts one, e.g. /path/to/Isa-REPL/repl_server.sh;
                      Arbor appends ADDR BASE_SESSION OUTPUT_DIR (default: ARBOR_ISABELLE_SERVER)
  --isabelle-session NAME
                      isabelle: the server's base session and theory qualifier (default HOL)
  --command "CMD …"   external: a process that already speaks the channel protocol (one per channel)
  --prelude FILE      prelude for every channel (Coq: vernacular such as Require Import;
                      eq: an AIM ARTICLE preamble; isabelle: theory names to import)
  --timeout SECONDS   default limit of HAMMER, END and CRUSH (default 10)
  --transcript FILE   append every request and response to FILE as JSON lines
  --pool N            prover sessions kept warm for NEW_CHANNEL (default 1)
  --prover-memory MB  address-space cap of each prover process (default 4096; 0 = none)
  --max-channels N    open channels at most, each with its own prover (default: the number of
                      cores, at least 4); NEW_CHANNEL beyond answers an error
  --advisor HOST:PORT eq: an AIMLEAP advisor (TCP) that HAMMER consults first, with timeouts
  --check             report which backends are installed, what is missing and how to fix it
  -h, --help          this text`;

export async function runArborShell(argv: string[]): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        backend: { type: 'string', default: 'coq' },
        command: { type: 'string' },
        'isabelle-address': { type: 'string' },
        'isabelle-server': { type: 'string' },
        'isabelle-session': { type: 'string' },
        prelude: { type: 'string' },
        timeout: { type: 'string', default: '10' },
        transcript: { type: 'string' },
        pool: { type: 'string', default: '1' },
        'max-channels': { type: 'string' },
        'prover-memory': { type: 'string' },
        advisor: { type: 'string' },
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
  if (!BACKENDS.includes(backend)) return usageError(`unknown backend '${values.backend}' (${BACKENDS.join(', ')})`);
  const timeoutSeconds = Number(values.timeout);
  if (!isTimeoutSeconds(timeoutSeconds)) return usageError(`--timeout must be a number of seconds in (0, ${MAX_TIMEOUT_SECONDS}]`);
  const poolSize = Number(values.pool);
  if (!Number.isInteger(poolSize) || poolSize < 0 || poolSize > 16) return usageError('--pool must be an integer from 0 to 16');
  if (values.advisor !== undefined && !/^[^:\s]+:\d{1,5}$/.test(values.advisor)) return usageError('--advisor expects HOST:PORT');
  const maxChannels = values['max-channels'] === undefined ? DEFAULT_MAX_CHANNELS : Number(values['max-channels']);
  if (!Number.isInteger(maxChannels) || maxChannels < 1 || maxChannels > 1024) return usageError('--max-channels must be an integer from 1 to 1024');
  const memoryLimitMb = values['prover-memory'] === undefined ? undefined : Number(values['prover-memory']);
  if (memoryLimitMb !== undefined && (!Number.isInteger(memoryLimitMb) || memoryLimitMb < 0 || (memoryLimitMb > 0 && memoryLimitMb < 256))) return usageError('--prover-memory must be 0 (no cap) or at least 256 (MB)');
  let prelude: string | undefined;
  if (values.prelude !== undefined) {
    try {
      prelude = await readFile(values.prelude, 'utf8');
    } catch (err) {
      return usageError(`cannot read prelude: ${(err as Error).message}`);
    }
  }

  let factory: EngineFactory;
  if (backend === 'isabelle') {
    if (values.command !== undefined) return usageError('--command is for --backend external (a process that speaks the channel protocol); the isabelle backend talks to an Isa-REPL server: --isabelle-address or --isabelle-server');
    const problem = checkServerConfig(isabelleServer(values));
    if (problem !== undefined) return usageError(problem);
  }
  if (backend === 'external' && values.command === undefined) return usageError('--backend external needs --command "…" (a process that speaks the channel protocol)');
  try {
    // The one backend composition (supervisor/compose-backends.ts), as the workbench, arbor-mcp and batch use it.
    factory = (await composeBackends({
      backend, timeoutMs: timeoutSeconds * 1000, poolSize,
      ...(memoryLimitMb !== undefined ? { memoryLimitMb } : {}),
      ...(prelude !== undefined ? { prelude } : {}),
      ...(values.advisor !== undefined ? { advisor: values.advisor } : {}),
      ...(backend === 'isabelle' ? { isabelle: isabelleServer(values) } : {}),
      ...(values.command !== undefined ? { command: values.command } : {}),
    })).factory as EngineFactory;
  } catch (err) {
    process.stderr.write(`arbor-shell: backend ${backend}: ${(err as Error).message}\n`);
    return 1;
  }
  const shell = new Shell({ createEngine: (channel, channelPrelude, environment) => factory.createEngine(channel, channelPrelude, environment), maxChannels });
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
  // Never silently unsandboxed: one line on stderr when provers run with the policy alone.
  const sandbox = sandboxStatus();
  if (sandbox.state !== 'on') process.stderr.write(`arbor-shell: ${describeSandbox(sandbox)}\n`);
  await serveStdio(shell, process.stdin, process.stdout);
  await stop();
  return 0;
}

/** Which backends are installed, with versions, what is missing and the fix; exit 1 if Coq is missing. */
async function runCheck(): Promise<number> {
  const detections = await detectBackends();
  process.stdout.write(`${formatDetections(detections)}\n`);
  process.stdout.write(`${formatSandbox(sandboxStatus())}\n`);
  // The Coq backend knows more than its executables: CoqHammer and the ATPs it can use.
  try {
    const check = await (await loadBackend('coq')).check();
    for (const d of check.details) process.stdout.write(`  coq: ${d}\n`);
    for (const p of check.problems) process.stdout.write(`  coq problem: ${p}\n`);
  } catch (err) {
    process.stdout.write(`  coq problem: ${(err as Error).message}\n`);
  }
  return detections.find((d) => d.backend === 'coq')?.found ? 0 : 1;
}

/** Where the Isa-REPL server is: the flags, else the environment; the flags win. */
function isabelleServer(values: { 'isabelle-address'?: string; 'isabelle-server'?: string; 'isabelle-session'?: string }): IsabelleServerConfig {
  const address = values['isabelle-address'] ?? (values['isabelle-server'] === undefined ? nonEmpty(process.env.ARBOR_ISABELLE_ADDRESS) : undefined);
  const serverCommand = values['isabelle-server'] ?? nonEmpty(process.env.ARBOR_ISABELLE_SERVER);
  const session = values['isabelle-session'];
  return {
    ...(address !== undefined ? { address } : {}),
    ...(address === undefined && serverCommand !== undefined ? { serverCommand } : {}),
    ...(session !== undefined ? { session } : {}),
  };
}

function nonEmpty(value: string | undefined): string | undefined {
  return value?.trim() ? value.trim() : undefined;
}

function usageError(message: string): number {
  process.stderr.write(`arbor-shell: ${message}\n`);
  return 2;
}
