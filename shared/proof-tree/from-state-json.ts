import { z } from 'zod';
import type { Context, Goal } from './proof-state.ts';
import { PROVED_GOAL } from './proof-tree.ts';
import type { TreeView } from './proof-tree.ts';

/**
 * Reads the seed-000 proof-state JSON that an external process (Isabelle's own shell, another
 * arbor-shell) prints, and turns it into the workbench's `TreeView`. The process keeps no ids or steps, so
 * they are inferred: a node whose content is unchanged since the previous view keeps its id and step.
 */
const contextSchema = z.object({
  vars: z.array(z.object({ name: z.string(), type: z.string() })),
  hyps: z.array(z.object({ name: z.string(), expr: z.string() })),
});

const goalSchema: z.ZodType<Goal> = z.lazy(() =>
  z.union([
    z.object({ ctxt: contextSchema, goal: z.string() }),
    z.object({ ctxt: contextSchema, goal: z.array(goalSchema) }),
  ]),
);

/** A quick look (the top level only) whether a value is shaped like a proof state; `parseStateJson` validates it all. */
export function looksLikeState(x: unknown): x is Goal {
  if (typeof x !== 'object' || x === null) return false;
  const g = x as { ctxt?: { vars?: unknown; hyps?: unknown }; goal?: unknown };
  return Array.isArray(g.ctxt?.vars) && Array.isArray(g.ctxt?.hyps) && (typeof g.goal === 'string' || Array.isArray(g.goal));
}

/** Validates a proof state; undefined when it is not the seed's grammar. */
export function parseStateJson(value: unknown): Goal | undefined {
  const parsed = goalSchema.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}

export interface FromStateOptions {
  /** The step this state is the result of (new nodes are stamped with it). */
  step: number;
  /** The view of the previous state, whose ids and steps unchanged nodes keep. */
  previous?: TreeView;
}

/**
 * Converts a seed proof state to a `TreeView`. A leaf whose goal is `True` counts as proved (seed 000: "in
 * a form clearly demonstrating it is proved"); the leftmost leaf is the current goal and its parent the
 * current bundle.
 */
export function treeViewFromState(state: Goal, options: FromStateOptions): TreeView {
  const reuse = new Map<string, { id: number; step: number }[]>();
  let nextId = 0;
  if (options.previous) {
    const visit = (view: TreeView): void => {
      nextId = Math.max(nextId, view.id + 1);
      const key = viewKey(view);
      const list = reuse.get(key) ?? [];
      list.push({ id: view.id, step: view.step });
      reuse.set(key, list);
      view.children?.forEach(visit);
    };
    visit(options.previous);
  }
  const build = (goal: Goal): TreeView => {
    const ctxt = copyContext(goal.ctxt);
    const view: TreeView = typeof goal.goal === 'string'
      ? { id: -1, kind: 'leaf', status: goal.goal.trim() === PROVED_GOAL ? 'proved' : 'open', step: options.step, ctxt, goal: goal.goal }
      : { id: -1, kind: 'bundle', status: 'bundle', step: options.step, ctxt, children: goal.goal.map(build) };
    const match = reuse.get(viewKey(view))?.shift();
    if (match) {
      view.id = match.id;
      view.step = match.step;
    }
    return view;
  };
  const root = build(state);
  // Ids must be unique: fresh nodes get ids after every id the previous view used.
  const seen = new Set<number>();
  const assign = (view: TreeView): void => {
    if (view.id < 0 || seen.has(view.id)) view.id = nextId++;
    seen.add(view.id);
    view.children?.forEach(assign);
  };
  assign(root);
  markCurrent(root);
  return root;
}

function markCurrent(root: TreeView): void {
  let parent: TreeView | undefined;
  let node: TreeView | undefined = root;
  while (node && node.kind === 'bundle') {
    parent = node;
    node = node.children?.[0];
  }
  if (node) node.current = 'goal';
  if (parent && node) parent.current = 'bundle';
}

function copyContext(c: Context): Context {
  return { vars: c.vars.map((v) => ({ name: v.name, type: v.type })), hyps: c.hyps.map((h) => ({ name: h.name, expr: h.expr })) };
}

/** Content identity of a subtree (ids, steps and current marks excluded). */
function viewKey(view: TreeView): string {
  const ctxt = JSON.stringify(view.ctxt);
  if (view.kind === 'leaf') return `L${ctxt}${JSON.stringify(view.goal ?? '')}`;
  return `B${ctxt}[${(view.children ?? []).map(viewKey).join(',')}]`;
}

/** A response's proof state as a tree view (fresh ids in pre-order); null for anything that is not a proof state. */
export function treeViewOfState(value: unknown, step = 0): TreeView | null {
  const state = parseStateJson(value);
  return state ? treeViewFromState(state, { step }) : null;
}

/** The seed-format state a tree view shows (a proved leaf is `True`). */
export function treeViewToState(view: TreeView): Goal {
  if (view.kind === 'leaf') return { ctxt: view.ctxt, goal: view.status === 'proved' ? PROVED_GOAL : view.goal ?? '' };
  return { ctxt: view.ctxt, goal: (view.children ?? []).map(treeViewToState) };
}

/** The number of leaves still to prove (not `True`) in a seed proof state. */
export function openGoalCount(state: Goal): number {
  if (typeof state.goal === 'string') return state.goal.trim() === PROVED_GOAL ? 0 : 1;
  return state.goal.reduce((n, g) => n + openGoalCount(g), 0);
}

/** A finished proof is the empty bundle. */
export function isFinishedState(state: Goal): boolean {
  return Array.isArray(state.goal) && state.goal.length === 0;
}
