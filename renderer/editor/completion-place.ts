/**
 * What completion should offer at a point of a line, from the text before it: a command where one goes
 * (the start of a line or after a top-level `;`, optionally after a channel number), else names — the
 * hypotheses and lemmas a tactic argument (`APPLY (simpl; |`, `RULE |`) can use. A `;` inside parentheses,
 * brackets or quotes separates tactics, not requests, so it never makes a command position.
 */
export type CompletionPlace = 'command' | 'names' | 'none';

export function completionPlace(before: string): CompletionPlace {
  let depth = 0;
  let quote: '"' | '‹' | undefined;
  let segment = 0;
  for (let i = 0; i < before.length; i++) {
    const c = before[i] as string;
    if (quote) {
      if (quote === '"' && c === '\\') i++;
      else if ((quote === '"' && c === '"') || (quote === '‹' && c === '›')) quote = undefined;
      continue;
    }
    if (c === '"' || c === '‹') quote = c;
    else if (c === '(' || c === '[' || c === '{') depth++;
    else if ((c === ')' || c === ']' || c === '}') && depth > 0) depth--;
    else if (c === ';' && depth === 0) segment = i + 1;
  }
  // Inside a quoted statement the user writes a term; names help there too, commands never.
  if (quote) return 'names';
  if (depth > 0) return 'names';
  const rest = before.slice(segment);
  if (/^\s*$/.test(rest) || /^\s*[0-9]+\s+$/.test(rest)) return 'command';
  if (/^\s*\/\//.test(before)) return 'none';
  return 'names';
}
