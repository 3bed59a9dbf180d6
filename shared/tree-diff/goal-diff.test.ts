import { describe, expect, it } from 'vitest';
import type { TreeView } from '../proof-tree/proof-tree.ts';
import { diffContexts, mostlyChanged, sidesOf, stepDiff } from './goal-diff.ts';
import { diffText } from './text-diff.ts';

describe('goal diff', () => {
  it('classifies hypotheses as added, removed and changed', () => {
    const d = diffContexts(
      [{ kind: 'hyp', name: 'H', text: 'a = b' }, { kind: 'var', name: 'x', text: 'nat' }],
      [{ kind: 'hyp', name: 'H', text: 'b = a' }, { kind: 'hyp', name: 'IH', text: 'P n' }],
    );
    expect(d.added.map((e) => e.name)).toEqual(['IH']);
    expect(d.removed.map((e) => e.name)).toEqual(['x']);
    expect(d.changed).toEqual([{ kind: 'hyp', name: 'H', before: 'a = b', after: 'b = a' }]);
  });

  it('highlights the changed tokens of a goal', () => {
    const parts = diffText('S n + 0 = S n', 'S (n + 0) = S n');
    expect(parts.filter((p) => p.kind !== 'removed').map((p) => p.text).join('')).toBe('S (n + 0) = S n');
    expect(parts.filter((p) => p.kind !== 'added').map((p) => p.text).join('')).toBe('S n + 0 = S n');
    expect(parts.some((p) => p.kind === 'added' && p.text.includes('('))).toBe(true);
  });

  it('diffs the acted-on goal against the goals the step produced', () => {
    const empty = { vars: [], hyps: [] };
    const before: TreeView = { id: 0, kind: 'leaf', status: 'open', step: 1, ctxt: empty, goal: 'forall n, n + 0 = n', current: 'goal' };
    const after: TreeView = {
      id: 0, kind: 'bundle', status: 'bundle', step: 2, ctxt: empty, children: [
        { id: 0, kind: 'leaf', status: 'open', step: 2, ctxt: empty, goal: '0 + 0 = 0', current: 'goal' },
        { id: 1, kind: 'leaf', status: 'open', step: 2, ctxt: { vars: [{ name: 'n', type: 'nat' }], hyps: [{ name: 'IH', expr: 'n + 0 = n' }] }, goal: 'S n + 0 = S n' },
      ],
    };
    const d = stepDiff(before, after, 2);
    expect(d.actedOn?.id).toBe(0);
    expect(d.produced).toHaveLength(2);
    expect(d.produced[1]?.context.added.map((e) => e.name)).toEqual(['n', 'IH']);
    expect(d.closed).toBe(false);
  });
});

describe('mostlyChanged', () => {
  it('a rewritten goal is shown old above new; a small edit stays a word diff', () => {
    const rewritten = diffText('forall l : list nat, fold_left Nat.add l 0 = fold_right Nat.add 0 l', 'True');
    expect(mostlyChanged(rewritten)).toBe(true);
    expect(sidesOf(rewritten)).toEqual({ before: 'forall l : list nat, fold_left Nat.add l 0 = fold_right Nat.add 0 l', after: 'True' });
    const edited = diffText('n + 0 = n', 'n = n');
    expect(mostlyChanged(edited)).toBe(false);
    expect(mostlyChanged(diffText('a', 'a'))).toBe(false);
  });
});
