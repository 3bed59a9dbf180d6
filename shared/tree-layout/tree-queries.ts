import type { ContextEntry } from '../proof-tree/proof-state.ts';
import type { TreeView } from '../proof-tree/proof-tree.ts';

/** The nodes from the root down to the node with `id` (empty if absent). */
export function pathTo(root: TreeView, id: number): TreeView[] {
  const path: TreeView[] = [];
  const visit = (node: TreeView): boolean => {
    path.push(node);
    if (node.id === id) return true;
    for (const c of node.children ?? []) if (visit(c)) return true;
    path.pop();
    return false;
  };
  return visit(root) ? path : [];
}

export function findNode(root: TreeView, id: number): TreeView | undefined {
  return pathTo(root, id).at(-1);
}

/** The current goal (the leaf marked `current: 'goal'`), if the proof is unfinished. */
export function currentGoal(root: TreeView): TreeView | undefined {
  let node: TreeView | undefined = root;
  while (node && node.kind === 'bundle') node = node.children?.[0];
  return node;
}

/**
 * A node's full context: its ancestors' own contexts and its own, in order (seed 000: "the actual
 * context of a proposition is the concatenation of the contexts of all its ancestors").
 */
export function accumulatedContext(root: TreeView, id: number): ContextEntry[] {
  const out: ContextEntry[] = [];
  for (const node of pathTo(root, id)) {
    for (const v of node.ctxt.vars) out.push({ kind: 'var', name: v.name, text: v.type });
    for (const h of node.ctxt.hyps) out.push({ kind: 'hyp', name: h.name, text: h.expr });
  }
  return out;
}

/** Ids of nodes whose goal or context mentions `query` (case-insensitive), in pre-order. */
export function searchTree(root: TreeView, query: string): number[] {
  const q = query.trim().toLowerCase();
  if (!q) return [];
  const hits: number[] = [];
  const stack: TreeView[] = [root];
  while (stack.length) {
    const node = stack.pop() as TreeView;
    const hay = [node.goal ?? '', ...node.ctxt.vars.map((v) => `${v.name} : ${v.type}`), ...node.ctxt.hyps.map((h) => `${h.name} : ${h.expr}`)];
    if (hay.some((t) => t.toLowerCase().includes(q))) hits.push(node.id);
    const kids = node.children ?? [];
    for (let i = kids.length - 1; i >= 0; i--) stack.push(kids[i] as TreeView);
  }
  return hits;
}

export function countNodes(root: TreeView): number {
  let n = 0;
  const stack: TreeView[] = [root];
  while (stack.length) {
    const node = stack.pop() as TreeView;
    n++;
    for (const c of node.children ?? []) stack.push(c);
  }
  return n;
}
