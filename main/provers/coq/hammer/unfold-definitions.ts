import { nameOccurrence } from '../../../../shared/protocol/name-pattern.ts';

/**
 * The document's own non-recursive definitions a goal mentions (issue 25, item 3). A definition such as
 * `rev l := itrev l []` hides the function its lemmas are about: premise search ranks by shared constants and
 * finds nothing about `rev`, and induction on the folded goal never meets the accumulator. Unfolding them first
 * (CoqHammer's `sauto unfold:`) lets induction's cases use the document's lemmas about what they hide.
 */
const DEFINITION = /^(?:#\[[^\]]*\]\s*)?(?:(?:Local|Global|Program)\s+)*Definition\s+([\p{L}_][\p{L}\p{N}_']*)[\s\S]*:=/u;

export function unfoldableDefinitions(declarations: readonly string[], goal: string): string[] {
  const names = declarations.flatMap((d) => DEFINITION.exec(d.trim())?.[1] ?? []);
  // A definition behind a notation (`a <+> b` for `plus2 a b`) is printed as the notation: it is mentioned too.
  const shown = declarations.flatMap((d) => notationShown(d.trim(), goal) ?? []).join(' ');
  return [...new Set(names)].filter((n) => nameOccurrence(n).test(goal) || nameOccurrence(n).test(shown)).slice(0, 3);
}

const NOTATION = /^(?:#\[[^\]]*\]\s*)?(?:(?:Local|Global)\s+)*(?:Notation|Infix)\s+"((?:[^"]|"")*)"\s*:=\s*([\s\S]*)$/u;
const ABBREVIATION = /^(?:#\[[^\]]*\]\s*)?(?:(?:Local|Global)\s+)*Notation\s+([\p{L}_][\p{L}\p{N}_']*)[^:]*:=\s*([\s\S]*)$/u;
const IDENT = /^[\p{L}_][\p{L}\p{N}_']*$/u;

/**
 * The body of a `Notation`/`Infix` whose fixed tokens all appear in the goal (its symbols, or its quoted words;
 * the bare identifiers of a notation are its arguments); undefined for any other sentence or a notation not shown.
 */
function notationShown(sentence: string, goal: string): string | undefined {
  const abbreviation = ABBREVIATION.exec(sentence);
  if (abbreviation) return nameOccurrence(abbreviation[1] as string).test(goal) ? abbreviation[2] : undefined;
  const notation = NOTATION.exec(sentence);
  if (!notation) return undefined;
  const tokens = (notation[1] as string).replace(/""/g, '"').split(/\s+/).filter((t) => t !== '' && !IDENT.test(t)).map((t) => t.replace(/^'(.+)'$/, '$1'));
  return tokens.length > 0 && tokens.every((t) => goal.includes(t)) ? notation[2] : undefined;
}

/** The tactics with the definitions unfolded everywhere right after their `intros`. */
export function withUnfolded(tactics: readonly string[], definitions: readonly string[]): string[] {
  if (definitions.length === 0) return [];
  return tactics.map((t) => t.replace(/^solve \[intros([^;]*);/, (_m, names: string) => `solve [intros${names}; unfold ${definitions.join(', ')} in *;`)).filter((t) => t.includes(' unfold '));
}

const LEMMA = /^(?:#\[[^\]]*\]\s*)?(?:(?:Local|Global)\s+)*(?:Lemma|Theorem|Corollary|Fact|Remark|Proposition)\s+([\p{L}_][\p{L}\p{N}_']*)/u;

/** The lemmas the document's own declarations state (a `DEFINE` may prove them), the latest last. */
export function declaredLemmas(declarations: readonly string[]): string[] {
  return [...new Set(declarations.flatMap((d) => LEMMA.exec(d.trim())?.[1] ?? []))];
}

/** On the whole goal: the definitions unfolded, then the lemmas as rewrites before arithmetic, or to `hauto`. */
export function unfoldedTactics(definitions: readonly string[], lemmas: readonly string[]): string[] {
  const unfold = `intros; unfold ${definitions.join(', ')} in *`;
  if (lemmas.length === 0) return [`solve [${unfold}; simpl in *; (lia || congruence || sauto)]`];
  return [
    `solve [${unfold}; simpl in *; rewrite ?${lemmas.join(', ?')} in *; simpl in *; (lia || congruence || reflexivity || auto)]`,
    `solve [${unfold}; hauto use: ${lemmas.join(', ')}]`,
  ];
}
