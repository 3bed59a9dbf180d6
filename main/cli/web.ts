import { parseArgs } from 'node:util';
import { parseAdvisorAddress } from '../provers/eq/hammer.ts';
import type { BackendId } from '../shell/prover-session.ts';
import { startWebWorkbench } from '../host/web-workbench.ts';
import { isTimeoutSeconds, MAX_TIMEOUT_SECONDS } from '../supervisor/compose-backends.ts';

export const WEB_USAGE = `Usage: npm run web -- [options]
Serves the Arbor workbench on http://127.0.0.1 (random port unless --port) with a random access token.

Options:
  --backend NAME     prover backend: coq, eq, lean (default: the workspace's project file, else your setting, else coq)
  --workspace DIR    the folder the workbench may open and save files in (default: the current folder)
  --port N           listen on this port (default: a free one)
  --timeout SECONDS  default limit of HAMMER, END and CRUSH (default: your setting, else 10)
  --advisor HOST:PORT  eq backend: an AIMLEAP advisor for the suggestion panel's eq-advisor (estimates, middle terms)
  --no-build         do not (re)build the renderer, serve dist/renderer as it is
  -h, --help         this text`;

export async function runWeb(argv: string[], keepRunning = true): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        backend: { type: 'string' },
        workspace: { type: 'string', default: process.cwd() },
        port: { type: 'string', default: '0' },
        timeout: { type: 'string' },
        advisor: { type: 'string' },
        'no-build': { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
      strict: true,
    }));
  } catch (err) {
    process.stderr.write(`arbor web: ${(err as Error).message}\n${WEB_USAGE}\n`);
    return 2;
  }
  if (values.help) {
    process.stdout.write(`${WEB_USAGE}\n`);
    return 0;
  }
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    process.stderr.write('arbor web: --port must be 0..65535\n');
    return 2;
  }
  const advisor = values.advisor === undefined ? undefined : parseAdvisorAddress(values.advisor);
  if (values.advisor !== undefined && !advisor) {
    process.stderr.write('arbor web: --advisor must be HOST:PORT\n');
    return 2;
  }
  const timeoutSeconds = values.timeout === undefined ? undefined : Number(values.timeout);
  if (timeoutSeconds !== undefined && !isTimeoutSeconds(timeoutSeconds)) {
    process.stderr.write(`arbor web: --timeout must be a number of seconds in (0, ${MAX_TIMEOUT_SECONDS}]\n`);
    return 2;
  }
  const workbench = await startWebWorkbench({
    ...(values.backend !== undefined ? { backend: values.backend as BackendId } : {}),
    workspace: values.workspace,
    port,
    ...(timeoutSeconds !== undefined ? { timeoutMs: timeoutSeconds * 1000 } : {}),
    ...(advisor ? { advisor } : {}),
    build: !values['no-build'],
    log: (line) => process.stderr.write(`arbor web: ${line}\n`),
  });
  process.stdout.write(`Arbor workbench: ${workbench.url}\n`);
  process.stdout.write(`Agents (MCP, streamable HTTP): ${workbench.mcp.url}  Authorization: Bearer ${workbench.mcp.token}\n`);
  if (!workbench.backendAvailable) {
    process.stdout.write(`  prover backend not available: ${workbench.problems.join('; ')}\n  (the editor, tree and transcripts work; proof commands answer "unavailable")\n`);
  }
  if (!keepRunning) {
    await workbench.close();
    return 0;
  }
  await new Promise<void>((resolve) => {
    const stop = (): void => resolve();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  await workbench.close();
  return 0;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  process.exitCode = await runWeb(process.argv.slice(2));
}
