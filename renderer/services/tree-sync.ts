import type { ApiEvent, TreeSnapshot } from '../../shared/api/api-contract.ts';
import { TreeReplica } from '../../shared/proof-tree/tree-delta.ts';
import { useArbor } from '../store/store.ts';
import * as api from './arbor-api.ts';

type TreeEvent = Extract<ApiEvent, { kind: 'tree' }>;

interface ChannelCopy {
  replica: TreeReplica;
  seq: number;
  /** A snapshot is on its way: changes that arrive meanwhile wait here. */
  resync?: Promise<void>;
  waiting: TreeEvent[];
}

/**
 * This window's copies of its documents' trees, kept up to date from the host's tree changes (one change
 * per step, only what changed: shared/proof-tree/tree-delta.ts). A copy that misses a change (or starts
 * late) asks the host for a snapshot and continues from there. Channels of other windows and of agents'
 * scratch work are not this window's business and are ignored.
 */
const copies = new Map<number, ChannelCopy>();
const store = (): ReturnType<typeof useArbor.getState> => useArbor.getState();

const ownsChannel = (channel: number): boolean => Object.values(store().documents.docs).some((d) => d.channel === channel);

export function receiveTreeChange(event: TreeEvent): void {
  if (!ownsChannel(event.channel)) return;
  let copy = copies.get(event.channel);
  if (!copy) copies.set(event.channel, (copy = { replica: new TreeReplica(), seq: 0, waiting: [] }));
  if (copy.resync) {
    copy.waiting.push(event);
    return;
  }
  if (event.seq <= copy.seq) return; // already in a snapshot
  if (event.seq !== copy.seq + 1) {
    resynchronise(event.channel, copy, event);
    return;
  }
  try {
    const tree = copy.replica.apply(event.change);
    copy.seq = event.seq;
    store().receiveTree(event.channel, event.step, tree);
  } catch {
    resynchronise(event.channel, copy, event);
  }
}

function resynchronise(channel: number, copy: ChannelCopy, event: TreeEvent): void {
  copy.waiting.push(event);
  copy.resync = api.fetchTree(channel).then((snapshot: TreeSnapshot | null) => {
    copy.resync = undefined;
    const waiting = copy.waiting.splice(0);
    if (!snapshot || copies.get(channel) !== copy) return;
    copy.replica.reset(snapshot.tree);
    copy.seq = snapshot.seq;
    store().receiveTree(channel, snapshot.step, snapshot.tree);
    for (const e of waiting) receiveTreeChange(e);
  }, () => {
    copy.resync = undefined;
    copy.waiting.length = 0;
    copies.delete(channel);
  });
}

/** The channel is no longer this window's (its document closed or moved to another channel). */
export function forgetTreeCopy(channel: number): void {
  copies.delete(channel);
}
