import type { TreeView } from '../proof-tree/proof-tree.ts';

/** One use of a hypothesis (or variable): where it entered the proof and which step used it. */
export interface HypothesisUse {
  name: string;
  /** The node whose context introduces it (the nearest one above the user, itself included). */
  from: number;
  /** The node whose command used it. */
  to: number;
}

/**
 * How the hypotheses of a derivation flow: for every node that used a name, the node where that name
 * entered. In a derivation view a node's `ctxt` holds what enters there and `uses` what its command used.
 */
export function hypothesisUses(root: TreeView): HypothesisUse[] {
  const out: HypothesisUse[] = [];
  const visit = (node: TreeView, scope: ReadonlyMap<string, number>): void => {
    let here = scope;
    const own = [...node.ctxt.vars.map((v) => v.name), ...node.ctxt.hyps.map((h) => h.name)];
    if (own.length > 0) {
      const next = new Map(scope);
      for (const name of own) next.set(name, node.id);
      here = next;
    }
    for (const name of node.uses ?? []) {
      const from = here.get(name);
      if (from !== undefined) out.push({ name, from, to: node.id });
    }
    for (const c of node.children ?? []) visit(c, here);
  };
  visit(root, new Map());
  return out;
}

/** The uses that touch `id`: the names it introduced and who used them, the names it used and where they entered. */
export function flowOf(uses: readonly HypothesisUse[], id: number): { enters: HypothesisUse[]; uses: HypothesisUse[] } {
  return { enters: uses.filter((u) => u.from === id && u.to !== id), uses: uses.filter((u) => u.to === id) };
}
