import { buildDerivation, ExchangePairing, proofsFromExchanges } from '../../shared/derivation/derivation.ts';
import type { Exchange } from '../../shared/derivation/derivation.ts';
import { derivationToTreeView } from '../../shared/derivation/derivation-view.ts';
import { treeViewToState } from '../../shared/proof-tree/from-state-json.ts';
import type { TreeView } from '../../shared/proof-tree/proof-tree.ts';
import type { Shell, ShellEvent } from '../shell/shell.ts';

/** A step's state is not kept here: the channel's engine has it (its history), and gives it on demand. */
const IN_ENGINE = Symbol('state kept by the engine');
/** Exchanges kept per channel (a derivation needs only those since the proof's GOAL). */
const KEEP = 50_000;

/**
 * The derivation of each channel's proof (shared/derivation), built on the host from what the shell did:
 * the commands, paired with their responses, and the states of the engine's own history. Clients ask for
 * it when they show it, instead of keeping every state of every step themselves.
 */
export class DerivationFeed {
  private readonly pairing = new ExchangePairing();

  constructor(private readonly shell: Shell) {}

  observe(event: ShellEvent): void {
    if (event.kind === 'request') {
      this.pairing.add({ kind: 'request', channel: event.channel, text: event.text });
    } else if (event.kind === 'response') {
      const r = event.response;
      const isStep = r.STEP !== undefined && r.ERR === '' && typeof r.RESPONSE === 'object' && r.RESPONSE !== null && 'goal' in r.RESPONSE;
      this.pairing.add({ kind: 'response', response: { ...r, RESPONSE: isStep ? IN_ENGINE : r.RESPONSE } });
      const list = this.pairing.byChannel.get(r.CHANNEL);
      if (list && list.length > KEEP) list.splice(0, list.length - KEEP);
    }
  }

  /** The derivation of the channel's last proof, up to `step` (default: all of it); null without one. */
  derivation(channel: number, step?: number): TreeView | null {
    const engine = this.shell.engine(channel);
    const proof = proofsFromExchanges(this.pairing.byChannel.get(channel) ?? [], (x: Exchange) => x.response === IN_ENGINE).at(-1);
    if (!engine || !proof) return null;
    const steps = [];
    for (const s of proof) {
      if (step !== undefined && s.step > step) break;
      const view = engine.treeView(s.step);
      if (!view) break; // the engine's history no longer has it (a REVERT this feed has not seen answered yet)
      steps.push({ ...s, state: treeViewToState(view) });
    }
    const { root } = buildDerivation(steps);
    return root ? derivationToTreeView(root) : null;
  }

  /** Forgets channels that are gone. */
  retain(open: readonly number[]): void {
    const keep = new Set(open);
    for (const channel of [...this.pairing.byChannel.keys()]) if (!keep.has(channel)) this.pairing.forget(channel);
  }
}
