import { selectActiveChannel } from '../store/proof-slice.ts';
import { useArbor } from '../store/store.ts';
import type { ArborState } from '../store/store.ts';
import * as api from './arbor-api.ts';

/**
 * Keeps the derivation of the active document's proof while the derivation view shows it: the host builds
 * it (it has every step's state; this window keeps only recent trees) and this asks again whenever the
 * proof moves on or the history slider moves — one request at a time, the latest wish next.
 */
interface Wish { channel: number; latest: number; upTo: number | undefined }

const wishOf = (s: ArborState): Wish | undefined => {
  if (s.ui.treeView !== 'derivation' || s.ui.treeSource !== 'live' || s.proof.synthetic) return undefined;
  const channel = selectActiveChannel(s);
  const latest = channel === undefined ? undefined : s.proof.trees[channel]?.latest;
  if (channel === undefined || latest === undefined) return undefined;
  return { channel, latest, upTo: s.proof.historyStep ?? undefined };
};

const same = (a: Wish | undefined, b: Wish | undefined): boolean => a?.channel === b?.channel && a?.latest === b?.latest && a?.upTo === b?.upTo;

let asked: Wish | undefined;
let inFlight = false;

function ask(): void {
  const wish = wishOf(useArbor.getState());
  if (!wish || same(wish, asked) || inFlight) return;
  asked = wish;
  inFlight = true;
  api.fetchDerivation(wish.channel, wish.upTo)
    .then((tree) => useArbor.getState().receiveDerivation(wish.channel, wish.upTo ?? wish.latest, tree))
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
