/**
 * Splits one line into requests on `;` outside double-quoted strings, cartouches (`\<open>…\<close>`,
 * `‹…›`) and brackets (`()`, `[]`, `{}`), as BRIEF §3 rules. A segment left inside an unclosed quote,
 * cartouche or bracket at the end of the line is still a request, marked with the parse error.
 */
export interface RawRequest {
  text: string;
  /** Set when the segment cannot be a well-formed request whatever its command. */
  error?: string;
}

import { coqTrim } from './coq-lexical.ts';

const OPEN_CARTOUCHE = '\\<open>';
const CLOSE_CARTOUCHE = '\\<close>';
const CLOSERS: Record<string, string> = { ')': '(', ']': '[', '}': '{' };

export function splitRequests(line: string): RawRequest[] {
  // A whole line starting with `//` is a comment (as in the seed's examples): no request, no response.
  if (/^\s*\/\//.test(line)) return [];
  const requests: RawRequest[] = [];
  const brackets: string[] = [];
  let inString = false;
  let cartoucheDepth = 0;
  let mismatch: string | undefined;
  let start = 0;

  const finish = (end: number, error?: string): void => {
    // Coq's blanks only: a no-break space ending a request is part of its last name (`APPLY intros h h\u00a0`).
    const text = coqTrim(line.slice(start, end));
    if (text !== '' || error) requests.push(error ? { text, error } : { text });
  };

  for (let i = 0; i < line.length; i++) {
    const c = line[i] as string;
    if (inString) {
      if (c === '\\' && line[i + 1] === '"') i++;
      else if (c === '"') inString = false;
      continue;
    }
    if (line.startsWith(OPEN_CARTOUCHE, i)) {
      cartoucheDepth++;
      i += OPEN_CARTOUCHE.length - 1;
      continue;
    }
    if (c === '‹') {
      cartoucheDepth++;
      continue;
    }
    if (cartoucheDepth > 0) {
      if (line.startsWith(CLOSE_CARTOUCHE, i)) {
        cartoucheDepth--;
        i += CLOSE_CARTOUCHE.length - 1;
      } else if (c === '›') {
        cartoucheDepth--;
      }
      continue;
    }
    if (c === '"') inString = true;
    else if (c === '(' || c === '[' || c === '{') brackets.push(c);
    else if (c === ')' || c === ']' || c === '}') {
      if (brackets[brackets.length - 1] === CLOSERS[c]) brackets.pop();
      else mismatch ??= `parse error: unbalanced '${c}'`;
    } else if (c === ';' && brackets.length === 0) {
      finish(i, mismatch);
      mismatch = undefined;
      start = i + 1;
    }
  }

  let error = mismatch;
  if (inString) error = 'parse error: unclosed quote';
  else if (cartoucheDepth > 0) error = 'parse error: unclosed cartouche';
  else if (brackets.length > 0) error = `parse error: unclosed '${brackets[brackets.length - 1]}'`;
  finish(line.length, error);
  return requests;
}
