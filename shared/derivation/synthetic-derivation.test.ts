import { describe, expect, it } from 'vitest';
import type { TreeView } from '../proof-tree/proof-tree.ts';
import { SUMMARY_BUDGET, summariseTree } from './derivation-summary.ts';
import { syntheticDerivation } from './synthetic-derivation.ts';

const all = (t: TreeView): TreeView[] => [t, ...(t.children ?? []).flatMap(all)];

describe('synthetic derivations (the readability benchmark\'s input)', () => {
  it.each([10, 100, 1_000, 10_000])('has exactly %i goals, one current open goal, the rest closed', (size) => {
    const nodes = all(syntheticDerivation(size));
    expect(nodes).toHaveLength(size);
    expect(new Set(nodes.map((n) => n.id)).size).toBe(size);
    expect(nodes.filter((n) => n.current === 'goal')).toHaveLength(1);
    expect(nodes.filter((n) => !n.closed).every((n) => n.status === 'open')).toBe(true);
    if (size >= 100) expect(nodes.filter((n) => n.closed).length).toBeGreaterThan(size / 2);
  });

  it('opens summarised when large: few nodes drawn, the open path kept', () => {
    const { view, collapsed } = summariseTree(syntheticDerivation(10_000), new Set());
    const visible = (t: TreeView): TreeView[] => [t, ...(collapsed.has(t.id) ? [] : (t.children ?? []).flatMap(visible))];
    const shown = visible(view);
    expect(shown.length).toBeLessThanOrEqual(SUMMARY_BUDGET * 3);
    expect(shown.some((n) => n.current === 'goal')).toBe(true);
  });
});
