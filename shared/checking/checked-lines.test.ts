import { describe, expect, it } from 'vitest';
import type { CheckedLine } from './checked-lines.ts';
import { changedLines, commandLinesBetween, firstStaleLine, recheckTarget, retractFrom } from './checked-lines.ts';

const entries: CheckedLine[] = [
  { line: 1, text: 'GOAL "A"', stepBefore: 0, stepAfter: 1 },
  { line: 2, text: 'HAVE h "B"', stepBefore: 1, stepAfter: 2 },
  { line: 4, text: 'END', stepBefore: 2, stepAfter: 3 },
  { line: 5, text: 'END', stepBefore: 3, stepAfter: 4 },
];

describe('checked lines', () => {
  it('skips blank and comment lines', () => {
    expect(commandLinesBetween(['GOAL "A"', '  ', '  // why', 'END'], 1, 4)).toEqual([1, 4]);
  });

  it('editing line k reverts to the step before it and keeps the lines above', () => {
    const r = retractFrom(entries, 4);
    expect(r.kept.map((e) => e.line)).toEqual([1, 2]);
    expect(r.dropped.map((e) => e.line)).toEqual([4, 5]);
    expect(r.action).toEqual({ kind: 'revert', step: 2 });
  });

  it('an edit in a blank line between checked lines retracts from the next command line', () => {
    expect(retractFrom(entries, 3).action).toEqual({ kind: 'revert', step: 2 });
  });

  it('editing the GOAL line resets the proof; editing below the checked region does nothing', () => {
    expect(retractFrom(entries, 1).action).toEqual({ kind: 'reset' });
    expect(retractFrom(entries, 9).action).toEqual({ kind: 'none' });
  });

  it('finds the first line whose text no longer matches', () => {
    expect(firstStaleLine(entries, ['GOAL "A"', 'HAVE h "B"', '', 'END', 'END'])).toBeUndefined();
    expect(firstStaleLine(entries, ['GOAL "A"', 'HAVE h "C"', '', 'END', 'END'])).toBe(2);
  });

  it('moves the re-check target with inserted lines', () => {
    expect(recheckTarget(5, 2, 1)).toBe(6);
    expect(recheckTarget(5, 7, 1)).toBe(5);
  });
});

describe('changedLines (a whole text sent without its edit)', () => {
  it('finds the first line that differs and the change in line count', () => {
    expect(changedLines(['a', 'b', 'c'], ['a', 'B', 'c'])).toEqual({ firstLine: 2, lineDelta: 0 });
    expect(changedLines(['a', 'b'], ['a', 'b', 'c', 'd'])).toEqual({ firstLine: 3, lineDelta: 2 });
    expect(changedLines(['a', 'b', 'c'], ['a'])).toEqual({ firstLine: 2, lineDelta: -2 });
    expect(changedLines(['a'], ['x', 'a'])).toEqual({ firstLine: 1, lineDelta: 1 });
  });
  it('is undefined for the same text', () => {
    expect(changedLines(['a', ''], ['a', ''])).toBeUndefined();
    expect(changedLines([], [])).toBeUndefined();
  });
});
