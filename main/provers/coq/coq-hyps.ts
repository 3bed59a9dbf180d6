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

const NAMES = /^([\p{L}_][\p{L}\p{N}_']*(?:\s*,\s*[\p{L}_][\p{L}\p{N}_']*)*)\s*(:=|:)\s*([\s\S]*)$/u;

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
  const m = NAMES.exec(text.trim());
  if (!m) return [{ name: '', type: text.trim() }];
  const names = (m[1] ?? '').split(',').map((n) => n.trim());
  const rest = (m[3] ?? '').trim();
  if (m[2] === ':') return names.map((name) => ({ name, type: rest }));
  const at = lastTopColon(rest);
  const body = at < 0 ? rest : rest.slice(0, at).trim();
  const type = at < 0 ? '' : rest.slice(at + 1).trim();
  return names.map((name) => ({ name, type, body }));
};
