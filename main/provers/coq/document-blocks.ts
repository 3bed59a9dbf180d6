import { escapeRegExp } from '../../../shared/protocol/name-pattern.ts';
import { COQ_BLANK, COQ_NAME, commentEnd } from './coq-sentence.ts';
import { coqCode } from '../../../shared/derivation/v-file-derivation.ts';

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
const LEADING_NAME = new RegExp(`^${COQ_NAME}`);

const PREFIXES = new Set(['Local', 'Global', 'Polymorphic', 'Monomorphic', 'Cumulative', 'NonCumulative', 'Program', 'Private']);

/** Leading blanks, comments (nested, holding strings) and `#[…]` attributes of a sentence, removed. */
export function withoutLeadingComments(text: string): string {
  let i = 0;
  for (;;) {
    while (i < text.length && BLANK.test(text[i] as string)) i++;
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
  // Comments anywhere are no words (`Module (* c *) M.` opens M), strings kept as Coq lexes them; leading
  // attributes (`#[universes(polymorphic)] Section P.`) are no words either.
  const code = withoutLeadingComments(coqCode(sentence));
  const words = code.replace(new RegExp(`\\.${B}*$`), '').split(BLANK_RUNS).filter(Boolean);
  let i = 0;
  // `Time c.` runs `c` as it is; `Fail c.` undoes whatever `c` did (so it opens and closes nothing).
  while (words[i] === 'Time') i++;
  if (words[i] === 'Fail') return undefined;
  while (PREFIXES.has(words[i] ?? '')) i++;
  // A name ends where Coq's lexer ends it: `Module N: MU` (Coq's reprint) opens `N`, `Module F(X : T)` opens `F`.
  const [first, second, third] = words.slice(i).map((w, k) => (k === 0 ? w : (LEADING_NAME.exec(w)?.[0] ?? w)));
  if (first === 'Section' && second !== undefined) return { open: { kind: 'section', name: second } };
  if (first === 'End' && second !== undefined) return { close: second };
  // `Module M := N.` and `Module M : T := N.` define a module at once: nothing stays open. Each
  // `with Definition x := t` / `with Module X := N` constraint of the type has a `:=` of its own:
  // `Module M : T with Definition x := 1.` still opens M.
  if (first !== 'Module' || second === undefined || definedAtOnce(sentence)) return undefined;
  if (second === 'Type' && third !== undefined) return { open: { kind: 'module type', name: third } };
  const name = (second === 'Import' || second === 'Export') ? third : second;
  if (name === undefined) return undefined;
  const head = new RegExp(`^[^]*?Module${B}+(?:(?:Import|Export)${B}+)?${escapeRegExp(name)}`).exec(code);
  const params = head ? functorParams(code.slice(head[0].length)) : [];
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

const NAME_AT = new RegExp(COQ_NAME, 'y');

/**
 * A module sentence's `:=` that are not a `let`'s, and its `with Definition`/`with Module` constraints, read as Coq's
 * lexer reads tokens: outside comments and strings, a name whole (`with\u00a0Definition` and `éwith` are one name
 * each, never the keyword `with`). A `let` has one `:=` of its own (`let fix f x := b in`, `let '(a, b) :=`): the
 * next `:=` at its own bracket depth is its, not counted. Any other `:=` a term may hold (`fix`, `(x := t)`) is counted,
 * which can only make a module look defined at once (its `End` then refused), never open when Coq opened nothing.
 */
function assignmentsAndConstraints(sentence: string): { assignments: number; constraints: number } {
  let assignments = 0;
  let constraints = 0;
  let previous: string | undefined;
  // Per bracket depth, the `let`s there whose `:=` has not come yet.
  const lets: number[] = [0];
  let i = 0;
  while (i < sentence.length) {
    if (sentence.startsWith('(*', i)) {
      i = commentEnd(sentence, i);
      continue;
    }
    const c = sentence[i] as string;
    if (BLANK.test(c)) {
      i++;
      continue;
    }
    if (c === '"') {
      const close = sentence.indexOf('"', i + 1);
      i = close < 0 ? sentence.length : close + 1;
      previous = undefined;
      continue;
    }
    if (sentence.startsWith(':=', i)) {
      if ((lets.at(-1) ?? 0) > 0) lets[lets.length - 1] = (lets.at(-1) ?? 0) - 1;
      else assignments++;
      i += 2;
      previous = undefined;
      continue;
    }
    NAME_AT.lastIndex = i;
    const name = NAME_AT.exec(sentence)?.[0];
    if (name !== undefined) {
      if (name === 'let') lets[lets.length - 1] = (lets.at(-1) ?? 0) + 1;
      if (previous === 'with' && (name === 'Definition' || name === 'Module')) constraints++;
      previous = name;
      i += name.length;
      continue;
    }
    if (c === '(' || c === '[' || c === '{') lets.push(0);
    else if ((c === ')' || c === ']' || c === '}') && lets.length > 1) lets.pop();
    previous = undefined;
    i++;
  }
  return { assignments, constraints };
}

/** Whether a `Module` sentence defines its module at once (`Module M := N.`, `Module M : T with Definition x := 1 := N.`). */
const definedAtOnce = (sentence: string): boolean => {
  const { assignments, constraints } = assignmentsAndConstraints(sentence);
  return assignments > constraints;
};

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
export function closingSentences(open: readonly string[]): string[] {
  if (open.length === 0) return [];
  return ['(* Arbor: the document is still inside these; closed here so that the script compiles *)', ...[...open].reverse().map((name) => `End ${name}.`)];
}

/**
 * Whether a sentence may open or close a block: it holds the word `Module`, `Section` or `End` anywhere (wrapped in
 * `Fail`/`Time`, after attributes, inside a notation's text). Generous on purpose: the caller then asks Coq.
 */
export const changesBlocks = (sentence: string): boolean => /(^|[^\p{L}\p{N}_'\u00a0])(Module|Section|End)([^\p{L}\p{N}_'\u00a0]|$)/u.test(sentence);

/**
 * A module's opening sentence without its signature (`Module F (X : T) <: U.` → `Module F (X : T).`), or undefined
 * when it opens no module or has no signature. Coq checks a signature (`: T` or `<: T`) only at the module's `End`;
 * until then the module's body elaborates the same with or without it. ▶ Convert uses it for a theorem stated
 * inside a module whose later fields the converted item does not carry (their absence is refused only at `End`).
 */
export function withoutModuleType(code: string): string | undefined {
  const effect = blockEffect(code);
  if (effect === undefined || !('open' in effect) || effect.open.kind !== 'module') return undefined;
  let depth = 0;
  let i = 0;
  while (i < code.length) {
    if (code.startsWith('(*', i)) {
      i = commentEnd(code, i);
      continue;
    }
    const c = code[i] as string;
    if (c === '"') {
      const close = code.indexOf('"', i + 1);
      i = close < 0 ? code.length : close + 1;
      continue;
    }
    if (c === '(' || c === '[' || c === '{') depth++;
    else if (c === ')' || c === ']' || c === '}') depth--;
    else if (c === ':' && depth === 0 && code[i + 1] !== '=') {
      const cut = code[i - 1] === '<' ? i - 1 : i;
      const out = `${code.slice(0, cut).replace(new RegExp(`${B}+$`), '')}.`;
      // The same module opens, and nothing else is left of a signature.
      const same = blockEffect(out);
      return same !== undefined && 'open' in same && same.open.kind === 'module' && same.open.name === effect.open.name ? out : undefined;
    }
    i++;
  }
  return undefined;
}
