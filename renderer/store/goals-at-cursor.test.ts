import { describe, expect, it } from 'vitest';
import type { DocumentCheck } from '../../shared/checking/document-check.ts';
import type { TreeView } from '../../shared/proof-tree/proof-tree.ts';
import { entryAtOrAbove, goalsAtLine, missingSteps, stateForLine } from './goals-at-cursor.ts';
import { problemsOf } from './problems.ts';

const leaf = (id: number, goal: string, step: number, hyps: { name: string; expr: string }[] = []): TreeView =>
  ({ id, kind: 'leaf', status: 'open', step, ctxt: { vars: [], hyps }, goal });
const bundle = (id: number, step: number, children: TreeView[]): TreeView => ({ id, kind: 'bundle', status: 'bundle', step, ctxt: { vars: [], hyps: [] }, children });

// Line 1 GOAL (step 1), line 2 blank, line 3 APPLY (step 2), line 4 END (step 3: finished), line 5 GOAL (step 4).
const trees: Record<number, TreeView | null> = {
  1: bundle(0, 1, [leaf(1, 'A -> A', 1)]),
  2: bundle(0, 1, [leaf(2, 'A', 2, [{ name: 'H', expr: 'A' }])]),
  3: bundle(0, 1, []),
  4: bundle(0, 4, [leaf(5, 'B', 4)]),
};
const check: DocumentCheck = {
  entries: [
    { line: 1, text: 'GOAL a "A -> A"', stepBefore: 0, stepAfter: 1 },
    { line: 3, text: 'APPLY intro H', stepBefore: 1, stepAfter: 2 },
    { line: 4, text: 'END', stepBefore: 2, stepAfter: 3 },
    { line: 5, text: 'GOAL b "B"', stepBefore: 3, stepAfter: 4 },
  ],
  error: { line: 7, message: 'fail: no' },
};
const tree = (step: number) => (step === 0 ? null : trees[step]);

describe('goals at the cursor', () => {
  it('finds the checked line at or above a line', () => {
    expect(entryAtOrAbove(check.entries, 2)?.line).toBe(1);
    expect(entryAtOrAbove(check.entries, 4)?.line).toBe(4);
    expect(entryAtOrAbove(check.entries, 0)).toBeUndefined();
  });
  it('shows the states before and after a checked line of any item, from the step trees', () => {
    const g = goalsAtLine(check, 3, tree);
    expect(g.kind).toBe('checked');
    if (g.kind !== 'checked') return;
    expect(g.before).toBe(trees[1]);
    expect(g.after).toBe(trees[2]);
    expect(goalsAtLine(check, 1, tree)).toMatchObject({ kind: 'checked', before: null });
  });
  it('between lines: the state after the line above; the failing line: the state it ran on; below: not checked', () => {
    expect(goalsAtLine(check, 2, tree)).toMatchObject({ kind: 'between', after: trees[1] });
    expect(goalsAtLine(check, 7, tree)).toMatchObject({ kind: 'failed', before: trees[4], error: 'fail: no' });
    expect(goalsAtLine(check, 9, tree)).toMatchObject({ kind: 'unchecked', checkedThrough: 5, before: trees[4] });
  });
  it('asks the host only for the steps it does not hold', () => {
    const partial = (step: number) => (step === 1 ? undefined : tree(step));
    expect(missingSteps(goalsAtLine(check, 3, partial), check)).toEqual([1]);
    expect(missingSteps(goalsAtLine(check, 3, tree), check)).toEqual([]);
  });
  it('completion at a line uses the state its command runs on', () => {
    expect(stateForLine(check, 3, tree)).toBe(trees[1]);
    expect(stateForLine(check, 6, tree)).toBe(trees[4]);
  });
});

describe('problems', () => {
  it('lists one proved line per finished item and the failing line once, with its hammer report when it is that error', () => {
    const report = { ms: 20_000, stages: [] };
    expect(problemsOf(check, tree, { error: 'fail: no', report })).toEqual([
      { kind: 'proved', line: 4, name: 'a' },
      { kind: 'error', line: 7, message: 'fail: no', hammer: report },
    ]);
    // A report of another error is not this one's.
    expect(problemsOf(check, tree, { error: 'fail: other', report })[1]).toEqual({ kind: 'error', line: 7, message: 'fail: no' });
    // Fixed (the host dropped the error): gone.
    expect(problemsOf({ entries: check.entries }, tree)).toEqual([{ kind: 'proved', line: 4, name: 'a' }]);
  });

  it('marks a proof finished under a section\'s hypotheses as conditional (END\'s PREMISES at its step)', () => {
    const premises = [{ kind: 'hypothesis' as const, name: 'H', statement: 'False' }];
    expect(problemsOf({ entries: check.entries }, tree, undefined, { 3: premises })).toEqual([{ kind: 'proved', line: 4, name: 'a', premises }]);
    // Premises of another step (a proof since reverted) are not this one's.
    expect(problemsOf({ entries: check.entries }, tree, undefined, { 9: premises })).toEqual([{ kind: 'proved', line: 4, name: 'a' }]);
  });
});
