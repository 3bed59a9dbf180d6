import { selectActiveChannel } from '../store/proof-slice.ts';
import { useArbor } from '../store/store.ts';
import type { ArborState } from '../store/store.ts';
import * as api from './arbor-api.ts';

/**
 * Keeps the derivation on display while the derivation view shows it. The channel's engine records the
 * derivation of every item of the document (main/shell/tactic-engine.ts); this asks for the item the
 * outline selected, else the one the history slider is in, else the last — again whenever the proof moves
 * on, the slider moves or another item is chosen; one request at a time, the latest wish next.
 */
interface Wish { channel: number; latest: number; item: number | undefined; step: number | undefined }

const wishOf = (s: ArborState): Wish | undefined => {
  if (s.ui.treeView !== 'derivation' || s.ui.treeSource !== 'live' || s.proof.synthetic) return undefined;
  const channel = selectActiveChannel(s);
  const latest = channel === undefined ? undefined : s.proof.trees[channel]?.latest;
  if (channel === undefined || latest === undefined) return undefined;
  return { channel, latest, item: s.proof.derivationItem ?? cursorItem(s, channel), step: s.proof.historyStep ?? undefined };
};

/**
 * The item under the editor's cursor (once the user put it somewhere): the one holding the step of the last
 * checked line at or above it. Below the checked region that is the item being worked on.
 */
function cursorItem(s: ArborState, channel: number): number | undefined {
  const line = s.proof.cursorLine;
  const uri = s.documents.activeUri;
  const reply = s.proof.derivations[channel];
  if (line === null || !uri || !reply || !('items' in reply) || s.proof.historyStep !== null) return undefined;
  let step: number | undefined;
  for (const e of s.checking[uri]?.entries ?? []) if (e.line <= line) step = e.stepAfter;
  if (step === undefined) return undefined;
  const at = step;
  return reply.items.find((it) => it.firstStep <= at && at <= it.lastStep)?.index;
}

const same = (a: Wish | undefined, b: Wish | undefined): boolean =>
  a?.channel === b?.channel && a?.latest === b?.latest && a?.item === b?.item && a?.step === b?.step;

let asked: Wish | undefined;
let inFlight = false;

function ask(): void {
  const wish = wishOf(useArbor.getState());
  if (!wish || same(wish, asked) || inFlight) return;
  asked = wish;
  inFlight = true;
  const query = { ...(wish.item !== undefined ? { item: wish.item } : {}), ...(wish.step !== undefined ? { step: wish.step } : {}) };
  api.fetchDerivation(wish.channel, query)
    .then((reply) => useArbor.getState().receiveDerivation(wish.channel, reply))
    .catch(() => { asked = undefined; })
    .finally(() => {
      inFlight = false;
      ask();
    });
}

/** Starts following the store (once, at start-up). */
export function followDerivations(): () => void {
  return useArbor.subscribe(() => ask());
}
