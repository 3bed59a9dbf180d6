import { COQ_BLANK, COQ_NAME, coqTrim } from './coq-sentence.ts';

/**
 * coqidetop prints hypotheses grouped and let-bound (`n, m : nat`, `x := 3 : nat`); Arbor wants one entry
 * per name. Pure text surgery on the pretty-printed form.
 */
export interface SplitHyp {
  name: string;
  /** The hypothesis' type (for a let-bound name, the type after the body). */
  type: string;
  /** The body of a let-bound name. */
  body?: string;
}

/** Names read as Coq's lexer reads them (coq-sentence.ts): `H x` (a no-break space inside) is one hypothesis. */
const B = `[${COQ_BLANK}]`;
const NAMES = new RegExp(`^(${COQ_NAME}(?:${B}*,${B}*${COQ_NAME})*)${B}*(:=|:)${B}*([^]*)$`);

/** Index of the last ` : ` at bracket depth 0 outside strings (separates a let body from its type). */
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

export const splitHyp = (text: string): SplitHyp[] => {
  const m = NAMES.exec(coqTrim(text));
  if (!m) return [{ name: '', type: coqTrim(text) }];
  const names = (m[1] ?? '').split(',').map(coqTrim);
  const rest = coqTrim(m[3] ?? '');
  if (m[2] === ':') return names.map((name) => ({ name, type: rest }));
  const at = lastTopColon(rest);
  const body = at < 0 ? rest : coqTrim(rest.slice(0, at));
  const type = at < 0 ? '' : coqTrim(rest.slice(at + 1));
  return names.map((name) => ({ name, type, body }));
};
