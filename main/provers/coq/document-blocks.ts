import { escapeRegExp } from '../../../shared/protocol/name-pattern.ts';
import { COQ_BLANK, COQ_NAME, commentEnd } from './coq-sentence.ts';

/**
 * Sections and modules a document opens in one DEFINE and closes in a later one (issue 24): a `GOAL`
 * between them is stated inside the block, with Coq's meaning (section variables are generalised at
 * `End`, a module's names are qualified after it). This module reads which block a sentence opens or
 * closes, from Coq's pretty-print of it (comments gone) or from the exact text that ran.
 */

export type BlockKind = 'section' | 'module' | 'module type';

export interface OpenBlock {
  kind: BlockKind;
  /** As written after `Section`/`Module` (`End` must name it; Coq checks that). */
  name: string;
  /**
   * A functor's parameters (`Module F (X : T) (Y Z : U)` → X, Y, Z), as Coq delimited the sentence. Only a
   * hint of where to look: a field is taken as a parameter's only when Coq resolves it to a bound module's
   * path (coq-session's `resolve`, functor-parameters.ts).
   */
  params?: string[];
}

export type BlockEffect = { open: OpenBlock } | { close: string } | undefined;

/** Coq's layout blanks (coq-sentence.ts): a no-break space is part of a name (`Section a\u00a0b.` opens `a\u00a0b`). */
const B = `[${COQ_BLANK}]`;
const BLANK = new RegExp(B);
const BLANK_RUNS = new RegExp(`${B}+`);
const NAME = new RegExp(`^${COQ_NAME}$`);

const PREFIXES = new Set(['Local', 'Global', 'Polymorphic', 'Monomorphic', 'Cumulative', 'NonCumulative', 'Program', 'Private']);

/** Leading blanks, comments (nested, holding strings) and `#[…]` attributes of a sentence, removed. */
export function withoutLeadingComments(text: string): string {
  let i = 0;
  for (;;) {
    while (i < text.length && /\s/.test(text[i] as string)) i++;
    if (text.startsWith('#[', i)) {
      const close = text.indexOf(']', i);
      if (close < 0) return text.slice(i);
      i = close + 1;
      continue;
    }
    if (!text.startsWith('(*', i)) return text.slice(i);
    i = commentEnd(text, i);
  }
}

/** Which block the sentence opens (`Section S.`, `Module M.`, `Module Type T.`, `Module M (X : T) <: U.`) or closes (`End S.`). */
export function blockEffect(sentence: string): BlockEffect {
  const words = withoutLeadingComments(sentence).replace(new RegExp(`\\.${B}*$`), '').split(BLANK_RUNS).filter(Boolean);
  let i = 0;
  while (PREFIXES.has(words[i] ?? '')) i++;
  const [first, second, third] = words.slice(i);
  if (first === 'Section' && second !== undefined) return { open: { kind: 'section', name: second } };
  if (first === 'End' && second !== undefined) return { close: second };
  // `Module M := N.` and `Module M : T := N.` define a module at once: nothing stays open. Each
  // `with Definition x := t` / `with Module X := N` constraint of the type has a `:=` of its own:
  // `Module M : T with Definition x := 1.` still opens M.
  if (first !== 'Module' || second === undefined || assignments(sentence) > constraints(sentence)) return undefined;
  if (second === 'Type' && third !== undefined) return { open: { kind: 'module type', name: third } };
  const name = (second === 'Import' || second === 'Export') ? third : second;
  if (name === undefined) return undefined;
  const head = new RegExp(`^[^]*?Module${B}+(?:(?:Import|Export)${B}+)?${escapeRegExp(name)}`).exec(withoutLeadingComments(sentence));
  const params = head ? functorParams(withoutLeadingComments(sentence).slice(head[0].length)) : [];
  return { open: { kind: 'module', name, ...(params.length > 0 ? { params } : {}) } };
}

/** The names bound by the `(X Y : T)` groups right after a module's name (`!` and `Import`/`Export` inside them allowed). */
function functorParams(rest: string): string[] {
  const out: string[] = [];
  let i = 0;
  for (;;) {
    while (BLANK.test(rest[i] ?? '')) i++;
    if (rest[i] !== '(') return out;
    let depth = 0;
    let j = i;
    for (; j < rest.length; j++) {
      if (rest[j] === '(') depth++;
      else if (rest[j] === ')' && --depth === 0) break;
    }
    const inner = rest.slice(i + 1, j);
    const colon = inner.indexOf(':');
    if (colon < 0) return out;
    for (const w of inner.slice(0, colon).split(BLANK_RUNS)) if (NAME.test(w) && w !== 'Import' && w !== 'Export') out.push(w);
    i = j + 1;
  }
}

const assignments = (sentence: string): number => sentence.match(/:=/g)?.length ?? 0;
const constraints = (sentence: string): number => sentence.match(/\bwith\s+(?:Definition|Module)\b/g)?.length ?? 0;

/** The blocks open after `sentence`, given those open before it. */
export function afterSentence(open: readonly OpenBlock[], sentence: string): OpenBlock[] {
  return afterEffect(open, blockEffect(sentence));
}

/** The blocks open after a sentence whose effect (`blockEffect`) is known. */
export function afterEffect(open: readonly OpenBlock[], effect: BlockEffect): OpenBlock[] {
  if (effect === undefined) return [...open];
  if ('open' in effect) return [...open, effect.open];
  return open.slice(0, -1);
}

/** The blocks a sequence of sentences leaves open. */
export const openBlocksAfter = (sentences: readonly string[], open: readonly OpenBlock[] = []): OpenBlock[] =>
  sentences.reduce<OpenBlock[]>((blocks, s) => afterSentence(blocks, s), [...open]);

/**
 * The sentences that close what a script leaves open, innermost first: `coqc` refuses a file that ends
 * inside a section or module, and a document may be read while one is open.
 */
export function closingSentences(open: readonly OpenBlock[]): string[] {
  if (open.length === 0) return [];
  return ['(* Arbor: the document is still inside these; closed here so that the script compiles *)', ...[...open].reverse().map((b) => `End ${b.name}.`)];
}
