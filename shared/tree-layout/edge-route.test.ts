import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { edgePathData, edgeRoute } from './edge-route.ts';
import { layoutTree } from './layout-tree.ts';
import { syntheticTree } from './synthetic-tree.ts';

/** Column positions are sums of widths: allow for floating-point rounding where boxes touch the gap. */
const EPS = 1e-6;

describe('edge routes', () => {
  it('never run behind a node other than their own two, for random trees', () => {
    fc.assert(fc.property(fc.integer({ min: 3, max: 600 }), fc.integer({ min: 1, max: 1_000_000 }), (size, seed) => {
      const layout = layoutTree(syntheticTree(size, seed));
      for (const child of layout.nodes) {
        const parent = layout.nodes[child.parent];
        if (!parent) continue;
        const r = edgeRoute(parent, child, layout.columnGap);
        for (const other of layout.nodes) {
          if (other === parent || other === child) continue;
          // The straight part runs along the parent's middle row up to the column's end…
          const onStraight = other.x < r.jx - EPS && other.x + other.w > r.sx + EPS && other.y < r.sy && other.y + other.h > r.sy;
          // …and the curve stays strictly inside the gap between the two columns.
          const inCurveBand = other.x < r.ex - EPS && other.x + other.w > r.jx + EPS;
          if (onStraight || inCurveBand) return false;
        }
        if (!(r.sx <= r.jx && r.jx < r.ex)) return false;
      }
      return true;
    }), { numRuns: 40 });
  });

  it('writes the same route as an SVG path', () => {
    const d = edgePathData({ sx: 10, sy: 5, jx: 40, ex: 88, ey: 30 });
    expect(d).toBe('M10,5H40C64,5 64,30 88,30');
    expect(edgePathData({ sx: 40, sy: 5, jx: 40, ex: 88, ey: 30 })).toBe('M40,5C64,5 64,30 88,30');
  });
});
