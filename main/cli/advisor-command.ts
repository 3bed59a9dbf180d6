/**
 * `arbor advisor --port N --preamble FILE [--host 127.0.0.1] [--search-ms MS] [--trace]`: an AIMLEAP
 * advisor over its binary protocol. The preamble is required: it gives the equations AIMLEAP numbers
 * by name (the AIM problems' 87: loop axioms, definitions, AIM axioms, known lemmas), which the
 * advisor needs to judge every rewrite AIMLEAP asks about; any AIM problem file will do. Runs until
 * SIGINT/SIGTERM.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { AIMLEAP_EQUATIONS } from '../provers/eq/advisor-slots.ts';
import { startAdvisorServer } from '../provers/eq/advisor-server.ts';
import { parseArticle } from '../provers/eq/article.ts';
import { TermBank } from '../provers/eq/term.ts';

const USAGE = 'usage: arbor advisor --port N --preamble FILE [--host 127.0.0.1] [--search-ms MS] [--trace]';
const PREAMBLE_HELP = '--preamble FILE is required: an ARTICLE with the problems\' equations (AIMLEAP numbers its 87 by name), e.g. ../shared/data/aim/preamble.txt or any AIM problem file';

export interface AdvisorCommandHooks {
  /** Stops the server (as SIGINT does). */
  signal?: AbortSignal;
  /** Called once the server listens, with its port (useful with `--port 0`). */
  onListening?: (port: number) => void;
}

export async function runAdvisorCommand(argv: string[], hooks: AdvisorCommandHooks = {}): Promise<number> {
  const { signal } = hooks;
  let values;
  try {
    values = parseArgs({
      args: argv,
      options: {
        port: { type: 'string' },
        host: { type: 'string', default: '127.0.0.1' },
        preamble: { type: 'string' },
        'search-ms': { type: 'string', default: '2000' },
        trace: { type: 'boolean', default: false },
        help: { type: 'boolean' },
      },
    }).values;
  } catch (err) {
    process.stderr.write(`${(err as Error).message}\n${USAGE}\n`);
    return 2;
  }
  if (values.help) {
    process.stdout.write(`${USAGE}\n  --search-ms MS  budget of Arbor's own search per goal pair without a known chain (0: estimates only; default 2000)\n  --trace         log every request and reply (hex) to stderr\n`);
    return 0;
  }
  const port = Number(values.port);
  if (!values.port || !Number.isInteger(port) || port < 0 || port > 65535) {
    process.stderr.write(`--port N is required (0-65535)\n${USAGE}\n`);
    return 2;
  }
  const searchMs = Number(values['search-ms']);
  if (!Number.isFinite(searchMs) || searchMs < 0) {
    process.stderr.write(`--search-ms expects a number of milliseconds\n${USAGE}\n`);
    return 2;
  }
  if (!values.preamble) {
    process.stderr.write(`${PREAMBLE_HELP}\n${USAGE}\n`);
    return 2;
  }
  const bank = new TermBank();
  let equations;
  try {
    equations = parseArticle(bank, readFileSync(values.preamble, 'utf8')).equations;
  } catch (err) {
    process.stderr.write(`cannot read preamble: ${(err as Error).message}\n`);
    return 2;
  }
  const known = equations.filter((e) => AIMLEAP_EQUATIONS.includes(e.name)).length;
  let server;
  try {
    server = await startAdvisorServer({ port, host: values.host, bank, equations, searchMs, trace: values.trace, log: (l) => process.stderr.write(`${l}\n`) });
  } catch (err) {
    process.stderr.write(`cannot listen on ${values.host}:${port}: ${(err as Error).message}\n`);
    return 1;
  }
  const addr = server.address();
  const boundPort = typeof addr === 'object' && addr ? addr.port : port;
  const missing = AIMLEAP_EQUATIONS.filter((n) => !equations.some((e) => e.name === n));
  process.stderr.write(`arbor advisor listening on ${values.host}:${boundPort} (${equations.length} equations, ${known} of AIMLEAP's ${AIMLEAP_EQUATIONS.length})\n`);
  if (missing.length) process.stderr.write(`warning: the preamble lacks ${missing.length} of AIMLEAP's equations (${missing.slice(0, 5).join(', ')}${missing.length > 5 ? ', …' : ''}): rewrites with them get no estimate of their own\n`);
  hooks.onListening?.(boundPort);
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
