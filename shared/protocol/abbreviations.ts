/** A term after `LET` expansion may be at most this long: 26 doubling LETs of 30 bytes would otherwise make a gigabyte. */
export const MAX_EXPANDED_TERM = 64 * 1024;

/** Thrown when an expansion would pass MAX_EXPANDED_TERM; its message is the protocol's ERR. */
export class TermTooLarge extends Error {
  constructor(length: number) {
    super(`parse error: term too large (more than ${MAX_EXPANDED_TERM} characters after LET expansion${length > 0 ? `: ${length}` : ''})`);
  }
}

/**
 * `LET ?x = "t"`: later terms mention `?x`; the prover sees `(t)`. The result's size is computed before it
 * is built, so a hostile chain of abbreviations costs nothing but its refusal.
 */
export function expandAbbreviations(text: string, lets: { get(name: string): string | undefined; readonly size: number }): string {
  if (lets.size === 0 || !text.includes('?')) {
    if (text.length > MAX_EXPANDED_TERM) throw new TermTooLarge(text.length);
    return text;
  }
  const pattern = /\?[A-Za-z_][A-Za-z0-9_']*/g;
  let length = text.length;
  for (const m of text.matchAll(pattern)) {
    const term = lets.get(m[0]);
    if (term !== undefined) length += term.length + 2 - m[0].length;
    if (length > MAX_EXPANDED_TERM) throw new TermTooLarge(length);
  }
  if (length > MAX_EXPANDED_TERM) throw new TermTooLarge(length);
  return text.replace(pattern, (name) => {
    const term = lets.get(name);
    return term === undefined ? name : `(${term})`;
  });
}
