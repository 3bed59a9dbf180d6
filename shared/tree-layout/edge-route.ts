import type { LaidOutNode } from './layout-tree.ts';

/**
 * How an edge runs from a parent to a child: straight out of the parent's right side to the end of the
 * parent's depth column, then a curve inside the empty gap between columns to the child's left side.
 * Nodes of one column are narrower than the column and never share rows, so the straight part passes
 * no box, and the curve stays in the gap where there are none: an edge never runs behind another node
 * (a curve from the parent's own edge would cross wider siblings of the parent).
 */
export interface EdgeRoute {
  /** Start, on the parent's right side. */
  sx: number;
  sy: number;
  /** Where the straight part ends and the curve begins (the parent column's right end). */
  jx: number;
  /** End, on the child's left side. */
  ex: number;
  ey: number;
  /** A compact layout's continuation: straight down from the parent's foot to the child's head. */
  down?: true;
}

/** Where a continuation's edge runs down, from the left of both boxes (the boxes of a column share a left side). */
const DOWN_INSET = 14;

export function edgeRoute(parent: LaidOutNode, child: LaidOutNode, columnGap: number): EdgeRoute {
  if (child.y >= parent.y + parent.h && child.x < parent.x + parent.w) {
    const x = parent.x + DOWN_INSET;
    return { sx: x, sy: parent.y + parent.h, jx: x, ex: child.x + DOWN_INSET, ey: child.y, down: true };
  }
  const sx = parent.x + parent.w;
  return { sx, sy: parent.y + parent.h / 2, jx: Math.max(sx, child.x - columnGap), ex: child.x, ey: child.y + child.h / 2 };
}

/** Traces a route on anything with canvas-path methods (a 2D context, a Path2D). */
export function traceEdge(path: { moveTo(x: number, y: number): void; lineTo(x: number, y: number): void; bezierCurveTo(a: number, b: number, c: number, d: number, e: number, f: number): void }, r: EdgeRoute): void {
  path.moveTo(r.sx, r.sy);
  if (r.down) {
    path.lineTo(r.ex, r.ey);
    return;
  }
  const mx = (r.jx + r.ex) / 2;
  if (r.jx > r.sx) path.lineTo(r.jx, r.sy);
  path.bezierCurveTo(mx, r.sy, mx, r.ey, r.ex, r.ey);
}

/** The same route as an SVG path's `d`. */
export function edgePathData(r: EdgeRoute): string {
  if (r.down) return `M${r.sx},${r.sy}L${r.ex},${r.ey}`;
  const mx = (r.jx + r.ex) / 2;
  return `M${r.sx},${r.sy}${r.jx > r.sx ? `H${r.jx}` : ''}C${mx},${r.sy} ${mx},${r.ey} ${r.ex},${r.ey}`;
}
