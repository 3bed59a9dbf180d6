import { COQ_BLANK, COQ_NAME, coqFlat, coqTrim } from './coq-sentence.ts';

/**
 * coqidetop prints hypotheses grouped and let-bound (`n, m : nat`, `x := 3 : nat`); Arbor wants one entry
 * per name. The names and a plain hypothesis' type are read from the text (the first ` : ` or ` := ` after the
 * names: a name holds no colon). A let-bound hypothesis' text (`x := BODY : TYPE`) has no mark between body and
 * type, and either may hold a ` : ` of its own (`fun n : nat => eq_refl : forall n : nat, n = n`): its type is
 * Coq's, when Coq said it (`LetTypes`, the plugin's `Arbor_let_types`), and read from the text only without it.
 */
export interface SplitHyp {
  name: string;
  /** The hypothesis' type (for a let-bound name, the type after the body). */
  type: string;
  /** The body of a let-bound name. */
  body?: string;
}

/**
 * The types of a goal's let-bound hypotheses as Coq printed them, by name (each name of a group), flattened as the
 * goal's own text is (`coqFlat`): the plugin's `Arbor_let_types` (arbor-plugin.ts `letTypesAt`).
 */
export type LetTypes = ReadonlyMap<string, string>;

/** Names read as Coq's lexer reads them (coq-sentence.ts): `H x` (a no-break space inside) is one hypothesis. */
const B = `[${COQ_BLANK}]`;
const NAMES = new RegExp(`^(${COQ_NAME}(?:${B}*,${B}*${COQ_NAME})*)${B}*(:=|:)${B}*([^]*)$`);

/** Whether a hypothesis line is let-bound (`x := …`): only these need Coq's word on where the type starts. */
export const isLetBound = (text: string): boolean => NAMES.exec(coqTrim(text))?.[2] === ':=';

/**
 * Without Coq's word: index of the last ` : ` at bracket depth 0 outside strings. A guess (a type that binds,
 * `forall n : nat, …`, has a ` : ` of its own), for a coqidetop without the plugin.
 */
const lastTopColon = (s: string): number => {
  let depth = 0;
  let inStr = false;
  let found = -1;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c === '"') inStr = !inStr;
    if (inStr) continue;
    if (c === '(' || c === '[' || c === '{') depth++;
    else if (c === ')' || c === ']' || c === '}') depth--;
    else if (c === ':' && depth === 0 && s[i - 1] === ' ' && s[i + 1] === ' ') found = i;
  }
  return found;
};

const isBlank = (c: string | undefined): boolean => c === ' ' || c === '\t' || c === '\r' || c === '\n';

/** Where `tail` starts at the end of `text`, any run of blanks equal to any other; -1 when `text` does not end with it. */
function loosely(text: string, tail: string): number {
  let i = text.length;
  let j = tail.length;
  while (j > 0) {
    if (isBlank(tail[j - 1])) {
      if (!isBlank(text[i - 1])) return -1;
      while (j > 0 && isBlank(tail[j - 1])) j--;
      while (i > 0 && isBlank(text[i - 1])) i--;
    } else {
      if (i === 0 || text[i - 1] !== tail[j - 1]) return -1;
      i--;
      j--;
    }
  }
  return i;
}

/**
 * One entry per name. `letTypes`: Coq's types of this goal's let-bound hypotheses; the type is taken from it when
 * the text ends with ` : ` and exactly that type (the text is Coq's too: the rest is the body), for every name of
 * the group alike. Otherwise (no plugin, another state's answer) the text is split at its last top-level ` : `.
 */
export const splitHyp = (text: string, letTypes?: LetTypes): SplitHyp[] => {
  const m = NAMES.exec(coqTrim(text));
  if (!m) return [{ name: '', type: coqTrim(text) }];
  const names = (m[1] ?? '').split(',').map(coqTrim);
  const rest = coqTrim(m[3] ?? '');
  if (m[2] === ':') return names.map((name) => ({ name, type: rest }));
  const known = letTypes?.get(names[0] as string);
  if (known !== undefined && known !== '' && names.every((n) => letTypes?.get(n) === known)) {
    // Layout may differ where the goal's text was left unfolded (a notation printed a lone `"` before the type).
    const at = loosely(rest, known);
    const before = at < 0 ? undefined : /^([^]*?)[ \t\r\n]+:[ \t\r\n]*$/.exec(rest.slice(0, at));
    const body = before === undefined || before === null ? '' : coqTrim(before[1] as string);
    if (body !== '') return names.map((name) => ({ name, type: known, body }));
  }
  const at = lastTopColon(rest);
  const body = at < 0 ? rest : coqTrim(rest.slice(0, at));
  const type = at < 0 ? '' : coqTrim(rest.slice(at + 1));
  return names.map((name) => ({ name, type, body }));
};

/**
 * The plugin's `Arbor_let_types.` answer: one notice per let-bound hypothesis (group) of each goal of the proof, its
 * goal's id, its names (`x, y`) and its type, one per line (the type may span lines). By goal id, then by name.
 * Undefined when a notice is not of that shape (nothing of it is used).
 */
export function readLetTypes(notices: readonly string[]): Map<string, Map<string, string>> | undefined {
  const byGoal = new Map<string, Map<string, string>>();
  for (const notice of notices) {
    const m = /^(\d+)\n([^\n]+)\n([^]+)$/.exec(notice);
    if (m === null) return undefined;
    const type = coqFlat(m[3] as string);
    const goal = byGoal.get(m[1] as string) ?? new Map<string, string>();
    for (const name of (m[2] as string).split(', ')) goal.set(name, type);
    byGoal.set(m[1] as string, goal);
  }
  return byGoal;
}
