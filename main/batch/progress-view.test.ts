import { afterEach, describe, expect, it } from 'vitest';
import type { BatchItemLine } from '../../shared/batch/batch-report.ts';
import { ProgressView } from './progress-view.ts';

/** A stream that keeps what is written (and says whether it is a terminal). */
function sink(isTTY: boolean): NodeJS.WriteStream & { text: string } {
  const s = { text: '', isTTY, columns: 200, write(chunk: string) { s.text += chunk; return true; } };
  return s as unknown as NodeJS.WriteStream & { text: string };
}

const item = (id: string, outcome: string): BatchItemLine => ({ type: 'item', id, job: `aim-${id}`, outcome, evidence: {}, ms: 12, worker: 'w1', attempts: 1, finished: 'f' });

let view: ProgressView | undefined;
afterEach(() => view?.finish());

describe('ProgressView', () => {
  it('on a terminal: one line redrawn in place with done, errors, rate, time left and outcomes', () => {
    const out = sink(false);
    const err = sink(true);
    view = new ProgressView(3, false, out, err);
    view.item(item('a', 'proved'), true);
    view.item(item('b', 'error'), true);
    view.notice('worker w2 died');
    expect(out.text).toBe('');
    const frames = err.text.split('\r\x1b[2K').filter(Boolean);
    expect(frames.at(-1)).toMatch(/^2\/3 done · 1 error · \d+\.\d\/min · (\d+s left|time left: …) · proved 1$/);
    expect(err.text).toContain('worker w2 died\n');
  });

  it('not on a terminal: one line per item on stderr', () => {
    const err = sink(false);
    view = new ProgressView(2, false, sink(false), err);
    view.item(item('a', 'proved'), true);
    expect(err.text).toBe('[1/2] a: proved (12 ms, w1)\n');
  });

  it('--json: report lines, a progress line after each item, started and notice lines on stdout', () => {
    const out = sink(false);
    const err = sink(true);
    view = new ProgressView(2, true, out, err);
    view.count(item('old', 'proved'));
    view.started('a', 'aim-a', 'w1');
    view.item(item('a', 'unproved'), true);
    view.notice('hello');
    const lines = out.text.trim().split('\n').map((l) => JSON.parse(l) as { type: string });
    expect(lines.map((l) => l.type)).toEqual(['started', 'item', 'progress', 'notice']);
    expect(lines[2]).toMatchObject({ done: 2, total: 2, errors: 0, etaSeconds: 0 });
    expect(err.text).toBe('');
  });
});
