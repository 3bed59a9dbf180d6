import { derivationToTreeView } from '../../shared/derivation/derivation-view.ts';
import type { DerivationReply } from '../../shared/derivation/recorded-derivation.ts';
import type { DerivationQuery } from '../shell/channel-engine.ts';
import type { Shell } from '../shell/shell.ts';

/**
 * The derivation of any item of a channel's document, at any step, as the channel's engine recorded it
 * (main/shell/tactic-engine.ts): the host only draws it as a tree for the workbench. Nothing is rebuilt
 * here from command text (that remains for old transcript files only, in the renderer).
 */
export class DerivationFeed {
  constructor(private readonly shell: Shell) {}

  derivation(channel: number, query: DerivationQuery = {}): DerivationReply {
    const answer = this.shell.derivation(channel, query);
    if ('unavailable' in answer) return answer;
    const { items, item, upTo, root, currentKey } = answer;
    return { items, item, upTo, tree: root ? derivationToTreeView(root, currentKey) : null };
  }
}
