import { summariseTree } from '../../shared/derivation/derivation-summary.ts';
import type { TreeView } from '../../shared/proof-tree/proof-tree.ts';
import { layoutTree } from '../../shared/tree-layout/layout-tree.ts';
import type { TreeLayout } from '../../shared/tree-layout/layout-tree.ts';
import { compactLayout } from '../../shared/tree-layout/compact-layout.ts';
import type { StatusOverlay } from '../../shared/tree-layout/display-status.ts';

/**
 * The tree as the pane draws it and the exports save it: a large derivation summarised (long closed runs
 * and far closed branches behind labelled summaries), the user's double-clicks flipping that, then laid out —
 * a derivation compactly (continuations below, side proofs beside), the state as a left-to-right tree.
 */
export function shownLayout(tree: TreeView, toggled: Readonly<Record<number, true>>, overlay: StatusOverlay = {}, columnsOnly = false): TreeLayout {
  const { view, collapsed } = summariseTree(tree, new Set(Object.keys(toggled).map(Number)));
  return isDerivationView(view) && !columnsOnly ? compactLayout(view, { collapsed, overlay }) : layoutTree(view, { collapsed, overlay });
}

/** A derivation's goals have children (a state's leaves never do) or an action. */
export const isDerivationView = (tree: TreeView): boolean => tree.kind === 'leaf' && (tree.children !== undefined || tree.action !== undefined);
