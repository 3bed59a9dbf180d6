import { describe, expect, it } from 'vitest';
import type { TreeView } from '../proof-tree/proof-tree.ts';
import { contentOf, layoutTree } from './layout-tree.ts';
import { nodeContent, nodeSize } from './node-content.ts';
import { syntheticTree } from './synthetic-tree.ts';
import { accumulatedContext, countNodes, currentGoalNode, searchTree } from '../proof-tree/tree-view-queries.ts';
import { treeToSvg } from './tree-svg.ts';

const leaf = (id: number, goal: string, extra: Partial<TreeView> = {}): TreeView =>
  ({ id, kind: 'leaf', status: 'open', step: 1, ctxt: { vars: [], hyps: [] }, goal, ...extra });

const sample: TreeView = {
  id: 0, kind: 'bundle', status: 'bundle', step: 2, ctxt: { vars: [{ name: 'n', type: 'nat' }], hyps: [] }, current: undefined,
  children: [
    leaf(1, '1 + 1 = 2', { current: 'goal' }),
    leaf(2, 'n + 0 = n', { ctxt: { vars: [], hyps: [{ name: 'h', expr: '1 + 1 = 2' }] } }),
  ],
};

function overlaps(a: { x: number; y: number; w: number; h: number }, b: typeof a): boolean {
  return a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
}

describe('tree layout', () => {
  it('places every node left to right, children right of their parent', () => {
    const layout = layoutTree(sample);
    expect(layout.nodes).toHaveLength(3);
    const [root, a, b] = layout.nodes;
    expect(root?.parent).toBe(-1);
    expect(a?.x).toBeGreaterThan((root?.x ?? 0) + (root?.w ?? 0));
    expect(a?.y).toBeLessThan(b?.y ?? 0);
    expect(layout.index.get(2)).toBe(2);
    expect(a?.current).toBe('goal');
  });

  it('shows each node\'s own context as chips', () => {
    const layout = layoutTree(sample);
    expect(contentOf(layout.nodes[0]!).chipRows.flat()).toEqual(['n : nat']);
    expect(contentOf(layout.nodes[2]!).chipRows.flat()).toEqual(['h : 1 + 1 = 2']);
  });

  it('never overlaps boxes, also for large random trees', () => {
    const layout = layoutTree(syntheticTree(2000, 7));
    const sorted = [...layout.nodes].sort((p, q) => p.y - q.y);
    for (let i = 0; i < sorted.length; i++) {
      for (let j = i + 1; j < sorted.length && (sorted[j]?.y ?? 0) < (sorted[i]?.y ?? 0) + 200; j++) {
        expect(overlaps(sorted[i]!, sorted[j]!)).toBe(false);
      }
    }
    for (const n of layout.nodes) {
      expect(n.y).toBeGreaterThanOrEqual(-1e-6);
      expect(n.y + n.h).toBeLessThanOrEqual(layout.height + 1e-6);
    }
  });

  it('sizes boxes for exactly the chip rows it draws', () => {
    const many: TreeView = leaf(9, 'G', { ctxt: { vars: Array.from({ length: 12 }, (_, i) => ({ name: `v${i}`, type: 'list (list nat)' })), hyps: [] } });
    const { w, h } = nodeSize(many);
    const rows = nodeContent(many, w).chipRows;
    expect(rows).toHaveLength(3);
    expect(rows[2]?.at(-1)).toMatch(/^\+\d+$/);
    expect(h).toBe(24 + 3 * 20 + 2);
  });

  it('collapses a bundle and counts what it hides', () => {
    const layout = layoutTree(sample, { collapsed: new Set([0]) });
    expect(layout.nodes).toHaveLength(1);
    expect(layout.nodes[0]?.hidden).toBe(2);
  });

  it('overlays running/failed on the current goal and marks all-proved bundles proved', () => {
    expect(layoutTree(sample, { overlay: { current: 'failed' } }).nodes[1]?.status).toBe('failed');
    const proved: TreeView = { ...sample, children: sample.children!.map((c) => ({ ...c, status: 'proved' as const })) };
    expect(layoutTree(proved).nodes[0]?.status).toBe('proved');
  });

  it('lays out a 10,000-node tree completely (its time is reported by `npm run bench:tree`, not asserted here)', () => {
    const tree = syntheticTree(10_000, 3);
    expect(countNodes(tree)).toBeGreaterThanOrEqual(9_999);
    const layout = layoutTree(tree);
    expect(layout.nodes.length).toBe(countNodes(tree));
    expect(layout.nodes.every((n) => Number.isFinite(n.x) && Number.isFinite(n.y))).toBe(true);
  });
});

describe('tree queries', () => {
  it('accumulates the context along the path', () => {
    expect(accumulatedContext(sample, 2).map((e) => e.name)).toEqual(['n', 'h']);
    expect(currentGoalNode(sample)?.id).toBe(1);
    expect(searchTree(sample, 'N + 0')).toEqual([2]);
  });

  it('exports SVG with a node per tree node, status and legend', () => {
    const svg = treeToSvg(layoutTree(sample), { title: 'x < y' });
    expect(svg.startsWith('<svg')).toBe(true);
    expect(svg.match(/data-id=/g)).toHaveLength(3);
    expect(svg).toContain('data-current="goal"');
    expect(svg).toContain('x &lt; y');
    expect(svg).toContain('proved');
  });
});
