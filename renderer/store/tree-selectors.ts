import type { TreeView } from '../../shared/proof-tree/proof-tree.ts';
import { stateToTreeView } from '../../shared/transcript/state-to-tree-view.ts';
import type { TranscriptEntry } from '../../shared/transcript/parse-transcript.ts';
import { selectActiveCheck } from './checking-slice.ts';
import { selectChannelTrees, selectShownStep } from './proof-slice.ts';
import type { ArborState } from './store.ts';

/** The tree in the tree pane: a synthetic one (perf mode), the transcript's at its cursor, or the channel's. */
export const selectShownTree = (s: ArborState): TreeView | null => {
  if (s.proof.synthetic) return s.proof.synthetic;
  if (s.ui.treeSource === 'transcript' && s.transcript.loaded) return transcriptTreeAt(s.transcript.loaded.entries, s.transcript.loaded.cursor);
  const trees = selectChannelTrees(s);
  const step = selectShownStep(s);
  if (!trees || step === undefined) return null;
  return trees.byStep[step] ?? null;
};

/** The tree before the shown one (for goal diffs): the largest recorded step below it. */
export const selectPreviousTree = (s: ArborState): TreeView | null => {
  if (s.ui.treeSource === 'transcript' && s.transcript.loaded) return transcriptPreviousTree(s.transcript.loaded.entries, s.transcript.loaded.cursor);
  const trees = selectChannelTrees(s);
  const step = selectShownStep(s);
  if (!trees || step === undefined || s.ui.treeSource === 'transcript') return null;
  let best = -1;
  for (const k of Object.keys(trees.byStep)) {
    const n = Number(k);
    if (n < step && n > best) best = n;
  }
  return best >= 0 ? trees.byStep[best] ?? null : null;
};

/** The step of the tree on display, whichever its source. */
export const selectDisplayedStep = (s: ArborState): number | undefined => {
  if (s.proof.synthetic) return undefined;
  if (s.ui.treeSource === 'transcript' && s.transcript.loaded) {
    const i = lastStateIndex(s.transcript.loaded.entries, s.transcript.loaded.cursor);
    const e = i === undefined ? undefined : s.transcript.loaded.entries[i];
    return e?.kind === 'response' ? e.response.STEP ?? 0 : undefined;
  }
  return selectShownStep(s);
};

/** Whether the tree on display belongs to the active document (so its steps map to editor lines). */
export const selectShowsDocument = (s: ArborState): boolean => !s.proof.synthetic && !(s.ui.treeSource === 'transcript' && s.transcript.loaded);

/** The shown tree's status overlay: running or failed on the current goal (live, latest step only). */
export const selectOverlay = (s: ArborState): 'running' | 'failed' | undefined => {
  if (s.proof.synthetic || s.ui.treeSource === 'transcript' || s.proof.historyStep !== null) return undefined;
  const check = selectActiveCheck(s);
  if (check.running) return 'running';
  if (check.error) return 'failed';
  return undefined;
};

const cache = new WeakMap<TranscriptEntry[], Map<number, TreeView | null>>();

/** The last proof state at or before the transcript cursor (memoised: the slider scrubs). */
export function transcriptTreeAt(entries: TranscriptEntry[], cursor: number): TreeView | null {
  let memo = cache.get(entries);
  if (!memo) cache.set(entries, (memo = new Map()));
  if (memo.has(cursor)) return memo.get(cursor) ?? null;
  const i = lastStateIndex(entries, cursor);
  const e = i === undefined ? undefined : entries[i];
  const tree = e?.kind === 'response' ? stateToTreeView(e.response.RESPONSE, e.response.STEP ?? 0) : null;
  memo.set(cursor, tree);
  return tree;
}

/** The index of the last response carrying a proof state at or before `cursor`. */
function lastStateIndex(entries: TranscriptEntry[], cursor: number): number | undefined {
  for (let i = Math.min(cursor, entries.length - 1); i >= 0; i--) {
    const e = entries[i]!;
    if (e.kind === 'response' && !e.response.ERR && stateToTreeView(e.response.RESPONSE) !== null) return i;
  }
  return undefined;
}

/** The proof state before the one shown at `cursor` (for the goal diff while stepping a transcript). */
export function transcriptPreviousTree(entries: TranscriptEntry[], cursor: number): TreeView | null {
  const i = lastStateIndex(entries, cursor);
  return i === undefined || i === 0 ? null : transcriptTreeAt(entries, i - 1);
}
