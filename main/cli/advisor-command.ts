/**
 * `arbor advisor --port N [--host 127.0.0.1] [--preamble FILE]`: serve Arbor's distance estimates
 * over the AIMLEAP advisor protocol. The preamble supplies the 87 equations in protocol order
 * (default: the loop axioms and definitions only, slots 0-10). Runs until SIGINT/SIGTERM.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { startAdvisorServer } from '../provers/eq/advisor-server.ts';
import { parseArticle } from '../provers/eq/article.ts';
import { DEFAULT_PRELUDE } from '../provers/eq/default-prelude.ts';
import { TermBank } from '../provers/eq/term.ts';

const USAGE = 'usage: arbor advisor --port N [--host 127.0.0.1] [--preamble FILE]';

export async function runAdvisorCommand(argv: string[], signal?: AbortSignal): Promise<number> {
  let values;
  try {
    values = parseArgs({ args: argv, options: { port: { type: 'string' }, host: { type: 'string', default: '127.0.0.1' }, preamble: { type: 'string' }, help: { type: 'boolean' } } }).values;
  } catch (err) {
    process.stderr.write(`${(err as Error).message}\n${USAGE}\n`);
    return 2;
  }
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const port = Number(values.port);
  if (!values.port || !Number.isInteger(port) || port < 0 || port > 65535) {
    process.stderr.write(`--port N is required (0-65535)\n${USAGE}\n`);
    return 2;
  }
  const bank = new TermBank();
  let equations;
  try {
    equations = parseArticle(bank, values.preamble ? readFileSync(values.preamble, 'utf8') : DEFAULT_PRELUDE).equations;
  } catch (err) {
    process.stderr.write(`cannot read preamble: ${(err as Error).message}\n`);
    return 2;
  }
  let server;
  try {
    server = await startAdvisorServer({ port, host: values.host, bank, equations, log: (l) => process.stderr.write(`${l}\n`) });
  } catch (err) {
    process.stderr.write(`cannot listen on ${values.host}:${port}: ${(err as Error).message}\n`);
    return 1;
  }
  const addr = server.address();
  process.stderr.write(`arbor advisor listening on ${values.host}:${typeof addr === 'object' && addr ? addr.port : port} (${equations.length} equations)\n`);
  await new Promise<void>((resolve) => {
    const stop = (): void => {
      server.close(() => resolve());
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    signal?.addEventListener('abort', stop, { once: true });
  });
  return 0;
}
