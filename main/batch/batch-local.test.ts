import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { BatchRun, localWorkerPid, reportItems } from './testing/batch-processes.ts';
import { writeLoopProblems } from './testing/loop-problems.ts';

/**
 * `arbor batch` without --queue: the embedded pool of `arbor worker --stdio` processes on this machine, with
 * the same job and report code as queue workers. Same loop-theory items as the Redis tests (fast ones proved
 * in well under a second, false ones running to the 2 s limit); every wait is on a condition.
 */
let dir: string;
const LIMIT = ['--timeout', '2', '--no-eprover'];

beforeAll(() => { dir = mkdtempSync(join(tmpdir(), 'arbor-batch-local-')); });
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function expectComplete(report: string, names: readonly string[]): ReturnType<typeof reportItems> {
  const items = reportItems(report);
  expect(items.map((i) => i.id).sort()).toEqual([...names].sort());
  expect(new Set(items.map((i) => i.job)).size).toBe(names.length);
  return items;
}

const summaryOf = (run: BatchRun) => run.of('summary').at(-1) as { cancelled: boolean; totals: { done: number; items: number; errors: number; byWorker: Record<string, number> }; run: { ran: number; workers: number } };

describe('arbor batch on a local pool of worker processes', () => {
  it('runs a batch over two local workers; every item once; bad input lines are items of their own', async () => {
    const { file, names } = writeLoopProblems(dir, 'ltwo', ['slow', 'slow', 'fast', 'fast', 'fast', 'fast'], ['Theorem broken: x * = y.', 'this is not a theorem']);
    const report = join(dir, 'two.jsonl');
    const run = new BatchRun(['aim', file, '--workers', '2', '--report', report, ...LIMIT]);
    expect(await run.exited).toBe(0);
    const all = expectComplete(report, [...names, 'line 19', 'line 20']);
    const bad = all.filter((i) => !names.includes(i.id));
    expect(bad.map((i) => [i.id, i.outcome, i.worker])).toEqual([['line 19', 'error', 'input'], ['line 20', 'error', 'input']]);
    const items = all.filter((i) => names.includes(i.id));
    expect(items.filter((i) => i.id.includes('fast')).every((i) => i.outcome === 'proved')).toBe(true);
    expect(items.filter((i) => i.id.includes('slow')).every((i) => i.outcome === 'unproved')).toBe(true);
    // The two slow items come first, so both workers take jobs.
    expect(Object.keys(summaryOf(run).totals.byWorker).sort()).toEqual(['input', 'local-1', 'local-2']);
    expect(summaryOf(run)).toMatchObject({ cancelled: false, totals: { done: 8, items: 8, errors: 2 }, run: { ran: 6, workers: 2 } });
    expect(run.of('progress').at(-1)).toMatchObject({ done: 8, total: 8, errors: 2, etaSeconds: 0 });
  }, 90_000);

  it('hands the job of a local worker killed with SIGKILL mid-job to another; the report is complete', async () => {
    const { file, names } = writeLoopProblems(dir, 'lkill', ['slow', 'fast', 'fast', 'fast']);
    const report = join(dir, 'kill.jsonl');
    const run = new BatchRun(['aim', file, '--workers', '2', '--report', report, ...LIMIT]);
    const slow = names[0] as string;
    await run.until(() => run.of('started').some((e) => e.id === slow), 60_000, 'the slow job to start');
    const holder = String(run.of('started').find((e) => e.id === slow)?.worker);
    const pid = await vi.waitFor(() => {
      const found = localWorkerPid(run.process.pid as number, holder);
      if (found === undefined) throw new Error(`no process for ${holder}`);
      return found;
    }, { timeout: 10_000, interval: 50 });
    process.kill(pid, 'SIGKILL');
    expect(await run.exited).toBe(0);
    const items = expectComplete(report, names);
    const retried = items.find((i) => i.id === slow);
    expect(retried).toMatchObject({ outcome: 'unproved', attempts: 2 });
    expect(retried?.worker).not.toBe(holder);
    expect(summaryOf(run).totals).toMatchObject({ done: 4, errors: 0 });
    expect(run.of('notice').map((n) => String(n.text)).join('\n')).toMatch(new RegExp(`worker ${holder} died \\(SIGKILL\\) running ${slow}`));
  }, 90_000);

  it('cancelling stops the batch; the re-run resumes without redoing finished items', async () => {
    const { file, names } = writeLoopProblems(dir, 'lresume', ['fast', 'fast', 'slow', 'fast', 'fast']);
    const report = join(dir, 'resume.jsonl');
    const first = new BatchRun(['aim', file, '--workers', '1', '--report', report, ...LIMIT]);
    await first.until(() => first.of('item').length >= 2, 60_000, 'two items');
    first.process.signal('SIGINT');
    expect(await first.exited).toBe(130);
    expect(summaryOf(first).cancelled).toBe(true);
    expect(first.of('notice').map((n) => String(n.text)).find((t) => t.startsWith('cancelled:'))).toMatch(/cancelled: [1-9]\d* pending job\(s\) removed, \d+ running job\(s\) stopped/);
    const before = reportItems(report);
    expect(before.length).toBeGreaterThanOrEqual(2);
    expect(before.length).toBeLessThan(names.length);
    const second = new BatchRun(['aim', file, '--workers', '1', '--report', report, ...LIMIT]);
    expect(await second.exited).toBe(0);
    const items = expectComplete(report, names);
    expect(second.of('batch')[0]).toMatchObject({ resumed: before.length });
    // The re-run ran only what the first left: its items are the rest, each started once.
    const rerun = second.of('item').map((i) => String(i.id)).sort();
    expect(rerun).toEqual(names.filter((n) => !before.some((b) => b.id === n)).sort());
    expect(second.of('started').map((e) => String(e.id)).sort()).toEqual(rerun);
    expect(summaryOf(second)).toMatchObject({ totals: { done: names.length, errors: 0 }, run: { ran: rerun.length } });
    // The items of the first run are still in the report as they were.
    expect(items.filter((i) => before.some((b) => b.job === i.job && b.finished === i.finished))).toHaveLength(before.length);
  }, 90_000);
});
