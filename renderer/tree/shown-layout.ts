import { summariseTree } from '../../shared/derivation/derivation-summary.ts';
import type { TreeView } from '../../shared/proof-tree/proof-tree.ts';
import { layoutTree } from '../../shared/tree-layout/layout-tree.ts';
import type { TreeLayout } from '../../shared/tree-layout/layout-tree.ts';
import type { StatusOverlay } from '../../shared/tree-layout/display-status.ts';

/**
 * The tree as the pane draws it and the exports save it: a large derivation summarised (long closed runs
 * and far closed branches behind labelled summaries), the user's double-clicks flipping that, then laid out.
 */
export function shownLayout(tree: TreeView, toggled: Readonly<Record<number, true>>, overlay: StatusOverlay = {}): TreeLayout {
  const { view, collapsed } = summariseTree(tree, new Set(Object.keys(toggled).map(Number)));
  return layoutTree(view, { collapsed, overlay });
}
