/** `LET ?x = "t"`: later terms mention `?x`; the prover sees `(t)`. */
export function expandAbbreviations(text: string, lets: ReadonlyMap<string, string>): string {
  if (lets.size === 0 || !text.includes('?')) return text;
  return text.replace(/\?[A-Za-z_][A-Za-z0-9_']*/g, (name) => {
    const term = lets.get(name);
    return term === undefined ? name : `(${term})`;
  });
}
