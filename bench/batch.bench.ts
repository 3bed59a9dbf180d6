/**
 * `npm run bench:batch` (also a suite of `npm run bench`): `arbor batch` as a user runs it, side by side in one run.
 *
 * 1. The same 40-item AIM batch (the seeded sample of bench:aim, --timeout 5, Arbor's own completion only)
 *    on a local pool of 1 and of 2 workers, and on 2 queue workers (BullMQ on a private redis-server):
 *    items per minute as the user sees them (start of `arbor batch` to its summary).
 * 2. The queue's own overhead: 300 trivially fast fidelity items (decided by S0 in well under a millisecond)
 *    on the local pool and on queue workers. Per-job time in the steady state (first item to last), the
 *    redis-server's CPU time per job (one thread: its ceiling) and the collector's (`arbor batch`) CPU per job.
 * 3. A paper model from those figures: jobs per second at 8, 64 and 512 workers, for AIM-sized and trivial
 *    jobs, and the worker count at which Redis or the collector becomes the bottleneck.
 *
 *   npm run bench:batch -- [--sample 40] [--seed 1] [--limit 5] [--trivial 300]
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { BatchRun, QueueWorkerRun } from '../main/batch/testing/batch-processes.ts';
import type { LocalRedis } from '../main/batch/testing/local-redis.ts';
import { startLocalRedis } from '../main/batch/testing/local-redis.ts';
import { sampleLines } from './aim/sample.ts';
import type { BenchRow } from './bench-table.ts';
import { printTable, writeResults } from './bench-table.ts';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const aimDir = resolve(repoRoot, '../shared/data/aim');

interface RunFigures {
  label: string;
  items: number;
  wallMs: number;
  itemsPerMinute: number;
  /** Steady state: (items − 1) / (time of the last item line − time of the first). */
  steadyMsPerJob: number;
  /** Sum of the items' own times on their workers. */
  itemMsSum: number;
  collectorCpuMs: number;
  redisCpuMs?: number;
  byOutcome: Record<string, number>;
  byWorker: Record<string, number>;
  load: number;
}

/** Clock ticks of a process's user + system time (Linux /proc; USER_HZ is 100 here). */
function cpuMsOf(pid: number | undefined): number {
  if (pid === undefined) return NaN;
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

async function runBatch(label: string, args: string[], redis?: LocalRedis): Promise<RunFigures> {
  const redisBefore = redis ? cpuMsOf(redis.pid) : undefined;
  const started = performance.now();
  const run = new BatchRun([...args, '--fresh']);
  // Each item line stamped as it arrives (this listener runs after the run's own, which parsed the chunk).
  const times: number[] = [];
  run.process.stdout.on('data', () => {
    for (let k = run.of('item').length - times.length; k > 0; k--) times.push(performance.now());
  });
  const code = await run.exited;
  const wallMs = performance.now() - started;
  if (code !== 0) throw new Error(`${label}: arbor batch exited ${code}: ${run.errLines.slice(-5).join(' / ')}`);
  const summary = run.of('summary').at(-1) as { totals: { done: number; byOutcome: Record<string, number>; byWorker: Record<string, number>; itemMs: { sum: number } }; run: { collectorCpuMs: number } };
  const first = times[0] ?? 0;
  const last = times.at(-1) ?? 0;
  return {
    label,
    items: summary.totals.done,
    wallMs,
    itemsPerMinute: (summary.totals.done * 60_000) / wallMs,
    steadyMsPerJob: times.length > 1 ? (last - first) / (times.length - 1) : NaN,
    itemMsSum: summary.totals.itemMs.sum,
    collectorCpuMs: summary.run.collectorCpuMs,
    ...(redis ? { redisCpuMs: cpuMsOf(redis.pid) - (redisBefore as number) } : {}),
    byOutcome: summary.totals.byOutcome,
    byWorker: summary.totals.byWorker,
    load: loadavg()[0] as number,
  };
}

async function withQueueWorkers<T>(redis: LocalRedis, names: string[], extra: string[], body: () => Promise<T>): Promise<T> {
  const workers = names.map((n) => new QueueWorkerRun(n, redis.url, extra));
  try {
    await Promise.all(workers.map((w) => w.ready()));
    return await body();
  } finally {
    for (const w of workers) w.process.signal('SIGTERM');
    await Promise.all(workers.map((w) => w.exited));
  }
}

export async function runBatchBench(log: (s: string) => void, argv: string[] = []): Promise<{ rows: BenchRow[]; raw: unknown }> {
  const { values } = parseArgs({ args: argv, options: { sample: { type: 'string', default: '40' }, seed: { type: 'string', default: '1' }, limit: { type: 'string', default: '5' }, trivial: { type: 'string', default: '300' } } });
  const dir = mkdtempSync(join(tmpdir(), 'arbor-batch-bench-'));
  const redis = await startLocalRedis();
  try {
    // The AIM batch: the seeded sample, its preamble in the file.
    const lines = readFileSync(join(aimDir, 'dev.txt'), 'utf8').split(/\r?\n/).filter((l) => /^(Theorem|Lemma|Corollary)\s/.test(l.trim()));
    const sample = sampleLines(lines, Number(values.sample), Number(values.seed));
    const aimFile = join(dir, 'aim-sample.txt');
    writeFileSync(aimFile, `${readFileSync(join(aimDir, 'preamble.txt'), 'utf8')}\n${sample.join('\n')}\n`);
    const aimArgs = ['aim', aimFile, '--timeout', values.limit as string, '--no-eprover'];
    // Trivial items: identical statements, decided by S0 (text normalisation) without a prover.
    const trivialFile = join(dir, 'trivial.tsv');
    const n = Number(values.trivial);
    writeFileSync(trivialFile, `id\tcanonical\tcandidate\n${Array.from({ length: n }, (_, i) => `t${i}\tforall n : nat, n + ${i} = ${i} + n\tforall n : nat, n + ${i} = ${i} + n`).join('\n')}\n`);
    const trivialArgs = ['fidelity', trivialFile, '--tiers', 's0'];
    const report = (name: string): string[] => ['--report', join(dir, `${name}.jsonl`)];

    const runs: RunFigures[] = [];
    const step = async (label: string, f: () => Promise<RunFigures>): Promise<RunFigures> => {
      log(`${label} …`);
      const r = await f();
      log(`${label}: ${r.items} items in ${(r.wallMs / 1000).toFixed(1)} s (${r.itemsPerMinute.toFixed(1)}/min; ${JSON.stringify(r.byOutcome)}; load ${r.load.toFixed(1)})`);
      runs.push(r);
      return r;
    };
    const aim1 = await step('aim, local pool, 1 worker', () => runBatch('aim local 1', [...aimArgs, '--workers', '1', ...report('aim-local-1')]));
    const aim2 = await step('aim, local pool, 2 workers', () => runBatch('aim local 2', [...aimArgs, '--workers', '2', ...report('aim-local-2')]));
    const aimQ = await withQueueWorkers(redis, ['bq1', 'bq2'], [], () => step('aim, queue, 2 workers', () => runBatch('aim queue 2', [...aimArgs, '--queue', redis.url, ...report('aim-queue-2')], redis)));
    const triv1 = await step('trivial, local pool, 1 worker', () => runBatch('trivial local 1', [...trivialArgs, '--workers', '1', ...report('triv-local-1')]));
    const trivQ1 = await withQueueWorkers(redis, ['tq1'], [], () => step('trivial, queue, 1 worker', () => runBatch('trivial queue 1', [...trivialArgs, '--queue', redis.url, ...report('triv-queue-1')], redis)));
    const triv2 = await step('trivial, local pool, 2 workers', () => runBatch('trivial local 2', [...trivialArgs, '--workers', '2', ...report('triv-local-2')]));
    const trivQ8 = await withQueueWorkers(redis, ['tq1', 'tq2'], ['--concurrency', '4'], () => step('trivial, queue, 2 workers × concurrency 4', () => runBatch('trivial queue 2x4', [...trivialArgs, '--queue', redis.url, ...report('triv-queue-8')], redis)));

    // The paper model. A job costs its worker T + o (its own time, and o: a zero-time job's whole cost on a queue worker);
    // Redis (one thread) spends r of CPU per job; the collector spends c per job. With W workers:
    // throughput = min(W / (T + o), 1 / r, 1 / c).
    const o = trivQ1.steadyMsPerJob;
    const r = Math.max(...[trivQ1, trivQ8].map((x) => (x.redisCpuMs as number) / x.items));
    const c = Math.max(...[trivQ1, trivQ8].map((x) => x.collectorCpuMs / x.items));
    const tAim = aim1.itemMsSum / aim1.items;
    const model = (t: number, w: number): { perSecond: number; bound: string } => {
      const bounds = [{ perSecond: (w * 1000) / (t + o), bound: 'workers' }, { perSecond: 1000 / r, bound: 'redis' }, { perSecond: 1000 / c, bound: 'collector' }];
      return bounds.reduce((a, b) => (b.perSecond < a.perSecond ? b : a));
    };
    const rows: BenchRow[] = [
      { what: 'AIM 40, local pool, 1 worker', value: aim1.itemsPerMinute, unit: 'items/min', detail: `${(aim1.wallMs / 1000).toFixed(1)} s; ${JSON.stringify(aim1.byOutcome)}; load ${aim1.load.toFixed(1)}` },
      { what: 'AIM 40, local pool, 2 workers', value: aim2.itemsPerMinute, unit: 'items/min', detail: `${(aim2.wallMs / 1000).toFixed(1)} s; ×${(aim2.itemsPerMinute / aim1.itemsPerMinute).toFixed(2)} of 1 worker; load ${aim2.load.toFixed(1)}` },
      { what: 'AIM 40, queue, 2 workers', value: aimQ.itemsPerMinute, unit: 'items/min', detail: `${(aimQ.wallMs / 1000).toFixed(1)} s; workers started beforehand; load ${aimQ.load.toFixed(1)}` },
      { what: 'trivial job, local pool, 1 worker', value: triv1.steadyMsPerJob, unit: 'ms/job', detail: `${n} items, steady state` },
      { what: 'trivial job, queue, 1 worker', value: trivQ1.steadyMsPerJob, unit: 'ms/job', detail: `queue overhead ${(trivQ1.steadyMsPerJob - triv1.steadyMsPerJob).toFixed(2)} ms/job over the local pool` },
      { what: 'trivial job, local pool, 2 workers', value: triv2.steadyMsPerJob, unit: 'ms/job', detail: 'steady state' },
      { what: 'trivial job, queue, 2 workers × 4', value: trivQ8.steadyMsPerJob, unit: 'ms/job', detail: `${(1000 / trivQ8.steadyMsPerJob).toFixed(0)} jobs/s on this 2-core machine` },
      { what: 'redis-server CPU per job', value: r, unit: 'ms', detail: `ceiling ${(1000 / r).toFixed(0)} jobs/s (one thread)` },
      { what: 'collector (arbor batch) CPU per job', value: c, unit: 'ms', detail: `ceiling ${(1000 / c).toFixed(0)} jobs/s` },
      { what: 'AIM job time on its worker (mean)', value: tAim, unit: 'ms', detail: `--timeout ${values.limit}` },
    ];
    for (const w of [8, 64, 512]) {
      const aim = model(tAim, w);
      const triv = model(0, w);
      rows.push({ what: `model: ${w} workers, AIM-sized jobs`, value: aim.perSecond * 60, unit: 'jobs/min', detail: `bound by ${aim.bound}` });
      rows.push({ what: `model: ${w} workers, trivial jobs`, value: triv.perSecond, unit: 'jobs/s', detail: `bound by ${triv.bound}` });
    }
    const saturation = Math.min(1000 / r, 1000 / c);
    rows.push({ what: 'model: workers before the queue saturates, AIM-sized', value: ((tAim + o) * saturation) / 1000, unit: 'workers', detail: `(T + o) / max(r, c), o = ${o.toFixed(2)} ms` });
    return { rows, raw: { runs, model: { o, r, c, tAim } } };
  } finally {
    await redis.dispose();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const log = (s: string): void => { process.stderr.write(`bench:batch: ${s}\n`); };
  const { rows, raw } = await runBatchBench(log, process.argv.slice(2));
  printTable('arbor batch: local pool and BullMQ/Redis workers, measured side by side in one run', rows);
  log(`results: ${await writeResults('batch', { date: new Date().toISOString(), rows, raw })}`);
}
