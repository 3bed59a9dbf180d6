import { describe, expect, it } from 'vitest';
import type { BatchItemLine } from './batch-report.ts';
import { batchTotals, formatDuration, formatProgress, readBatchReport } from './batch-report.ts';

const item = (job: string, outcome: string, worker = 'w1', ms = 10): BatchItemLine => ({ type: 'item', id: job, job, outcome, evidence: {}, ms, worker, attempts: 1, finished: '2026-01-01T00:00:00Z' });

describe('batch report', () => {
  it('reads its lines back, skipping a line cut short by a crash and lines not its own', () => {
    const header = { type: 'batch', batch: 'b1', kind: 'aim', input: 'x', items: 3, mode: 'local', started: 's', resumed: 0, options: {} };
    const text = [JSON.stringify(header), JSON.stringify(item('j1', 'proved')), '{"type":"item","id":"j2","jo', JSON.stringify({ type: 'other' }), JSON.stringify(item('j3', 'error')), ''].join('\n');
    const { headers, items, summaries } = readBatchReport(text);
    expect(headers).toHaveLength(1);
    expect(items.map((i) => i.job)).toEqual(['j1', 'j3']);
    expect(summaries).toEqual([]);
  });

  it('counts an item reported twice once (the last line wins)', () => {
    const t = batchTotals(4, [item('j1', 'error', 'w1', 5), item('j2', 'proved', 'w2', 30), item('j1', 'proved', 'w2', 20)]);
    expect(t).toEqual({ items: 4, done: 2, errors: 0, byOutcome: { proved: 2 }, byWorker: { w2: 2 }, itemMs: { sum: 50, median: 30 } });
  });

  it('formats progress: done, errors, rate, time left, outcomes', () => {
    const line = formatProgress({ type: 'progress', done: 12, total: 40, errors: 1, perMinute: 23.46, etaSeconds: 65, elapsedSeconds: 30 }, { proved: 10, unproved: 1, error: 1 });
    expect(line).toBe('12/40 done · 1 error · 23.5/min · 1m05s left · proved 10, unproved 1');
    expect(formatProgress({ type: 'progress', done: 0, total: 3, errors: 0, perMinute: 0, etaSeconds: null, elapsedSeconds: 0 }, {})).toBe('0/3 done · 0 errors · 0.0/min · time left: …');
    expect(formatDuration(7325)).toBe('2h02m');
  });
});
