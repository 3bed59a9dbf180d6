import type { TreeView } from '../../shared/proof-tree/proof-tree.ts';
import type { TreeDelta } from '../../shared/proof-tree/tree-delta.ts';
import { diffTrees, indexTree } from '../../shared/proof-tree/tree-delta.ts';
import type { TreeSnapshot } from '../../shared/api/api-contract.ts';
import type { Shell } from '../shell/shell.ts';

interface ChannelFeed {
  seq: number;
  tree: TreeView | null;
  index: Map<number, TreeView>;
}

/**
 * Sends each channel's tree to the workbench as changes (shared/proof-tree/tree-delta.ts): per step only
 * the nodes that changed, numbered by a per-channel sequence, so a client notices a gap and asks for a
 * snapshot instead. The host keeps the last tree it sent per channel, to diff the next one against.
 */
export class TreeFeed {
  private readonly channels = new Map<number, ChannelFeed>();

  constructor(private readonly shell: Shell) {}

  /**
   * The change a response with `STEP` made: `after` is the tree its typed result carries; else it is read at
   * once, before the channel's next command can start.
   */
  changeAfterStep(channel: number, after?: TreeView): { seq: number; change: TreeDelta } {
    const tree = after ?? this.shell.engine(channel)?.treeView() ?? null;
    const feed = this.channels.get(channel) ?? { seq: 0, tree: null, index: new Map<number, TreeView>() };
    const change = diffTrees(feed.tree, tree, feed.index);
    this.channels.set(channel, { seq: feed.seq + 1, tree, index: indexTree(tree) });
    return { seq: feed.seq + 1, change };
  }

  /** The whole tree after `step` (default: the latest sent), with the sequence number of the latest change. */
  snapshot(channel: number, step?: number): TreeSnapshot | null {
    const engine = this.shell.engine(channel);
    if (!engine) return null;
    const feed = this.channels.get(channel);
    const latest = engine.status().step;
    if (step === undefined) return { seq: feed?.seq ?? 0, step: latest, tree: feed ? feed.tree : engine.treeView() ?? null };
    return { seq: feed?.seq ?? 0, step, tree: step <= latest ? engine.treeView(step) ?? null : null };
  }

  /** Forgets channels that are gone. */
  retain(open: readonly number[]): void {
    const keep = new Set(open);
    for (const channel of this.channels.keys()) if (!keep.has(channel)) this.channels.delete(channel);
  }
}
