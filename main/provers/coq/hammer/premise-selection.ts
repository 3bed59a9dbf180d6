/**
 * Premise selection (issue 25): which lemmas in scope — the document's, its project's, the library's — are
 * likeliest to prove a goal, ranked by the constants they share with it. Coq decides both sides: the goal's
 * constants are read from its `Set Printing All` form (no notation hides `app` behind `++`), and the
 * lemmas mentioning each constant are what `Search` answers. A constant that many lemmas mention (`Nat.add`)
 * says less than a rare one (the document's `dbl`), as in MePo/IDF-weighted relevance filters. Pure: the
 * session runs the searches.
 */

export interface Premise {
  name: string;
  /** Its statement as `Search` printed it. */
  type: string;
}

/** What every statement mentions: searching them returns half the library and says nothing about the goal. */
const UBIQUITOUS = new Set([
  'eq', 'nat', 'S', 'O', 'bool', 'true', 'false', 'list', 'nil', 'cons', 'prod', 'pair', 'and', 'or', 'not', 'iff',
  'True', 'False', 'ex', 'option', 'Some', 'None', 'unit', 'tt', 'Type', 'Prop', 'Set', 'le', 'lt', 'ge', 'gt',
].flatMap((n) => [n, `Coq.Init.Datatypes.${n}`, `Coq.Init.Logic.${n}`, `Coq.Init.Peano.${n}`]));

const NAME = /^[\p{L}_][\p{L}\p{N}_'.]*$/u;

/** The constants worth a search, rarest-looking first (the document's own before the library's). */
export function searchableConstants(constants: Iterable<string>, limit = 6): string[] {
  const out = [...new Set(constants)].filter((c) => NAME.test(c) && !UBIQUITOUS.has(c) && !UBIQUITOUS.has(c.split('.').at(-1) ?? c));
  // Unqualified (the document's own, or a section variable) before qualified library names.
  out.sort((a, b) => Number(a.includes('.')) - Number(b.includes('.')));
  return out.slice(0, limit);
}

/** The `Search` sentence for one constant (names are data: only a well-formed identifier is ever sent). */
export function searchSentence(constant: string, secs: number): string | undefined {
  if (!NAME.test(constant)) return undefined;
  return `Timeout ${Math.max(1, Math.floor(secs))} Search ${constant}.`;
}

/**
 * Ranks what the searches found: each premise scores the sum of log(1 + N / n_c) over the goal constants c
 * it mentions, where n_c is how many premises mention c and N how many were found in all; ties go to the
 * shorter statement (more general, cheaper to use). `exclude` keeps out names that must not prove the goal
 * with themselves (the theorem being proved).
 */
export function rankPremises(found: ReadonlyMap<string, readonly Premise[]>, limit = 8, exclude: ReadonlySet<string> = new Set()): Premise[] {
  const all = new Map<string, { premise: Premise; score: number }>();
  const total = new Set([...found.values()].flatMap((ps) => ps.map((p) => p.name))).size;
  if (total === 0) return [];
  for (const premises of found.values()) {
    const weight = Math.log(1 + total / Math.max(1, premises.length));
    for (const p of premises) {
      if (exclude.has(p.name) || !NAME.test(p.name)) continue;
      const hit = all.get(p.name) ?? { premise: p, score: 0 };
      hit.score += weight;
      all.set(p.name, hit);
    }
  }
  return [...all.values()]
    .sort((a, b) => b.score - a.score || a.premise.type.length - b.premise.type.length || a.premise.name.localeCompare(b.premise.name))
    .slice(0, limit)
    .map((h) => h.premise);
}

/** Whether a premise's conclusion is an equation (after its binders and hypotheses): usable by `rewrite`. */
export function isEquation(type: string): boolean {
  let depth = 0;
  let last = 0;
  // The conclusion is what follows the last top-level `,` of a forall prefix or `->`.
  for (let i = 0; i < type.length; i++) {
    const c = type[i];
    if (c === '(' || c === '[' || c === '{') depth++;
    else if (c === ')' || c === ']' || c === '}') depth--;
    else if (depth === 0 && (c === ',' || (c === '-' && type[i + 1] === '>'))) last = i + 1 + (c === '-' ? 1 : 0);
  }
  const conclusion = type.slice(last);
  depth = 0;
  for (let i = 0; i < conclusion.length; i++) {
    const c = conclusion[i];
    if (c === '(' || c === '[' || c === '{') depth++;
    else if (c === ')' || c === ']' || c === '}') depth--;
    else if (depth === 0 && c === '=' && conclusion[i - 1] !== '<' && conclusion[i - 1] !== '>' && conclusion[i + 1] !== '>' && conclusion[i + 1] !== '?') return true;
  }
  return false;
}

/**
 * The tactics that try the selected premises on the whole goal, each one that must close it: CoqHammer's
 * reconstruction search told which lemmas to use (`hauto use:`), `eauto using` for chains of implications,
 * and the equations as rewrites before the decision procedures.
 */
export function premiseTactics(premises: readonly Premise[]): string[] {
  if (premises.length === 0) return [];
  const names = premises.map((p) => p.name);
  const equations = premises.filter((p) => isEquation(p.type)).map((p) => p.name);
  const out = [`solve [hauto use: ${names.slice(0, 6).join(', ')}]`];
  if (equations.length > 0) {
    out.push(`solve [intros; simpl in *; do 2 (rewrite ?${equations.join(', ?')} in *); simpl in *; (lia || congruence || reflexivity || auto)]`);
  }
  out.push(`solve [intros; eauto using ${names.join(', ')}]`);
  out.push(`solve [sauto use: ${names.slice(0, 4).join(', ')}]`);
  return out;
}
