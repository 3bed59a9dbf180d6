import { layoutTree } from '../../shared/tree-layout/layout-tree.ts';
import { treeToSvg } from '../../shared/tree-layout/tree-svg.ts';
import { download } from '../services/download.ts';
import { useArbor } from '../store/store.ts';
import { selectShownTree } from '../store/tree-selectors.ts';
import { renderFullTree } from './tree-painter.ts';

/** The tree as the user sees it (collapsed nodes included), exported as SVG or PNG. */
const store = (): ReturnType<typeof useArbor.getState> => useArbor.getState();

function currentLayout() {
  const s = store();
  const tree = selectShownTree(s);
  if (!tree) return undefined;
  const collapsed = new Set(Object.keys(s.proof.collapsed).map(Number));
  return layoutTree(tree, { collapsed });
}

export function exportSvg(): void {
  const layout = currentLayout();
  if (!layout) return;
  const title = store().documents.activeUri ?? 'proof';
  download('arbor-tree.svg', new Blob([treeToSvg(layout, { title, selected: store().proof.selectedId ?? undefined })], { type: 'image/svg+xml' }));
}

export function exportPng(): void {
  const layout = currentLayout();
  if (!layout) return;
  // As sharp as possible within a canvas browsers accept (≤ 16k a side, ≤ 100M pixels).
  const scale = Math.min(2, 16000 / (layout.width + 40), 16000 / (layout.height + 40), Math.sqrt(1e8 / ((layout.width + 40) * (layout.height + 40))));
  renderFullTree(layout, scale).toBlob((blob) => {
    if (blob) download('arbor-tree.png', blob);
  }, 'image/png');
}

