import { hierarchy, tree as d3tree } from 'd3-hierarchy';
import type { HierarchyNode, HierarchyPointNode } from 'd3-hierarchy';
import type { TreeView } from '../proof-tree/proof-tree.ts';
import type { DisplayStatus, StatusOverlay } from './display-status.ts';
import { leafStatus } from './display-status.ts';
import type { NodeContent, NodeExtras, NodeTitle } from './node-content.ts';
import { EXTRAS_MIN_WIDTH, extrasHeight, nodeContent, nodeSize } from './node-content.ts';

/** One node placed in world coordinates (x, y = top-left of its box); left-to-right tree. */
export interface LaidOutNode {
  id: number;
  /** Index of the parent in `nodes`, -1 for the root. */
  parent: number;
  depth: number;
  x: number;
  y: number;
  w: number;
  h: number;
  status: DisplayStatus;
  current?: 'goal' | 'bundle';
  step: number;
  /** Children hidden because the node is collapsed (0 when expanded or a leaf). */
  hidden: number;
  view: TreeView;
  /** Footer lines beyond the view's own: a collapsed branch's summary, a failure's note on the current goal. */
  extras?: NodeExtras;
  /** Label and chips, computed on first use (`contentOf`): only drawn nodes need them. */
  content?: NodeContent;
  /** Compact derivation layout: what the box is titled by (its new goal or hypothesis). */
  title?: NodeTitle;
}

export function contentOf(node: LaidOutNode): NodeContent {
  return (node.content ??= nodeContent(node.view, node.w, node.extras, node.title));
}

export interface TreeLayout {
  nodes: LaidOutNode[];
  /** id → index in `nodes`. */
  index: Map<number, number>;
  width: number;
  height: number;
  /** The empty band between depth columns, where edges turn (see `edgeRoute`). */
  columnGap: number;
  /** Laid out by `compactLayout` (a derivation): depths are not columns, continuations stack below. */
  compact?: boolean;
}

export interface LayoutOptions {
  collapsed?: ReadonlySet<number>;
  overlay?: StatusOverlay;
  /** Horizontal gap between depth columns and vertical gap between siblings (world units). */
  columnGap?: number;
  siblingGap?: number;
}

/**
 * Lays the bundle tree out left to right: depth columns as wide as their widest node, siblings stacked
 * by d3-hierarchy's tidy-tree algorithm (linear time) with separations from the real node heights, so
 * boxes never overlap. Pure: the same input gives the same layout in Node and in the browser.
 */
export function layoutTree(view: TreeView, options: LayoutOptions = {}): TreeLayout {
  const collapsed = options.collapsed ?? new Set<number>();
  const overlay = options.overlay ?? {};
  const columnGap = options.columnGap ?? 48;
  const siblingGap = options.siblingGap ?? 10;
  type Sized = HierarchyNode<TreeView> & { w: number; h: number; proved: boolean; extras?: NodeExtras };
  const root = hierarchy<TreeView>(view, (d) => (collapsed.has(d.id) ? null : d.children ?? null)) as Sized;
  const columnWidths: number[] = [];
  // One post-order pass: sizes, column widths, and bundles whose goals are all proved.
  root.eachAfter((node) => {
    const n = node as Sized;
    const size = nodeSize(n.data);
    const extras = extrasOf(n.data, collapsed, overlay);
    n.w = extras ? Math.max(size.w, EXTRAS_MIN_WIDTH) : size.w;
    n.h = size.h + (extras ? extrasHeight(extras) : 0);
    if (extras) n.extras = extras;
    const v = n.data;
    n.proved = v.kind === 'leaf' ? v.status === 'proved'
      : n.children ? n.children.every((c) => (c as Sized).proved) : (v.children ?? []).every(allProved);
    if (n.w > (columnWidths[n.depth] ?? 0)) columnWidths[n.depth] = n.w;
  });
  // nodeSize([1, 1]) makes separation() return world units directly.
  const placed = d3tree<TreeView>().nodeSize([1, 1]).separation((a, b) =>
    ((a as unknown as Sized).h + (b as unknown as Sized).h) / 2 + (a.parent === b.parent ? siblingGap : siblingGap * 2.5))(root);
  const columnX: number[] = [];
  let acc = 0;
  for (let d = 0; d < columnWidths.length; d++) {
    columnX[d] = acc;
    acc += (columnWidths[d] ?? 0) + columnGap;
  }
  let minY = Infinity;
  let maxY = -Infinity;
  placed.each((n) => {
    const h = (n as unknown as Sized).h;
    if (n.x - h / 2 < minY) minY = n.x - h / 2;
    if (n.x + h / 2 > maxY) maxY = n.x + h / 2;
  });
  const nodes: LaidOutNode[] = [];
  const index = new Map<number, number>();
  type Indexed = HierarchyPointNode<TreeView> & Sized & { index: number };
  placed.each((p) => {
    const n = p as Indexed;
    const v = n.data;
    n.index = nodes.length;
    const node: LaidOutNode = {
      id: v.id,
      parent: n.parent ? (n.parent as Indexed).index : -1,
      depth: n.depth,
      x: columnX[n.depth] ?? 0,
      y: n.x - n.h / 2 - minY,
      w: n.w,
      h: n.h,
      status: v.kind === 'leaf' ? leafStatus(v, overlay) : n.proved ? 'proved' : 'bundle',
      step: v.step,
      hidden: collapsed.has(v.id) ? v.children?.length ?? 0 : 0,
      view: v,
    };
    if (v.current) node.current = v.current;
    if (n.extras) node.extras = n.extras;
    index.set(node.id, nodes.length);
    nodes.push(node);
  });
  return { nodes, index, width: Math.max(0, acc - columnGap), height: nodes.length ? maxY - minY : 0, columnGap };
}

/** What a node shows beyond its view: the branch a collapse hides, the failure note on the current goal. */
export function extrasOf(view: TreeView, collapsed: ReadonlySet<number>, overlay: StatusOverlay): NodeExtras | undefined {
  const hidden = collapsed.has(view.id) && view.children?.length ? hiddenBelow(view) : undefined;
  const note = view.current === 'goal' && overlay.current === 'failed' ? overlay.note : undefined;
  if (!hidden && !note) return undefined;
  return { ...(hidden ? { hidden } : {}), ...(note ? { note } : {}) };
}

function hiddenBelow(view: TreeView): { goals: number; allClosed: boolean } {
  let goals = 0;
  let allClosed = true;
  const stack = [...(view.children ?? [])];
  while (stack.length) {
    const n = stack.pop() as TreeView;
    goals += n.summary ? n.summary.steps : 1;
    if (!n.closed) allClosed = false;
    for (const c of n.children ?? []) stack.push(c);
  }
  return { goals, allClosed };
}

/** For the children of a collapsed bundle (not part of the hierarchy). */
function allProved(view: TreeView): boolean {
  if (view.kind === 'leaf') return view.status === 'proved';
  return (view.children ?? []).every(allProved);
}
