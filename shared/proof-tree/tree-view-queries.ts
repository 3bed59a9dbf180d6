import type { ContextEntry, Hypothesis, Variable } from './proof-state.ts';
import type { TreeView } from './proof-tree.ts';

/** Queries on the tree the workbench and agents see (`TreeView`): the one place each is answered. */

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

/** The current goal's node (the leftmost leaf), if the proof is unfinished. */
export function currentGoalNode(root: TreeView): TreeView | undefined {
  // A derivation marks its current goal (its nodes all have goals, so the leftmost-leaf walk stops at the root).
  const stack: TreeView[] = [root];
  while (stack.length) {
    const n = stack.pop() as TreeView;
    if (n.current === 'goal') return n;
    if (n.kind === 'leaf' && n.children?.length) for (let i = n.children.length - 1; i >= 0; i--) stack.push(n.children[i] as TreeView);
  }
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
  const path = pathTo(root, id);
  // A derivation node carries its whole context as the prover reported it: that, not the concatenation.
  const scope = path.at(-1)?.scope;
  if (scope) {
    return [
      ...scope.vars.map((v): ContextEntry => ({ kind: 'var', name: v.name, text: v.type })),
      ...scope.hyps.map((h): ContextEntry => ({ kind: 'hyp', name: h.name, text: h.expr })),
    ];
  }
  for (const node of path) {
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

/** A leaf of the tree with the full context it is proved in (its ancestors' contexts, then its own). */
export interface GoalInContext {
  id: number;
  goal: string;
  vars: Variable[];
  hyps: Hypothesis[];
  proved: boolean;
  /** How many bundles lie between the root and this leaf. */
  depth: number;
}

/** Every leaf, left to right (the first open one is the current goal). */
export function goalsInContext(view: TreeView): GoalInContext[] {
  const out: GoalInContext[] = [];
  const visit = (node: TreeView, vars: Variable[], hyps: Hypothesis[], depth: number): void => {
    const v = [...vars, ...node.ctxt.vars];
    const h = [...hyps, ...node.ctxt.hyps];
    if (node.kind === 'leaf') {
      out.push({ id: node.id, goal: node.goal ?? '', vars: v, hyps: h, proved: node.status === 'proved', depth });
      return;
    }
    for (const child of node.children ?? []) visit(child, v, h, depth + 1);
  };
  visit(view, [], [], 0);
  return out;
}

export function openGoals(view: TreeView): GoalInContext[] {
  return goalsInContext(view).filter((g) => !g.proved);
}

/** The current goal is the leftmost leaf; undefined when the proof is finished or it is already proved. */
export function currentGoal(view: TreeView): GoalInContext | undefined {
  const first = goalsInContext(view)[0];
  return first && !first.proved ? first : undefined;
}

export function isFinishedView(view: TreeView): boolean {
  return view.kind === 'bundle' && (view.children ?? []).length === 0;
}
