import { shownLayout } from './shown-layout.ts';
import { treeToSvg } from '../../shared/tree-layout/tree-svg.ts';
import { download } from '../services/download.ts';
import { useArbor } from '../store/store.ts';
import { selectShownTree } from '../store/tree-selectors.ts';
import { renderFullTree } from './tree-painter.ts';
import { replayHtml } from '../../shared/tree-layout/replay-html.ts';
import { stepLabels } from '../../shared/transcript/step-labels.ts';
import { replaySnapshots, shownDerivationItem } from '../services/replay.ts';
import { fetchDerivation } from '../services/arbor-api.ts';
import type { TreeView } from '../../shared/proof-tree/proof-tree.ts';

/** The tree as the user sees it (collapsed nodes included), exported as SVG or PNG. */
const store = (): ReturnType<typeof useArbor.getState> => useArbor.getState();

/** What the exports are called: the transcript's or the document's name, not its URI. */
function exportTitle(): string {
  const s = store();
  if (s.ui.treeSource === 'transcript' && s.transcript.loaded) return s.transcript.loaded.name;
  return s.documents.activeUri ? s.documents.docs[s.documents.activeUri]?.title ?? 'proof' : 'proof';
}

function currentLayout() {
  const s = store();
  const tree = selectShownTree(s);
  if (!tree) return undefined;
  return shownLayout(tree, s.proof.collapsed);
}

export function exportSvg(): void {
  const layout = currentLayout();
  if (!layout) return;
  const title = exportTitle();
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
 * step of the active document's history (or every request of the loaded transcript, failures included),
 * each as its derivation *as it was at that step* (the host's record up to the step) and its state, with
 * the command that made it.
 */
export async function exportReplayHtml(): Promise<void> {
  const s = store();
  const snapshots = replaySnapshots(s);
  if (snapshots.length === 0) return;
  const fromFile = s.ui.treeSource === 'transcript' && s.transcript.loaded;
  const entries = fromFile && s.transcript.loaded ? s.transcript.loaded.entries : s.transcript.live;
  const labelsByChannel = new Map<number, Map<number, string>>();
  const labelOf = (channel: number | undefined, step: number): string => {
    if (channel === undefined) return '';
    let labels = labelsByChannel.get(channel);
    if (!labels) labelsByChannel.set(channel, (labels = stepLabels(entries, channel)));
    return labels.get(step) ?? '';
  };
  const title = exportTitle();
  const item = fromFile ? undefined : shownDerivationItem(s);
  const frames = [];
  for (const { step, channel, state, stop } of snapshots) {
    const tree = selectShownTree({ ...state, ui: { ...state.ui, treeView: 'state' } });
    // A live document's derivation at each step comes from the engine's record (the store holds only the shown one).
    let derivation: TreeView | null;
    if (!fromFile && channel !== undefined) {
      const reply = await fetchDerivation(channel, { ...(item ? { item: item.index } : {}), step }).catch(() => undefined);
      derivation = reply && 'tree' in reply ? reply.tree : null;
    } else derivation = selectShownTree({ ...state, ui: { ...state.ui, treeView: 'derivation' } });
    if (!tree && !derivation) continue;
    const empty = { id: 0, kind: 'bundle' as const, status: 'bundle' as const, step, ctxt: { vars: [], hyps: [] }, children: [] };
    frames.push({
      step, label: stop ? stop.command : labelOf(channel, step),
      ...(stop?.err ? { error: stop.err.split('\n')[0] as string } : {}),
      svg: treeToSvg(shownLayout(tree ?? empty, s.proof.collapsed), { title }),
      ...(derivation ? { derivation: treeToSvg(shownLayout(derivation, s.proof.collapsed), { title }) } : {}),
    });
  }
  download(`${title.replace(/\.[^.]*$/, '')}-replay.html`, new Blob([replayHtml(`${title} — Arbor replay`, frames)], { type: 'text/html' }));
}
