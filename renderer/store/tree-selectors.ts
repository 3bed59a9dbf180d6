import type { TreeView } from '../../shared/proof-tree/proof-tree.ts';
import { derivationAtStop, replayStops } from '../../shared/transcript/transcript-replay.ts';
import type { ReplayStop } from '../../shared/transcript/transcript-replay.ts';
import { looksLikeState, treeViewOfState } from '../../shared/proof-tree/from-state-json.ts';
import type { TranscriptEntry } from '../../shared/transcript/parse-transcript.ts';
import { counterexampleInError } from '../../shared/protocol/hammer-report.ts';
import { selectActiveCheck } from './checking-slice.ts';
import { selectActiveChannel, selectChannelTrees, selectShownStep } from './proof-slice.ts';
import type { ArborState } from './store.ts';
import { selectVFileTree } from './vfile-slice.ts';

/** The tree in the tree pane: a synthetic one (perf mode), the transcript's at its cursor, or the channel's. */
export const selectShownTree = (s: ArborState): TreeView | null => {
  if (s.proof.synthetic) return s.proof.synthetic;
  if (s.ui.treeSource === 'vfile') return selectVFileTree(s);
  if (s.ui.treeView === 'derivation') return selectDerivationTree(s);
  if (s.ui.treeSource === 'transcript' && s.transcript.loaded) return transcriptTreeAt(s.transcript.loaded.entries, s.transcript.loaded.cursor);
  const trees = selectChannelTrees(s);
  const step = selectShownStep(s);
  if (!trees || step === undefined) return null;
  return trees.byStep[step] ?? null;
};

/** The tree before the shown one (for goal diffs): the largest recorded step below it. */
export const selectPreviousTree = (s: ArborState): TreeView | null => {
  if (s.ui.treeView === 'derivation') return null;
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
  // A replayed transcript stopped at a failed request: the goal it was tried on is drawn failed.
  if (!s.proof.synthetic && s.ui.treeSource === 'transcript' && s.transcript.loaded) return s.ui.treeView === 'state' && transcriptStopAt(s.transcript.loaded.entries, s.transcript.loaded.cursor)?.err ? 'failed' : undefined;
  if (s.proof.synthetic || s.ui.treeSource === 'transcript' || s.proof.historyStep !== null) return undefined;
  const check = selectActiveCheck(s);
  if (check.running) return 'running';
  if (check.error) return 'failed';
  return undefined;
};

/**
 * What the failed current goal shows on its box: a false goal's counterexample, else the failing line's
 * error (first line, short). Undefined unless the overlay is `failed`.
 */
export const selectFailureNote = (s: ArborState): string | undefined => {
  if (selectOverlay(s) !== 'failed') return undefined;
  const loaded = s.ui.treeSource === 'transcript' ? s.transcript.loaded : null;
  const message = loaded ? `${transcriptStopAt(loaded.entries, loaded.cursor)?.err ?? ''}` : selectActiveCheck(s).error?.message ?? '';
  const instance = counterexampleInError(message);
  if (instance !== undefined) return `✗ false: counterexample ${instance}`;
  const first = message.split('\n')[0] ?? '';
  return first ? `✗ ${first.length > 60 ? `${first.slice(0, 59)}…` : first}` : undefined;
};

const cache = new WeakMap<TranscriptEntry[], Map<number, TreeView | null>>();

/** The last proof state at or before the transcript cursor (memoised: the slider scrubs). */
export function transcriptTreeAt(entries: TranscriptEntry[], cursor: number): TreeView | null {
  let memo = cache.get(entries);
  if (!memo) cache.set(entries, (memo = new Map()));
  if (memo.has(cursor)) return memo.get(cursor) ?? null;
  const i = lastStateIndex(entries, cursor);
  const e = i === undefined ? undefined : entries[i];
  const tree = e?.kind === 'response' ? treeViewOfState(e.response.RESPONSE, e.response.STEP ?? 0) : null;
  memo.set(cursor, tree);
  return tree;
}

/** The index of the last response carrying a proof state at or before `cursor`. */
function lastStateIndex(entries: TranscriptEntry[], cursor: number): number | undefined {
  for (let i = Math.min(cursor, entries.length - 1); i >= 0; i--) {
    const e = entries[i]!;
    if (e.kind === 'response' && !e.response.ERR && looksLikeState(e.response.RESPONSE)) return i;
  }
  return undefined;
}

/** The proof state before the one shown at `cursor` (for the goal diff while stepping a transcript). */
export function transcriptPreviousTree(entries: TranscriptEntry[], cursor: number): TreeView | null {
  const i = lastStateIndex(entries, cursor);
  return i === undefined || i === 0 ? null : transcriptTreeAt(entries, i - 1);
}

const derivationCache = new WeakMap<TranscriptEntry[], Map<string, TreeView | null>>();

/**
 * The derivation of the proof on display: from the loaded transcript up to its cursor (built here,
 * memoised per transcript), or for the live document the one the host built for its channel
 * (services/derivation-sync.ts asks for it as the proof and the history slider move).
 */
export const selectDerivationTree = (s: ArborState): TreeView | null => {
  if (s.ui.treeSource === 'vfile') return selectVFileTree(s);
  const loaded = s.ui.treeSource === 'transcript' ? s.transcript.loaded : null;
  if (!loaded) {
    const channel = selectActiveChannel(s);
    const reply = channel === undefined ? undefined : s.proof.derivations[channel];
    return reply && 'tree' in reply ? reply.tree : null;
  }
  let memo = derivationCache.get(loaded.entries);
  if (!memo) derivationCache.set(loaded.entries, (memo = new Map()));
  const stop = transcriptStopAt(loaded.entries, loaded.cursor);
  const key = String(stop?.entry ?? -1);
  if (memo.has(key)) return memo.get(key) ?? null;
  const view = stop ? derivationAtStop(loaded.entries, stop) : null;
  memo.set(key, view);
  return view;
};

/** The request (with its response) at or before a transcript's cursor: where its replay stands. */
export function transcriptStopAt(entries: readonly TranscriptEntry[], cursor: number): ReplayStop | undefined {
  let found: ReplayStop | undefined;
  for (const stop of replayStops(entries)) {
    if (stop.entry > cursor) break;
    found = stop;
  }
  return found;
}
