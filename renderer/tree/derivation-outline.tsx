import { selectActiveChannel } from '../store/proof-slice.ts';
import { useArbor } from '../store/store.ts';
import type { ArborState } from '../store/store.ts';
import type { DerivationReply, DocumentItem } from '../../shared/derivation/recorded-derivation.ts';
import { derivationNodeId } from '../../shared/derivation/derivation-view.ts';

const replyOf = (s: ArborState): DerivationReply | undefined => {
  const channel = selectActiveChannel(s);
  return channel === undefined ? undefined : s.proof.derivations[channel];
};

/** Why the derivation view is empty, when the host said (a declaration, a backend without a record). */
export const selectDerivationNote = (s: ArborState): string | undefined => {
  if (s.ui.treeView !== 'derivation' || s.ui.treeSource !== 'live') return undefined;
  const reply = replyOf(s);
  if (!reply) return undefined;
  if ('unavailable' in reply) return `No derivation: ${reply.unavailable}.`;
  return reply.items[reply.item]?.kind === 'define' ? 'A declaration (DEFINE): it has no derivation. Pick a lemma above.' : undefined;
};

const short = (text: string, n = 48): string => {
  const one = text.replace(/\s+/g, ' ').trim();
  return one.length > n ? `${one.slice(0, n - 1)}…` : one;
};

/** Shows the item's derivation and selects its statement's node, so the editor shows the item's GOAL line. */
function pickItem(items: readonly DocumentItem[], index: number | null): void {
  const store = useArbor.getState();
  store.selectDerivationItem(index);
  const item = index === null ? undefined : items[index];
  if (item?.kind === 'proof') store.selectNode(derivationNodeId(`${item.firstStep}.0`));
}

/**
 * The document's items (lemmas and declarations) as the engine knows them: pick one to see its
 * derivation (and step through it with the slider); "Follow the proof" shows the item being worked on.
 */
export function DerivationOutline() {
  const reply = useArbor(replyOf);
  const chosen = useArbor((s) => s.proof.derivationItem);
  const live = useArbor((s) => s.ui.treeSource === 'live');
  // Proofs finished under a section's hypotheses (END's PREMISES, by step): ◐, never a plain ✓.
  const premises = useArbor((s) => { const c = selectActiveChannel(s); return c === undefined ? undefined : s.problems.premises?.[c]; });
  const conditional = (it: DocumentItem): boolean => Object.entries(premises ?? {}).some(([step, p]) => p.length > 0 && Number(step) >= it.firstStep && Number(step) <= it.lastStep);
  // A loaded transcript or .v file is on display: the document's items are not what the tree shows.
  if (!live || !reply || !('items' in reply) || reply.items.length === 0) return null;
  const label = (it: DocumentItem): string => `${it.index + 1}. ${it.kind === 'proof' ? `${it.name ?? 'goal'}${it.finished ? (conditional(it) ? ' ◐ proved under section hypotheses' : ' ✓') : ''}` : `DEFINE ${short(it.text, 32)}`} · steps ${it.firstStep}–${it.lastStep}`;
  const shown = chosen === null ? `Follow the proof (${reply.items[reply.item]?.name ?? `item ${reply.item + 1}`})` : label(reply.items[chosen] as DocumentItem);
  return (
    <select
      className="derivation-outline" data-testid="derivation-item" aria-label="document item"
      // The select may be narrower than its text: the tooltip always has it whole.
      title={`${shown}\nThe document's items: pick one to see its derivation`}
      value={chosen === null ? 'follow' : String(chosen)}
      onChange={(e) => pickItem(reply.items, e.target.value === 'follow' ? null : Number(e.target.value))}
    >
      <option value="follow">{chosen === null ? shown : 'Follow the proof'}</option>
      {reply.items.map((it) => (
        <option key={it.index} value={String(it.index)} data-testid="derivation-item-option">{label(it)}</option>
      ))}
    </select>
  );
}
