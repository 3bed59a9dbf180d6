import { describe, expect, it } from 'vitest';
import { layoutTree } from '../../shared/tree-layout/layout-tree.ts';
import { syntheticTree } from '../../shared/tree-layout/synthetic-tree.ts';
import { buildIndex, countVisible, forEachVisible, forEachVisibleFan, hitTest } from './tree-index.ts';

describe('tree culling index', () => {
  const layout = layoutTree(syntheticTree(3000, 11));
  const index = buildIndex(layout);

  it('finds exactly the nodes a brute-force scan finds', () => {
    for (const [x0, y0, x1, y1] of [[0, 0, 800, 600], [500, 3000, 1500, 3800], [-100, -100, 1e6, 1e6], [2000, 10000, 2600, 10400]] as const) {
      const got: number[] = [];
      forEachVisible(layout, index, x0, y0, x1, y1, (i) => got.push(i));
      const want = layout.nodes.flatMap((n, i) => (n.x <= x1 && n.x + n.w >= x0 && n.y <= y1 && n.y + n.h >= y0 ? [i] : []));
      expect(got.sort((a, b) => a - b)).toEqual(want);
      expect(countVisible(layout, index, x0, y0, x1, y1)).toBeGreaterThanOrEqual(want.length);
    }
  });

  it('finds every edge fan that crosses the viewport', () => {
    const [x0, y0, x1, y1] = [300, 2000, 1600, 2600];
    const got = new Set<number>();
    forEachVisibleFan(layout, index, x0, y0, x1, y1, (p) => got.add(p));
    layout.nodes.forEach((n, i) => {
      const p = layout.nodes[n.parent];
      if (!p) return;
      const top = Math.min(p.y, n.y), bottom = Math.max(p.y + p.h, n.y + n.h);
      if (top <= y1 && bottom >= y0 && p.x <= x1 && n.x >= x0) expect(got.has(n.parent), `edge ${n.parent}→${i}`).toBe(true);
    });
  });

  it('hit-tests a node centre', () => {
    const n = layout.nodes[123]!;
    expect(hitTest(layout, index, n.x + n.w / 2, n.y + n.h / 2)).toBe(123);
    expect(hitTest(layout, index, -50, -50)).toBeUndefined();
  });
});
