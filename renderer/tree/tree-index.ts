import type { TreeLayout } from '../../shared/tree-layout/layout-tree.ts';

/**
 * Culling index over a layout. `layoutTree` emits nodes breadth-first, so each depth is a contiguous
 * run of nodes sorted top to bottom, and each parent's children are contiguous: visible nodes and
 * edges are found by binary search per column, in O(columns · log n + visible).
 */
export interface TreeIndex {
  columns: { depth: number; start: number; end: number; x: number; w: number }[];
  firstChild: Int32Array;
  childCount: Int32Array;
  /** Per node, over its column: running max of fan bottoms, running min (from the end) of fan tops. */
  fanLowPrefix: Float64Array;
  fanHighSuffix: Float64Array;
  /** A compact layout (a derivation, a few hundred nodes at most once summarised): no sorted columns, scan it. */
  linear: boolean;
}

const meets = (n: { x: number; y: number; w: number; h: number }, x0: number, y0: number, x1: number, y1: number): boolean =>
  n.x <= x1 && n.x + n.w >= x0 && n.y <= y1 && n.y + n.h >= y0;

export function buildIndex(layout: TreeLayout): TreeIndex {
  const n = layout.nodes.length;
  const firstChild = new Int32Array(n).fill(-1);
  const childCount = new Int32Array(n);
  const columns: TreeIndex['columns'] = [];
  for (let i = 0; i < n; i++) {
    const node = layout.nodes[i]!;
    if (node.parent >= 0) {
      if (firstChild[node.parent] === -1) firstChild[node.parent] = i;
      childCount[node.parent]!++;
    }
    const col = columns[node.depth];
    if (!col) columns[node.depth] = { depth: node.depth, start: i, end: i + 1, x: node.x, w: node.w };
    else {
      col.end = i + 1;
      col.w = Math.max(col.w, node.w);
    }
  }
  const fanLowPrefix = new Float64Array(n);
  const fanHighSuffix = new Float64Array(n);
  for (const col of columns) {
    let low = -Infinity;
    for (let i = col.start; i < col.end; i++) {
      const fc = firstChild[i]!;
      if (fc >= 0) {
        const p = layout.nodes[i]!, last = layout.nodes[fc + childCount[i]! - 1]!;
        low = Math.max(low, p.y + p.h, last.y + last.h);
      }
      fanLowPrefix[i] = low;
    }
    let high = Infinity;
    for (let i = col.end - 1; i >= col.start; i--) {
      const fc = firstChild[i]!;
      if (fc >= 0) high = Math.min(high, layout.nodes[i]!.y, layout.nodes[fc]!.y);
      fanHighSuffix[i] = high;
    }
  }
  return { columns, firstChild, childCount, fanLowPrefix, fanHighSuffix, linear: layout.compact === true };
}

/** Calls `visit(i)` for every node whose box meets the world rectangle. */
export function forEachVisible(layout: TreeLayout, index: TreeIndex, x0: number, y0: number, x1: number, y1: number, visit: (i: number) => void): void {
  const nodes = layout.nodes;
  if (index.linear) {
    nodes.forEach((n, i) => { if (meets(n, x0, y0, x1, y1)) visit(i); });
    return;
  }
  for (const col of index.columns) {
    if (col.x > x1 || col.x + col.w < x0) continue;
    // First node whose bottom is at or below y0.
    let lo = col.start, hi = col.end;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      const m = nodes[mid]!;
      if (m.y + m.h < y0) lo = mid + 1;
      else hi = mid;
    }
    for (let i = lo; i < col.end; i++) {
      const node = nodes[i]!;
      if (node.y > y1) break;
      if (node.x <= x1 && node.x + node.w >= x0) visit(i);
    }
  }
}

/** Counts visible nodes without visiting them one by one (for choosing the level of detail). */
export function countVisible(layout: TreeLayout, index: TreeIndex, x0: number, y0: number, x1: number, y1: number): number {
  const nodes = layout.nodes;
  let count = 0;
  if (index.linear) {
    for (const n of nodes) if (meets(n, x0, y0, x1, y1)) count++;
    return count;
  }
  for (const col of index.columns) {
    if (col.x > x1 || col.x + col.w < x0) continue;
    let lo = col.start, hi = col.end;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (nodes[mid]!.y + nodes[mid]!.h < y0) lo = mid + 1;
      else hi = mid;
    }
    let a = lo;
    hi = col.end;
    while (a < hi) {
      const mid = (a + hi) >> 1;
      if (nodes[mid]!.y <= y1) a = mid + 1;
      else hi = mid;
    }
    count += a - lo;
  }
  return count;
}

/** Calls `visit(parent)` for every parent whose edge fan (to its children) may cross the rectangle. */
export function forEachVisibleFan(layout: TreeLayout, index: TreeIndex, x0: number, y0: number, x1: number, y1: number, visit: (parent: number) => void): void {
  if (index.linear) {
    // A parent's fan lies within the box around it and its children.
    layout.nodes.forEach((p, i) => {
      const c = index.firstChild[i]!;
      if (c < 0) return;
      let bx0 = p.x, by0 = p.y, bx1 = p.x + p.w, by1 = p.y + p.h;
      for (let k = c; k < c + index.childCount[i]!; k++) {
        const n = layout.nodes[k]!;
        bx0 = Math.min(bx0, n.x); by0 = Math.min(by0, n.y); bx1 = Math.max(bx1, n.x + n.w); by1 = Math.max(by1, n.y + n.h);
      }
      if (meets({ x: bx0, y: by0, w: bx1 - bx0, h: by1 - by0 }, x0, y0, x1, y1)) visit(i);
    });
    return;
  }
  for (let d = 0; d + 1 < index.columns.length; d++) {
    const col = index.columns[d]!;
    const next = index.columns[d + 1]!;
    if (col.x > x1 || next.x < x0) continue;
    let lo = col.start, hi = col.end;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (index.fanLowPrefix[mid]! < y0) lo = mid + 1;
      else hi = mid;
    }
    for (let p = lo; p < col.end && index.fanHighSuffix[p]! <= y1; p++) {
      if (index.firstChild[p]! >= 0) visit(p);
    }
  }
}

/** The node under a world point, if any. */
export function hitTest(layout: TreeLayout, index: TreeIndex, wx: number, wy: number): number | undefined {
  let found: number | undefined;
  forEachVisible(layout, index, wx, wy, wx, wy, (i) => {
    found = i;
  });
  return found;
}
