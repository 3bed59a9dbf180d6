import type { Hypothesis, Variable } from '../../shared/proof-tree/proof-state.ts';
import type { TreeView } from '../../shared/proof-tree/proof-tree.ts';

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
