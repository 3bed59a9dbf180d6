import { parseArgs } from 'node:util';
import { printTable, writeResults } from './bench-table.ts';
import { runShellBench } from './shell-bench.ts';

/** `npm run bench`: the spine's benchmarks (other suites have their own scripts: bench:aim, bench:tree, …). */
const { values } = parseArgs({ options: { only: { type: 'string' } } });
const log = (s: string): void => {
  process.stderr.write(`bench: ${s}\n`);
};

if (values.only === undefined || values.only === 'shell') {
  const { rows, raw } = await runShellBench(log);
  printTable('arbor-shell (Coq backend), measured side by side in one run', rows);
  log(`results: ${await writeResults('shell', { date: new Date().toISOString(), rows, raw })}`);
}
