import type { TranscriptEntry } from '../../shared/transcript/parse-transcript.ts';
import { filterStops, replayStops } from '../../shared/transcript/transcript-replay.ts';
import type { ReplayStop } from '../../shared/transcript/transcript-replay.ts';
import { selectActiveChannel, selectChannelTrees } from '../store/proof-slice.ts';
import type { DocumentItem } from '../../shared/derivation/recorded-derivation.ts';
import { useArbor } from '../store/store.ts';
import type { ArborState } from '../store/store.ts';

/**
 * Replay: step a proof forward and backward, or play it, from the editor's history (the active document's
 * recorded steps) or from a loaded `--transcript` file (an `arbor-shell` or `arbor-mcp` session). The tree
 * animates each change (the painter moves nodes from their old places; new goals grow out of their parent).
 */
let timer: ReturnType<typeof setInterval> | undefined;

export interface ReplayPosition {
  /** Where the replay stands among its positions (0-based), and how many there are. */
  index: number;
  count: number;
  /** The step shown (the proof's STEP number). */
  step: number;
  /** Following the live proof (editor history only). */
  live: boolean;
  /** A loaded transcript: the request shown, with its response's error (a failure) if any. */
  stop?: ReplayStop;
}

const loadedEntries = (s: ArborState): TranscriptEntry[] | undefined =>
  s.ui.treeSource === 'transcript' && s.transcript.loaded ? s.transcript.loaded.entries : undefined;

/**
 * Where a transcript's replay stops: every request with its response, failures included (as a debugger
 * steps), narrowed by the filter (failures only, one channel).
 */
export function transcriptStops(s: ArborState): ReplayStop[] {
  const loaded = s.transcript.loaded;
  return loaded ? filterStops(replayStops(loaded.entries), loaded.filter) : [];
}


/** The document item whose derivation the derivation view shows (the host's last answer), if it does. */
export function shownDerivationItem(s: ArborState): DocumentItem | undefined {
  if (s.ui.treeView !== 'derivation' || s.ui.treeSource !== 'live') return undefined;
  const channel = selectActiveChannel(s);
  const reply = channel === undefined ? undefined : s.proof.derivations[channel];
  return reply && 'items' in reply ? reply.items[reply.item] : undefined;
}

/**
 * The steps the slider stops at: in the derivation view, every step of the item shown (the engine keeps
 * the derivation of each item at each step); in the state view, the steps whose trees this window keeps.
 */
function historySteps(s: ArborState): number[] {
  const item = shownDerivationItem(s);
  if (item) return Array.from({ length: item.lastStep - item.firstStep + 1 }, (_, i) => item.firstStep + i);
  const trees = selectChannelTrees(s);
  return trees ? Object.keys(trees.byStep).map(Number).sort((a, b) => a - b) : [];
}

/** Where the replay stands, or undefined when there is nothing to replay. */
export function replayPosition(s: ArborState): ReplayPosition | undefined {
  const entries = loadedEntries(s);
  if (entries && s.transcript.loaded) {
    const stops = transcriptStops(s);
    if (stops.length === 0) return undefined;
    const cursor = s.transcript.loaded.cursor;
    let index = -1;
    while (index + 1 < stops.length && (stops[index + 1] as ReplayStop).entry <= cursor) index++;
    const at = stops[Math.max(0, index)] as ReplayStop;
    return { index: Math.max(0, index), count: stops.length, step: at.step ?? 0, live: false, stop: at };
  }
  const steps = historySteps(s);
  if (steps.length === 0) return undefined;
  const shown = s.proof.historyStep ?? steps[steps.length - 1] as number;
  const at = steps.indexOf(shown);
  // An earlier item (picked in the outline, or under the cursor) is not the live proof, even at its last step.
  const item = shownDerivationItem(s);
  const live = s.proof.historyStep === null && (!item || item.lastStep === selectChannelTrees(s)?.latest);
  return { index: at < 0 ? steps.length - 1 : at, count: steps.length, step: at < 0 ? steps[steps.length - 1] as number : shown, live };
}

/** Shows position `index` (clamped); the last position of the editor's history is the live proof. */
export function replayTo(index: number): void {
  const s = useArbor.getState();
  const entries = loadedEntries(s);
  if (entries) {
    const stops = transcriptStops(s);
    const i = Math.max(0, Math.min(stops.length - 1, index));
    if (stops[i] !== undefined) s.setTranscriptCursor((stops[i] as ReplayStop).entry);
    return;
  }
  const steps = historySteps(s);
  const i = Math.max(0, Math.min(steps.length - 1, index));
  const step = steps[i];
  if (step === undefined) return;
  // The live proof's last step follows the proof; any other (an earlier item's last one too) stays put.
  s.setHistoryStep(step === selectChannelTrees(s)?.latest ? null : step);
}

/** One step forward (+1) or back (-1). */
export function replayStep(delta: number): void {
  stopPlaying();
  const pos = replayPosition(useArbor.getState());
  if (pos) replayTo(pos.index + delta);
}

export function isPlaying(): boolean {
  return timer !== undefined;
}

export function stopPlaying(): void {
  if (timer === undefined) return;
  clearInterval(timer);
  timer = undefined;
  // Repaint the toolbar's play button.
  useArbor.setState((s) => ({ proof: { ...s.proof } }));
}

/** Plays from the start (or from where it was paused), one step every `intervalMs`, and stops at the end. */
export function playHistory(intervalMs = 1000): void {
  stopPlaying();
  const pos = replayPosition(useArbor.getState());
  if (!pos || pos.count < 2) return;
  replayTo(pos.index >= pos.count - 1 ? 0 : pos.index);
  timer = setInterval(() => {
    const now = replayPosition(useArbor.getState());
    if (!now || now.index >= now.count - 1) {
      stopPlaying();
      return;
    }
    replayTo(now.index + 1);
    if (now.index + 1 >= now.count - 1) stopPlaying();
  }, intervalMs);
  useArbor.setState((s) => ({ proof: { ...s.proof } }));
}

/** The store as it would be at each replay position (for exporting every step), with the step shown there. */
export function replaySnapshots(s: ArborState): { step: number; channel: number | undefined; state: ArborState; stop?: ReplayStop }[] {
  const entries = loadedEntries(s);
  if (entries && s.transcript.loaded) {
    const loaded = s.transcript.loaded;
    return transcriptStops(s).map((stop) => ({
      step: stop.step ?? 0, channel: stop.channel, stop,
      state: { ...s, transcript: { ...s.transcript, loaded: { ...loaded, cursor: stop.entry } } },
    }));
  }
  const steps = historySteps(s);
  const channel = s.documents.activeUri ? s.documents.docs[s.documents.activeUri]?.channel : undefined;
  return steps.map((step, i) => ({ step, channel, state: { ...s, proof: { ...s.proof, historyStep: i === steps.length - 1 ? null : step } } }));
}
