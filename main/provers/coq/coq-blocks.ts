import type { CoqideTopClient } from './coqidetop-client.ts';
import { hasArborPlugin } from './arbor-plugin.ts';
import { coqTrim } from './coq-sentence.ts';
import { ROUND_TRIP_MS } from './coq-tip.ts';
import type { BlockKind, OpenBlock } from './document-blocks.ts';

/**
 * The sections, modules and module types open at Coq's tip, as Coq's own library stack holds them (plugin query
 * `Arbor_blocks.`, docs/arbor-plugin.md). The policy asks it before an assumption (an `Axiom` is a field only
 * inside a module type Coq has open; an `End` closes only what the text's document opened), and after a text that may
 * open or close a block, Coq's answer is what is open, not a reading of the text (which a document's own notations
 * shape: `Notation "x 'let'"` hid a `:=`; a `fix` inside a constraint has a `:=` of its own).
 */

/** Coq's blocks at `state` (default: the tip), outermost first; undefined where the plugin is not loaded. Throws when Coq does not answer. */
export async function coqOpenBlocks(client: CoqideTopClient, state = client.tip): Promise<Omit<OpenBlock, 'params'>[] | undefined> {
  if (!hasArborPlugin(client)) return undefined;
  const messages = await client.query('Arbor_blocks.', state, ROUND_TRIP_MS);
  const read = readArborBlocks(messages.filter((m) => m.level === 'notice').map((m) => m.text));
  if (read === undefined) throw new Error('Coq did not say which sections and modules are open (Arbor_blocks)');
  return read;
}

const LINE = /^(section|module type|module) (.+)$/;

/** The plugin's notice (`Blocks`, then `module type T`, `section S`…); undefined for anything else. */
export function readArborBlocks(notices: readonly string[]): Omit<OpenBlock, 'params'>[] | undefined {
  if (notices.length !== 1) return undefined;
  const [head, ...lines] = (notices[0] as string).split('\n');
  if (coqTrim(head ?? '') !== 'Blocks') return undefined;
  const blocks: Omit<OpenBlock, 'params'>[] = [];
  for (const line of lines) {
    const m = LINE.exec(line);
    if (m === null) return undefined;
    blocks.push({ kind: m[1] as BlockKind, name: m[2] as string });
  }
  return blocks;
}

/** `module M, section S` or `nothing`, for messages. */
export const blockList = (blocks: readonly Omit<OpenBlock, 'params'>[]): string =>
  blocks.length === 0 ? 'nothing' : blocks.map((b) => `${b.kind} ${b.name}`).join(', ');

/**
 * Coq's blocks, each with the functor parameters the text's reading found for it where that reading agrees on the
 * block at that depth (same kind, same name): a parameter is only a hint of where to look for a premise, taken as
 * one only when Coq resolves a field to a bound module's path (coq-closure-queries.ts).
 */
export function withCoqBlocks(read: readonly OpenBlock[], coq: readonly Omit<OpenBlock, 'params'>[]): OpenBlock[] {
  return coq.map((b, i) => {
    const mine = read[i];
    return mine?.params !== undefined && mine.kind === b.kind && mine.name === b.name ? { ...b, params: mine.params } : { ...b };
  });
}
