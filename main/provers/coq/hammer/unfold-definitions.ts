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
  return [...new Set(names)].filter((n) => nameOccurrence(n).test(goal)).slice(0, 3);
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
