import { layoutTree } from '../../shared/tree-layout/layout-tree.ts';
import { treeToSvg } from '../../shared/tree-layout/tree-svg.ts';
import { download } from '../services/download.ts';
import { useArbor } from '../store/store.ts';
import { selectShownTree } from '../store/tree-selectors.ts';
import { renderFullTree } from './tree-painter.ts';
import { replayHtml } from '../../shared/tree-layout/replay-html.ts';
import { stepLabels } from '../../shared/transcript/step-labels.ts';
import { selectActiveChannel, selectChannelTrees } from '../store/proof-slice.ts';

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

/**
 * The proof as a standalone page that replays it step by step without Arbor (slides, course pages): every
 * recorded step of the active document, drawn as the view shows it (state or derivation), with its command.
 */
export function exportReplayHtml(): void {
  const s = store();
  const trees = selectChannelTrees(s);
  const channel = selectActiveChannel(s);
  if (!trees || channel === undefined) return;
  const labels = stepLabels(s.transcript.live, channel);
  const collapsed = new Set(Object.keys(s.proof.collapsed).map(Number));
  const title = s.documents.activeUri ? s.documents.docs[s.documents.activeUri]?.title ?? 'proof' : 'proof';
  const frames = Object.keys(trees.byStep).map(Number).sort((a, b) => a - b).flatMap((step) => {
    const tree = selectShownTree({ ...s, proof: { ...s.proof, historyStep: step } });
    return tree ? [{ step, label: labels.get(step) ?? '', svg: treeToSvg(layoutTree(tree, { collapsed }), { title }) }] : [];
  });
  download(`${title.replace(/\.[^.]*$/, '')}-replay.html`, new Blob([replayHtml(`${title} — Arbor replay`, frames)], { type: 'text/html' }));
}
