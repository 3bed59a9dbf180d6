import type { TreeView } from '../proof-tree/proof-tree.ts';
import type { StatusOverlay } from './display-status.ts';
import { leafStatus } from './display-status.ts';
import type { LaidOutNode, TreeLayout } from './layout-tree.ts';
import { extrasOf } from './layout-tree.ts';
import type { NodeExtras, NodeTitle } from './node-content.ts';
import { nodeSize, nodeTitle } from './node-content.ts';

export interface CompactLayoutOptions {
  collapsed?: ReadonlySet<number>;
  overlay?: StatusOverlay;
  /** Gap between a proof's column and the column of its side proofs, and between stacked boxes. */
  columnGap?: number;
  rowGap?: number;
}

interface Placed {
  view: TreeView;
  parent: Placed | undefined;
  depth: number;
  x: number;
  y: number;
  w: number;
  h: number;
  title: NodeTitle;
  extras: NodeExtras | undefined;
  kids: Placed[];
}

/** A laid-out block, in coordinates relative to its own top-left. */
interface Block {
  w: number;
  h: number;
  nodes: Placed[];
}

/**
 * A derivation laid out compactly, in the spirit of Paperproof: a proof reads downward — each goal's
 * continuation (its last child: the main goal after a `HAVE`, the last case of a split) is stacked right
 * below it in the same column — and the other children (a `HAVE`'s own proof, the earlier cases) are side
 * proofs in one column to its right, each stacked under the previous one. So a chain of `HAVE`s stays two
 * columns wide instead of a staircase one column deeper per `HAVE`, and nesting only widens the tree where
 * side proofs have side proofs of their own. Each box is titled by what is new there (`nodeTitle`).
 * Pure and framework-free, like `layoutTree`; nodes are emitted breadth first so each parent's children are
 * contiguous.
 */
export function compactLayout(view: TreeView, options: CompactLayoutOptions = {}): TreeLayout {
  const collapsed = options.collapsed ?? new Set<number>();
  const overlay = options.overlay ?? {};
  const columnGap = options.columnGap ?? 28;
  const rowGap = options.rowGap ?? 10;
  const make = (v: TreeView, parent: Placed | undefined, depth: number): Placed => {
    const title = nodeTitle(v, parent?.view.goal, parent?.view.scope);
    const extras = extrasOf(v, collapsed, overlay);
    // Measured with its extras: a failure's note wraps over several lines in a compact box.
    const size = nodeSize(v, title, extras);
    return { view: v, parent, depth, x: 0, y: 0, w: size.w, h: size.h, title, extras, kids: [] };
  };
  const childrenOf = (v: TreeView): TreeView[] => (collapsed.has(v.id) ? [] : v.children ?? []);

  // A chain: the node, its continuation, the continuation's continuation…; side proofs to the right.
  const block = (head: Placed): Block => {
    const chain: Placed[] = [head];
    for (let n = head; ;) {
      const kids = childrenOf(n.view);
      if (kids.length === 0) break;
      n.kids = kids.map((k) => make(k, n, n.depth + 1));
      n = n.kids[n.kids.length - 1] as Placed;
      chain.push(n);
    }
    const colW = Math.max(...chain.map((c) => c.w));
    const nodes: Placed[] = [];
    const side: { b: Block; y: number }[] = [];
    let y = 0;
    let sideBottom = -rowGap;
    let sideW = 0;
    for (const c of chain) {
      c.x = 0;
      c.y = y;
      nodes.push(c);
      for (const s of c.kids.slice(0, -1)) {
        const b = block(s);
        const sy = Math.max(y, sideBottom + rowGap);
        side.push({ b, y: sy });
        sideBottom = sy + b.h;
        sideW = Math.max(sideW, b.w);
      }
      y += c.h + rowGap;
    }
    const sx = colW + columnGap;
    for (const { b, y: sy } of side) {
      for (const n of b.nodes) {
        n.x += sx;
        n.y += sy;
        nodes.push(n);
      }
    }
    return { w: sideW > 0 ? sx + sideW : colW, h: Math.max(y - rowGap, sideBottom), nodes };
  };

  const root = make(view, undefined, 0);
  const whole = block(root);
  // Breadth first: each parent's children contiguous, in order (the culling index relies on it).
  const order: Placed[] = [];
  const queue: Placed[] = [root];
  for (let i = 0; i < queue.length; i++) {
    const p = queue[i] as Placed;
    order.push(p);
    queue.push(...p.kids);
  }
  const at = new Map<Placed, number>();
  order.forEach((p, i) => at.set(p, i));
  const index = new Map<number, number>();
  const proved = new Map<Placed, boolean>();
  const isProved = (p: Placed): boolean => {
    let v = proved.get(p);
    if (v === undefined) {
      v = p.view.kind === 'leaf' ? p.view.status === 'proved' : p.kids.length > 0 ? p.kids.every(isProved) : (p.view.children ?? []).length === 0;
      proved.set(p, v);
    }
    return v;
  };
  const nodes: LaidOutNode[] = order.map((p, i) => {
    const v = p.view;
    const node: LaidOutNode = {
      id: v.id,
      parent: p.parent ? (at.get(p.parent) as number) : -1,
      depth: p.depth,
      x: p.x,
      y: p.y,
      w: p.w,
      h: p.h,
      status: v.kind === 'leaf' ? leafStatus(v, overlay) : isProved(p) ? 'proved' : 'bundle',
      step: v.step,
      hidden: collapsed.has(v.id) ? v.children?.length ?? 0 : 0,
      view: v,
      title: p.title,
    };
    if (v.current) node.current = v.current;
    if (p.extras) node.extras = p.extras;
    index.set(node.id, i);
    return node;
  });
  return { nodes, index, width: whole.w, height: whole.h, columnGap, compact: true };
}
