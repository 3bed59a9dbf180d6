import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runProcess, sandboxStatus } from '../main/process/process-manager.ts';
import { CoqideTopClient } from '../main/provers/coq/coqidetop-client.ts';
import { describeSandbox } from '../shared/settings/sandbox-status.ts';
import type { BenchRow } from './bench-table.ts';
import { median, printTable, writeResults } from './bench-table.ts';

/**
 * Issue 21: what the sandbox (bubblewrap) costs per prover start. Each round starts a coqidetop (Init and a
 * first Goal) and runs `coqc` on a one-line file, once sandboxed and once not, in alternating order, so
 * both see the same machine load.
 */
const ROUNDS = 10;

async function coqidetopStart(sandboxed: boolean): Promise<number> {
  const t0 = performance.now();
  const c = await CoqideTopClient.start(sandboxed ? {} : { sandbox: false });
  try {
    await c.addAndGoals('Goal forall n : nat, n = n.');
    return performance.now() - t0;
  } finally {
    await c.dispose();
  }
}

async function coqcOneLine(sandboxed: boolean): Promise<number> {
  const dir = await mkdtemp(join(tmpdir(), 'arbor-bench-coqc-'));
  try {
    await writeFile(join(dir, 'One.v'), 'Lemma one : 1 + 1 = 2. Proof. reflexivity. Qed.\n');
    const t0 = performance.now();
    const r = await runProcess({ program: 'coqc', args: ['-q', 'One.v'], cwd: dir, timeoutMs: 60_000, sandbox: sandboxed ? { writable: [dir] } : false });
    const ms = performance.now() - t0;
    if (r.exitCode !== 0) throw new Error(`coqc failed (${sandboxed ? 'sandboxed' : 'plain'}): ${r.stderr}`);
    return ms;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export async function runSandboxStartBench(log: (s: string) => void = () => undefined): Promise<{ rows: BenchRow[]; raw: unknown }> {
  const status = sandboxStatus();
  log(describeSandbox(status));
  if (status.state !== 'on') throw new Error(`nothing to compare: ${describeSandbox(status)}`);
  const times = { idetop: { on: [] as number[], off: [] as number[] }, coqc: { on: [] as number[], off: [] as number[] } };
  // One unmeasured start of each, so the first measured round does not pay for cold caches.
  await coqidetopStart(true);
  await coqcOneLine(false);
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? [true, false] : [false, true];
    for (const sandboxed of order) {
      times.idetop[sandboxed ? 'on' : 'off'].push(await coqidetopStart(sandboxed));
      times.coqc[sandboxed ? 'on' : 'off'].push(await coqcOneLine(sandboxed));
    }
    log(`round ${round + 1}/${ROUNDS}`);
  }
  const rows: BenchRow[] = [];
  for (const [key, what] of [['idetop', 'coqidetop start + Init + first Goal'], ['coqc', 'coqc of a one-line file']] as const) {
    const on = median(times[key].on);
    const off = median(times[key].off);
    rows.push({ what: `${what}, sandboxed`, value: on, unit: 'ms', detail: `median of ${ROUNDS}` });
    rows.push({ what: `${what}, not sandboxed`, value: off, unit: 'ms', detail: `median of ${ROUNDS}` });
    rows.push({ what: `${what}: the sandbox's cost`, value: on - off, unit: 'ms', detail: `ratio ${(on / off).toFixed(3)}` });
  }
  return { rows, raw: { rounds: ROUNDS, status, times } };
}

// `npx tsx bench/sandbox-start.bench.ts` runs it alone.
if (import.meta.url === `file://${process.argv[1]}`) {
  const { rows, raw } = await runSandboxStartBench((s) => process.stderr.write(`bench: ${s}\n`));
  printTable('prover start with and without the sandbox, alternating rounds in one run', rows);
  process.stderr.write(`bench: results: ${await writeResults('sandbox-start', { date: new Date().toISOString(), rows, raw })}\n`);
}
