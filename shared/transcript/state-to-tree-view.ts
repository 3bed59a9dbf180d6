import type { Goal } from '../proof-tree/proof-state.ts';
import type { TreeView } from '../proof-tree/proof-tree.ts';

/**
 * A tree view from a response's seed-format proof state (as stored in a transcript): ids are pre-order
 * numbers, a `True` leaf is proved, the leftmost leaf and its bundle are marked current. Returns null for
 * anything that is not a proof state (e.g. `{ID: 1}` or null).
 */
export function stateToTreeView(state: unknown, step = 0): TreeView | null {
  if (!isGoal(state)) return null;
  let nextId = 0;
  const convert = (g: Goal): TreeView => {
    const id = nextId++;
    if (Array.isArray(g.goal)) {
      return { id, kind: 'bundle', status: 'bundle', step, ctxt: g.ctxt, children: g.goal.map(convert) };
    }
    return { id, kind: 'leaf', status: g.goal === 'True' ? 'proved' : 'open', step, ctxt: g.ctxt, goal: g.goal };
  };
  const root = convert(state);
  let node = root;
  let parent: TreeView | undefined;
  while (node.kind === 'bundle' && node.children?.[0]) {
    parent = node;
    node = node.children[0];
  }
  if (node.kind === 'leaf') {
    node.current = 'goal';
    if (parent) parent.current = 'bundle';
  }
  return root;
}

function isGoal(x: unknown, depth = 0): x is Goal {
  if (depth > 10_000 || typeof x !== 'object' || x === null) return false;
  const g = x as { ctxt?: unknown; goal?: unknown };
  const c = g.ctxt as { vars?: unknown; hyps?: unknown } | undefined;
  if (!c || !Array.isArray(c.vars) || !Array.isArray(c.hyps)) return false;
  if (typeof g.goal === 'string') return true;
  return Array.isArray(g.goal) && g.goal.every((k) => isGoal(k, depth + 1));
}
