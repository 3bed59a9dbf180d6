import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { TreeView } from './proof-tree.ts';
import { diffTrees, fullDelta, indexTree, TreeReplica } from './tree-delta.ts';

const ctx = (names: string[]): TreeView['ctxt'] => ({ vars: names.map((n) => ({ name: n, type: 'nat' })), hyps: [] });
const leaf = (id: number, goal: string, names: string[] = []): TreeView => ({ id, kind: 'leaf', status: 'open', step: 1, ctxt: ctx(names), goal });
const bundle = (id: number, children: TreeView[]): TreeView => ({ id, kind: 'bundle', status: 'bundle', step: 1, ctxt: ctx([]), children });

/** A random tree with unique ids, from a seed list of (parent choice, goal) pairs. */
const treeArb = fc.array(fc.record({ parent: fc.nat(), goal: fc.constantFrom('A', 'B', 'C'), names: fc.subarray(['x', 'y']) }), { minLength: 1, maxLength: 30 })
  .map((specs) => {
    // Node i hangs below one of the nodes before it; leaves are nodes without children.
    const kids = new Map<number, number[]>();
    specs.forEach((s, i) => {
      if (i === 0) return;
      const p = s.parent % i;
      kids.set(p, [...(kids.get(p) ?? []), i]);
    });
    const build = (i: number): TreeView => {
      const c = kids.get(i);
      const s = specs[i]!;
      return c ? { ...bundle(i, c.map(build)), ctxt: ctx(s.names) } : leaf(i, s.goal, s.names);
    };
    return build(0);
  });

/** A copy of `tree` with some leaves' goals changed and some subtrees dropped (ids stay unique). */
const mutate = (tree: TreeView, flips: boolean[]): TreeView => {
  let k = 0;
  const visit = (n: TreeView): TreeView | undefined => {
    const flip = flips[k++ % Math.max(1, flips.length)] ?? false;
    if (n.kind === 'leaf') return flip ? { ...n, goal: `${n.goal}'` } : { ...n };
    const children = (n.children ?? []).map(visit).filter((c): c is TreeView => c !== undefined);
    if (flip && children.length > 1) children.pop();
    return { ...n, children };
  };
  return visit(tree) as TreeView;
};

describe('tree changes', () => {
  it('applying the change from one tree to another gives the other tree', () => {
    fc.assert(fc.property(treeArb, fc.array(fc.boolean(), { minLength: 1, maxLength: 8 }), (before, flips) => {
      const after = mutate(before, flips);
      const replica = new TreeReplica();
      replica.apply(fullDelta(before));
      expect(replica.root).toEqual(before);
      expect(replica.apply(diffTrees(before, after))).toEqual(after);
    }));
  });

  it('works between unrelated trees and to and from no tree', () => {
    fc.assert(fc.property(treeArb, treeArb, (a, b) => {
      const replica = new TreeReplica();
      replica.apply(fullDelta(a));
      expect(replica.apply(diffTrees(a, b))).toEqual(b);
      expect(replica.apply(diffTrees(b, null))).toBeNull();
      expect(replica.apply(diffTrees(null, a))).toEqual(a);
    }));
  });

  it('a change to one leaf of a wide bundle names that leaf and its ancestors only, and old subtrees are shared', () => {
    const wide = (goal0: string): TreeView => bundle(0, [bundle(1, Array.from({ length: 5000 }, (_, i) => leaf(i + 10, i === 0 ? goal0 : 'P'))), leaf(2, 'Q')]);
    const before = wide('P'), after = wide('P /\\ P');
    const delta = diffTrees(before, after);
    expect(delta.nodes.map((n) => n.id)).toEqual([10, 1, 0]);
    expect(delta.removed).toEqual([]);
    const replica = new TreeReplica();
    const old = replica.apply(fullDelta(before)) as TreeView;
    const next = replica.apply(delta) as TreeView;
    expect(next).toEqual(after);
    // Unchanged nodes are the very objects of the previous tree (history costs only what changed).
    expect(next.children?.[1]).toBe(old.children?.[1]);
    expect(next.children?.[0]?.children?.[1]).toBe(old.children?.[0]?.children?.[1]);
  });

  it('an unchanged tree is an empty change; removed ids are listed', () => {
    const t = bundle(0, [leaf(1, 'A'), leaf(2, 'B')]);
    expect(diffTrees(t, structuredClone(t))).toEqual({ root: 0, nodes: [], removed: [] });
    expect(diffTrees(t, leaf(1, 'A')).removed.sort()).toEqual([0, 2]);
  });

  it('a change against a copy that lacks a node is refused (the client must resynchronise)', () => {
    const replica = new TreeReplica();
    expect(() => replica.apply({ root: 0, nodes: [{ id: 0, kind: 'bundle', status: 'bundle', step: 1, ctxt: ctx([]), children: [7] }], removed: [] })).toThrow(/node 7/);
  });

  it('indexes deep trees without recursion', () => {
    let t: TreeView = leaf(0, 'A');
    for (let i = 1; i < 50_000; i++) t = bundle(i, [t, leaf(100_000 + i, 'B')]);
    expect(indexTree(t).size).toBe(99_999);
    const replica = new TreeReplica();
    expect(() => replica.apply(fullDelta(t))).not.toThrow();
  });
});
