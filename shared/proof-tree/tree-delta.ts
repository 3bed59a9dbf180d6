import type { Context } from './proof-state.ts';
import type { TreeView } from './proof-tree.ts';

/**
 * Tree changes instead of whole trees (issue 11's live path): the host sends, per step, only the nodes
 * that changed — with every ancestor of a change, since a parent holds its children — and each client
 * rebuilds the new tree from its copy of the old one, sharing every unchanged subtree. A step that
 * touches one leaf of a 5,000-leaf state then costs a few records, and a client's history of many steps
 * holds each unchanged subtree once.
 */

/** One node as a change carries it: its own fields, its children by id. */
export interface TreeNodeRecord {
  id: number;
  kind: TreeView['kind'];
  status: TreeView['status'];
  step: number;
  ctxt: Context;
  goal?: string;
  children?: number[];
  current?: TreeView['current'];
  action?: string;
  closed?: true;
}

export interface TreeDelta {
  /** The new tree's root (null: no tree, e.g. before the first GOAL or after a document item). */
  root: number | null;
  /** Every node to (re)build, children before their parents. */
  nodes: TreeNodeRecord[];
  /** Ids of the old tree that are not in the new one. */
  removed: number[];
}

/** Each node of a tree by id. */
export function indexTree(tree: TreeView | null): Map<number, TreeView> {
  const index = new Map<number, TreeView>();
  const stack: TreeView[] = tree ? [tree] : [];
  while (stack.length > 0) {
    const node = stack.pop() as TreeView;
    index.set(node.id, node);
    if (node.children) for (const c of node.children) stack.push(c);
  }
  return index;
}

/**
 * What changed from `before` to `after`: a node is in the change when it is new, when one of its own
 * fields or its list of children changed, or when anything below it did.
 */
export function diffTrees(before: TreeView | null, after: TreeView | null, beforeIndex: Map<number, TreeView> = indexTree(before)): TreeDelta {
  const nodes: TreeNodeRecord[] = [];
  const seen = new Set<number>();
  if (after) {
    // Post-order without recursion (proofs can be deep): a node is decided after all its children.
    const dirty = new Map<TreeView, boolean>();
    const stack: { node: TreeView; expanded: boolean }[] = [{ node: after, expanded: false }];
    while (stack.length > 0) {
      const top = stack[stack.length - 1] as { node: TreeView; expanded: boolean };
      const { node } = top;
      if (!top.expanded && node.children && node.children.length > 0) {
        top.expanded = true;
        for (let i = node.children.length - 1; i >= 0; i--) stack.push({ node: node.children[i] as TreeView, expanded: false });
        continue;
      }
      stack.pop();
      seen.add(node.id);
      const old = beforeIndex.get(node.id);
      const changed = old === undefined || old !== node && (!sameOwnFields(old, node) || !sameChildIds(old, node) || (node.children ?? []).some((c) => dirty.get(c) === true));
      dirty.set(node, changed);
      if (changed) nodes.push(toRecord(node));
    }
  }
  const removed: number[] = [];
  for (const id of beforeIndex.keys()) if (!seen.has(id)) removed.push(id);
  return { root: after ? after.id : null, nodes, removed };
}

/** The whole tree as one change (from nothing): what a client that has no copy yet receives. */
export const fullDelta = (tree: TreeView | null): TreeDelta => diffTrees(null, tree, new Map());

/**
 * A client's copy of a changing tree: `apply` builds the next tree from a change, reusing every node
 * the change does not name, so old trees kept by the caller (step history) share all unchanged subtrees.
 */
export class TreeReplica {
  private index = new Map<number, TreeView>();
  private rootNode: TreeView | null = null;

  get root(): TreeView | null {
    return this.rootNode;
  }

  /** Applies a change made against this replica's current tree; throws when it names a node it lacks. */
  apply(delta: TreeDelta): TreeView | null {
    const built = new Map<number, TreeView>();
    const lookup = (id: number): TreeView => {
      const node = built.get(id) ?? this.index.get(id);
      if (!node) throw new Error(`tree change refers to node ${id}, which this copy does not have`);
      return node;
    };
    for (const r of delta.nodes) built.set(r.id, fromRecord(r, lookup));
    for (const id of delta.removed) this.index.delete(id);
    for (const [id, node] of built) this.index.set(id, node);
    this.rootNode = delta.root === null ? null : lookup(delta.root);
    return this.rootNode;
  }

  /** Starts over from a whole tree (a snapshot after a gap in the changes). */
  reset(tree: TreeView | null): void {
    this.index = indexTree(tree);
    this.rootNode = tree;
  }
}

function toRecord(node: TreeView): TreeNodeRecord {
  const r: TreeNodeRecord = { id: node.id, kind: node.kind, status: node.status, step: node.step, ctxt: node.ctxt };
  if (node.goal !== undefined) r.goal = node.goal;
  if (node.children) r.children = node.children.map((c) => c.id);
  if (node.current) r.current = node.current;
  if (node.action !== undefined) r.action = node.action;
  if (node.closed) r.closed = true;
  return r;
}

function fromRecord(r: TreeNodeRecord, lookup: (id: number) => TreeView): TreeView {
  const view: TreeView = { id: r.id, kind: r.kind, status: r.status, step: r.step, ctxt: r.ctxt };
  if (r.goal !== undefined) view.goal = r.goal;
  if (r.children) view.children = r.children.map(lookup);
  if (r.current) view.current = r.current;
  if (r.action !== undefined) view.action = r.action;
  if (r.closed) view.closed = true;
  return view;
}

function sameOwnFields(a: TreeView, b: TreeView): boolean {
  return a.kind === b.kind && a.status === b.status && a.step === b.step && a.goal === b.goal && a.current === b.current &&
    a.action === b.action && a.closed === b.closed && sameContext(a.ctxt, b.ctxt);
}

function sameChildIds(a: TreeView, b: TreeView): boolean {
  const x = a.children ?? [], y = b.children ?? [];
  if (x.length !== y.length || (a.children === undefined) !== (b.children === undefined)) return false;
  for (let i = 0; i < x.length; i++) if ((x[i] as TreeView).id !== (y[i] as TreeView).id) return false;
  return true;
}

function sameContext(a: Context, b: Context): boolean {
  if (a === b) return true;
  if (a.vars.length !== b.vars.length || a.hyps.length !== b.hyps.length) return false;
  for (let i = 0; i < a.vars.length; i++) {
    const v = a.vars[i] as Context['vars'][number], w = b.vars[i] as Context['vars'][number];
    if (v.name !== w.name || v.type !== w.type) return false;
  }
  for (let i = 0; i < a.hyps.length; i++) {
    const h = a.hyps[i] as Context['hyps'][number], k = b.hyps[i] as Context['hyps'][number];
    if (h.name !== k.name || h.expr !== k.expr) return false;
  }
  return true;
}
