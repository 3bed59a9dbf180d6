import type { TreeView } from '../proof-tree/proof-tree.ts';

/** A large derivation opens showing about this many nodes; the rest is behind labelled summaries. */
export const SUMMARY_BUDGET = 60;
/** A run of this many closed one-goal steps or more becomes one summary node in a large derivation. */
export const CHAIN_MIN = 4;

export interface SummarisedTree {
  view: TreeView;
  /** Nodes drawn collapsed: their branch hidden behind a summary line (`▸ 23 goals below, all closed`). */
  collapsed: Set<number>;
}

/** The id of the summary that stands for the run starting at node `firstHidden`: never a node's own id. */
export const summaryId = (firstHidden: number): number => -1 - firstHidden;

function size(view: TreeView, memo: Map<TreeView, number>): number {
  let n = memo.get(view);
  if (n === undefined) {
    n = 1;
    for (const c of view.children ?? []) n += size(c, memo);
    memo.set(view, n);
  }
  return n;
}

/**
 * How a tree opens. A small tree (≤ `budget` nodes) shows whole, collapsed where the user collapsed it. A
 * large derivation opens readable: runs of closed one-goal steps become one summary node, and closed
 * branches are opened breadth first while they fit in the budget — the rest is collapsed to a labelled
 * summary; open goals and the path to them always show. `toggled` holds the nodes the user double-clicked:
 * each flips from how it would open (an auto-collapsed branch opens one level, an open one collapses).
 */
export function summariseTree(view: TreeView, toggled: ReadonlySet<number>, budget = SUMMARY_BUDGET): SummarisedTree {
  const memo = new Map<TreeView, number>();
  if (size(view, memo) <= budget) return { view, collapsed: new Set(toggled) };
  const compact = compressChains(view, toggled);
  const collapsed = new Set<number>();
  let visible = 1;
  const queue: TreeView[] = [compact];
  const expand = (n: TreeView): void => {
    visible += n.children?.length ?? 0;
    queue.push(...(n.children ?? []));
  };
  for (let i = 0; i < queue.length; i++) {
    const n = queue[i] as TreeView;
    const kids = n.children ?? [];
    if (kids.length === 0) continue;
    const user = toggled.has(n.id);
    if (!n.closed || n === compact) {
      // Open goals and the path to them (and the root) always show, unless the user collapsed them.
      if (user) collapsed.add(n.id);
      else expand(n);
      continue;
    }
    const whole = size(n, memo) - 1;
    const fits = visible + whole <= budget;
    const oneLevel = !fits && visible + kids.length <= budget;
    const auto = !fits && !oneLevel;
    if (auto !== user) {
      collapsed.add(n.id);
      continue;
    }
    if (fits && !user) {
      visible += whole;
      continue;
    }
    expand(n);
  }
  return { view: compact, collapsed };
}

/**
 * Replaces each run of `CHAIN_MIN` or more closed nodes with one child each (a linear stretch of a
 * finished branch) by its first node, one summary node and the run's last goal's child.
 */
function compressChains(view: TreeView, toggled: ReadonlySet<number>): TreeView {
  const kids = view.children;
  if (!kids || kids.length === 0) return view;
  if (view.closed && kids.length === 1) {
    const run: TreeView[] = [];
    let n: TreeView | undefined = kids[0];
    while (n && n.closed && n.children?.length === 1) {
      run.push(n);
      n = n.children[0];
    }
    if (run.length + 1 >= CHAIN_MIN && n) {
      const first = run[0] as TreeView;
      const rest = compressChains(n, toggled);
      if (toggled.has(summaryId(first.id))) {
        // The user opened the summary: the whole run shows, as it is.
        let chain = rest;
        for (let i = run.length - 1; i >= 0; i--) chain = { ...(run[i] as TreeView), children: [chain] };
        return { ...view, children: [chain] };
      }
      const summary: TreeView = {
        id: summaryId(first.id), kind: 'leaf', status: 'proved', closed: true, step: first.step,
        ctxt: { vars: [], hyps: [] }, goal: '', summary: { steps: run.length, commands: run.map((r) => r.action ?? '') },
        children: [rest],
      };
      return { ...view, children: [summary] };
    }
  }
  const next = kids.map((c) => compressChains(c, toggled));
  return next.every((c, i) => c === kids[i]) ? view : { ...view, children: next };
}
