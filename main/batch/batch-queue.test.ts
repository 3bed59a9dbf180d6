import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { BatchRun, QueueWorkerRun, reportItems } from './testing/batch-processes.ts';
import type { LocalRedis } from './testing/local-redis.ts';
import { startLocalRedis } from './testing/local-redis.ts';
import { writeLoopProblems } from './testing/loop-problems.ts';

/**
 * `arbor batch --queue` with a real redis-server (the distribution's, started here on 127.0.0.1 with its own
 * data directory) and real `arbor worker` processes. Items are loop-theory problems of the project's own:
 * fast ones (proved in well under a second) and false ones that run to the limit, so a job is reliably
 * running when a worker is killed or Redis restarts. Every wait is on a condition (a line of output).
 */
let redis: LocalRedis;
let dir: string;
const workers: QueueWorkerRun[] = [];
const LIMIT = ['--timeout', '2', '--no-eprover'];

beforeAll(async () => {
  redis = await startLocalRedis();
  dir = mkdtempSync(join(tmpdir(), 'arbor-batch-queue-'));
}, 30_000);

afterEach(async () => {
  for (const w of workers.splice(0)) {
    w.process.kill();
    await w.exited;
  }
});

afterAll(async () => {
  await redis?.dispose();
  rmSync(dir, { recursive: true, force: true });
});

async function startWorkers(...names: string[]): Promise<QueueWorkerRun[]> {
  const started = names.map((n) => new QueueWorkerRun(n, redis.url, ['--lock-seconds', '3', ...(n.startsWith('qp-') ? ['--provers', n.slice(3)] : [])]));
  workers.push(...started);
  await Promise.all(started.map((w) => w.ready()));
  return started;
}

/** Each item once, every item there: nothing lost, nothing counted twice. */
function expectComplete(report: string, names: readonly string[]): ReturnType<typeof reportItems> {
  const items = reportItems(report);
  expect(items.map((i) => i.id).sort()).toEqual([...names].sort());
  expect(new Set(items.map((i) => i.job)).size).toBe(names.length);
  return items;
}

const summaryOf = (run: BatchRun) => run.of('summary').at(-1) as { cancelled: boolean; totals: { done: number; items: number; errors: number; byWorker: Record<string, number> } };

describe('arbor batch on BullMQ/Redis workers (real redis-server)', () => {
  it('runs a batch over two worker processes; every item once, with its worker; bad input lines are items of their own', async () => {
    await startWorkers('qa1', 'qa2');
    const { file, names } = writeLoopProblems(dir, 'two', ['slow', 'slow', 'fast', 'fast', 'fast', 'fast'], ['Theorem broken: x * = y.', 'this is not a theorem']);
    const report = join(dir, 'two.jsonl');
    const run = new BatchRun(['aim', file, '--queue', redis.url, '--report', report, ...LIMIT]);
    expect(await run.exited).toBe(0);
    const all = reportItems(report);
    const bad = all.filter((i) => !names.includes(i.id));
    expect(bad.map((i) => [i.id, i.outcome, i.worker])).toEqual([['line 19', 'error', 'input'], ['line 20', 'error', 'input']]);
    expect(JSON.stringify(bad.map((i) => i.evidence))).toMatch(/not a theorem line: this is not a theorem/);
    const items = expectComplete(report, [...names, 'line 19', 'line 20']).filter((i) => names.includes(i.id));
    expect(items.filter((i) => i.id.includes('fast')).every((i) => i.outcome === 'proved')).toBe(true);
    expect(items.filter((i) => i.id.includes('slow')).every((i) => i.outcome === 'unproved')).toBe(true);
    // Both workers took jobs (each runs one at a time and the two slow ones come first).
    expect(Object.keys(summaryOf(run).totals.byWorker).sort()).toEqual(['input', 'qa1', 'qa2']);
    expect(summaryOf(run).totals).toMatchObject({ done: 8, items: 8, errors: 2 });
    // The progress stream: one progress line per item, the last one complete.
    expect(run.of('progress')).toHaveLength(8);
    expect(run.of('progress').at(-1)).toMatchObject({ done: 8, total: 8, errors: 2, etaSeconds: 0 });
    expect(run.of('started').map((e) => e.id).sort()).toEqual([...names].sort());
  }, 90_000);

  it('hands the job of a worker killed with SIGKILL mid-job to the other worker; the report is complete', async () => {
    const [a, b] = await startWorkers('qk1', 'qk2') as [QueueWorkerRun, QueueWorkerRun];
    const { file, names } = writeLoopProblems(dir, 'kill', ['slow', 'fast', 'fast', 'fast', 'fast']);
    const report = join(dir, 'kill.jsonl');
    const run = new BatchRun(['aim', file, '--queue', redis.url, '--report', report, ...LIMIT]);
    const slow = names[0] as string;
    await run.until(() => run.of('started').some((e) => e.id === slow), 60_000, 'the slow job to start');
    const holder = run.of('started').find((e) => e.id === slow)?.worker;
    const [victim, survivor] = holder === 'qk1' ? [a, b] : [b, a];
    victim.process.kill();
    await victim.exited;
    expect(await run.exited).toBe(0);
    const items = expectComplete(report, names);
    const retried = items.find((i) => i.id === slow);
    expect(retried).toMatchObject({ worker: survivor.name, outcome: 'unproved' });
    expect(retried?.attempts).toBeGreaterThanOrEqual(2);
    expect(summaryOf(run).totals).toMatchObject({ done: 5, errors: 0 });
    // The killed worker never finished the slow job; no job was finished twice.
    expect(victim.finished()).not.toContain(retried?.job);
    const finished = [...victim.finished(), ...survivor.finished()];
    expect(finished.sort()).toEqual(items.map((i) => i.job).sort());
  }, 120_000);

  it('completes a batch across a Redis restart', async () => {
    await startWorkers('qr1', 'qr2');
    const { file, names } = writeLoopProblems(dir, 'restart', ['fast', 'fast', 'slow', 'slow', 'fast', 'fast']);
    const report = join(dir, 'restart.jsonl');
    const run = new BatchRun(['aim', file, '--queue', redis.url, '--report', report, ...LIMIT]);
    await run.until(() => run.of('item').length >= 2, 60_000, 'two items');
    await redis.restart();
    const beforeRestart = run.of('item').length;
    expect(await run.exited).toBe(0);
    expectComplete(report, names);
    expect(beforeRestart).toBeLessThan(names.length);
    expect(summaryOf(run).totals).toMatchObject({ done: names.length, errors: 0 });
  }, 120_000);

  it('cancelling removes the pending jobs; the re-run resumes without redoing finished items', async () => {
    const [w] = await startWorkers('qc1') as [QueueWorkerRun];
    const { file, names } = writeLoopProblems(dir, 'resume', ['fast', 'fast', 'slow', 'slow', 'fast']);
    const report = join(dir, 'resume.jsonl');
    const first = new BatchRun(['aim', file, '--queue', redis.url, '--report', report, ...LIMIT]);
    await first.until(() => first.of('item').length >= 2, 60_000, 'two items');
    first.process.signal('SIGINT');
    expect(await first.exited).toBe(130);
    expect(summaryOf(first).cancelled).toBe(true);
    const cancelled = first.of('notice').map((n) => String(n.text)).find((t) => t.startsWith('cancelled:'));
    expect(cancelled).toMatch(/cancelled: [1-9]\d* pending job\(s\) removed, \d+ running/);
    // Nothing of the batch is left waiting; a job that was running finishes on its worker (BullMQ's lock).
    const client = new Redis(redis.url);
    try {
      expect(await client.llen('arbor:batch-builtin:wait')).toBe(0);
      await vi.waitFor(async () => expect(await client.llen('arbor:batch-builtin:active')).toBe(0), { timeout: 60_000, interval: 100 });
      expect(await client.llen('arbor:batch-builtin:wait')).toBe(0);
    } finally {
      client.disconnect();
    }
    // Fewer jobs ran than the batch has: the cancel left some never started.
    expect(w.finished().length).toBeLessThan(names.length);
    const doneBefore = reportItems(report).length;
    const second = new BatchRun(['aim', file, '--queue', redis.url, '--report', report, ...LIMIT]);
    expect(await second.exited).toBe(0);
    const items = expectComplete(report, names);
    expect(summaryOf(second).totals).toMatchObject({ done: names.length, errors: 0 });
    expect(second.of('batch')[0]).toMatchObject({ resumed: doneBefore });
    // Every job ran exactly once on the worker over both runs.
    expect([...w.finished()].sort()).toEqual(items.map((i) => i.job).sort());
  }, 120_000);

  it('gives a job only to a worker with its prover: a coq-only worker never takes builtin (AIM) jobs', async () => {
    const [coqOnly] = await startWorkers('qp-coq') as [QueueWorkerRun];
    const { file, names } = writeLoopProblems(dir, 'provers', ['fast', 'fast', 'fast']);
    const report = join(dir, 'provers.jsonl');
    // Routing is what is tested: the fast problems get room to be proved on a loaded machine (2 s was not, once).
    const run = new BatchRun(['aim', file, '--queue', redis.url, '--report', report, '--timeout', '20', '--no-eprover']);
    // The batch says nobody serves the builtin queue; the jobs wait (the coq worker does not take them).
    await run.until(() => run.of('notice').some((n) => String(n.text).startsWith('no worker with builtin')), 60_000, 'the no-worker notice');
    expect(run.of('started')).toEqual([]);
    const [builtinOnly] = await startWorkers('qp-builtin') as [QueueWorkerRun];
    expect(await run.exited).toBe(0);
    const items = expectComplete(report, names);
    expect(items.map((i) => `${i.worker} ${i.outcome}`)).toEqual(items.map(() => 'qp-builtin proved'));
    expect(coqOnly.finished()).toEqual([]);
    expect(builtinOnly.finished().sort()).toEqual(items.map((i) => i.job).sort());
    expect(coqOnly.errLines.join('\n')).toMatch(/queues batch-coq on/);
  }, 120_000);

  it('check: proof documents on the coq queue, run by queue workers the batch starts itself (--workers 2)', async () => {
    const docs = join(dir, 'docs');
    mkdirSync(docs, { recursive: true });
    writeFileSync(join(docs, 'good.arbor'), 'GOAL "forall n : nat, n + 0 = n"\nEND\n');
    writeFileSync(join(docs, 'false.arbor'), 'GOAL "forall n : nat, n + 1 = n"\nEND\n');
    const report = join(dir, 'check.jsonl');
    const run = new BatchRun(['check', docs, '--queue', redis.url, '--workers', '2', '--report', report]);
    expect(await run.exited).toBe(0);
    const items = expectComplete(report, ['false.arbor', 'good.arbor']);
    expect(items.find((i) => i.id === 'good.arbor')).toMatchObject({ outcome: 'verified', evidence: { closed: 1 } });
    expect(items.find((i) => i.id === 'false.arbor')).toMatchObject({ outcome: 'failed', evidence: { line: 2 } });
    expect(items.every((i) => i.worker.startsWith(`${hostname()}-local-`))).toBe(true);
    // The batch waited for the workers it started: it never said the coq queue had none.
    expect(run.of('notice').map((n) => String(n.text)).join('\n')).toMatch(/workers with coq: /);
    expect(run.of('notice').map((n) => String(n.text)).join('\n')).not.toMatch(/no worker with coq/);
    // The batch stopped the workers it started: none is left on the queue.
    const client = new Redis(redis.url);
    try {
      await vi.waitFor(async () => expect(String(await client.client('LIST'))).not.toMatch(new RegExp(`${hostname()}-local-`)), { timeout: 30_000, interval: 100 });
    } finally {
      client.disconnect();
    }
  }, 120_000);
});
