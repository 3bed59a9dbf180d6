import { parseArgs } from 'node:util';
import type { BenchRow } from './bench-table.ts';
import { printTable, writeResults } from './bench-table.ts';
import { runBatchBench } from './batch.bench.ts';
import { runDocumentScaleBench } from './document-scale.bench.ts';
import { runEndQueriesBench } from './end-queries.bench.ts';
import { runIncrementalCheckBench } from './incremental-check.bench.ts';
import { runLivePathBench } from './live-path.bench.ts';
import { runSandboxStartBench } from './sandbox-start.bench.ts';
import { runShellBench } from './shell-bench.ts';
import { runTreeLayoutBench } from './tree-layout.bench.ts';
import { runTreeRenderBench } from './tree-render.bench.ts';

/**
 * `npm run bench`: the spine's and the workbench's targets (BRIEF §4), each suite's figures measured side
 * by side in one run. `--only shell,tree-layout,…` picks suites. The AIM and fidelity benchmarks are long
 * and have their own scripts (bench:aim, bench:fidelity).
 */
const { values } = parseArgs({ options: { only: { type: 'string' } } });
const log = (s: string): void => {
  process.stderr.write(`bench: ${s}\n`);
};

const suites: { name: string; title: string; run: () => Promise<{ rows: BenchRow[]; raw: unknown }> }[] = [
  { name: 'shell', title: 'arbor-shell (Coq backend)', run: () => runShellBench(log) },
  { name: 'tree-layout', title: 'tree layout (Node)', run: () => runTreeLayoutBench(log) },
  { name: 'tree-render', title: 'tree rendering (Chromium)', run: () => runTreeRenderBench(log) },
  { name: 'incremental-check', title: 'incremental re-checking', run: () => runIncrementalCheckBench() },
  { name: 'document-scale', title: 'document scale: 50 lemmas, arbor-shell vs coqc (alternating rounds)', run: () => runDocumentScaleBench() },
  { name: 'end-queries', title: "END's questions: the prover's CPU on Coq's Bool.v (alternating rounds)", run: () => runEndQueriesBench() },
  { name: 'live-path', title: 'live path: host → transport → store → canvas (real Coq)', run: () => runLivePathBench(log) },
  { name: 'batch', title: 'arbor batch: local pool and BullMQ/Redis workers', run: () => runBatchBench(log) },
  { name: 'sandbox-start', title: 'prover start with and without the sandbox (bubblewrap), alternating rounds', run: () => runSandboxStartBench(log) },
];
const only = values.only?.split(',');
let failed = false;
for (const suite of suites.filter((s) => !only || only.includes(s.name))) {
  try {
    const { rows, raw } = await suite.run();
    printTable(`${suite.title}, measured side by side in one run`, rows);
    log(`results: ${await writeResults(suite.name, { date: new Date().toISOString(), rows, raw })}`);
  } catch (err) {
    failed = true;
    log(`${suite.name} failed: ${err instanceof Error ? err.stack ?? err.message : String(err)}`);
  }
}
process.exitCode = failed ? 1 : 0;
