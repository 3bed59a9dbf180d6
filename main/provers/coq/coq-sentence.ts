/**
 * Sentence-level lexing of Coq text: splitting trusted vernacular (the preludes) into sentences, and the
 * injection guard for user-supplied fragments (terms, tactics, names), which must stay inside the one
 * sentence Arbor builds around them.
 */

/** A sentence ends at `.` followed by whitespace or the end, outside comments and strings. */
const isEnd = (s: string, i: number): boolean => s[i] === '.' && (i + 1 >= s.length || /\s/.test(s[i + 1] ?? ''));

/** Splits vernacular into sentences (comments dropped, each sentence trimmed and ending in `.`). */
export const splitSentences = (text: string): string[] => {
  const out: string[] = [];
  let cur = '';
  let i = 0;
  while (i < text.length) {
    if (text.startsWith('(*', i)) {
      let depth = 1;
      i += 2;
      while (i < text.length && depth > 0) {
        if (text.startsWith('(*', i)) {
          depth++;
          i += 2;
        } else if (text.startsWith('*)', i)) {
          depth--;
          i += 2;
        } else i++;
      }
      cur += ' ';
      continue;
    }
    const c = text[i] as string;
    if (c === '"') {
      const close = text.indexOf('"', i + 1);
      const end = close < 0 ? text.length : close + 1;
      cur += text.slice(i, end);
      i = end;
      continue;
    }
    cur += c;
    if (isEnd(text, i)) {
      const s = cur.trim();
      if (s !== '.') out.push(s);
      cur = '';
    }
    i++;
  }
  if (cur.trim() !== '') out.push(cur.trim());
  return out;
};

const PAIRS: Record<string, string> = { ')': '(', ']': '[', '}': '{' };

/**
 * Why `fragment` could escape the sentence it is embedded in, or undefined when it is safe: line breaks,
 * comment delimiters, a sentence-ending `.`, unbalanced brackets or quotes. Strings (`"…"`, with `""` as
 * an escaped quote) may contain anything but line breaks.
 */
export const fragmentProblem = (fragment: string): string | undefined => {
  if (/[\r\n]/.test(fragment)) return 'line break';
  if (fragment.trim() === '') return 'empty';
  // Embedded as `(FRAGMENT)`: a leading `*` would open a comment with our `(`, a trailing one close one.
  if (/^\s*\*|\*\s*$/.test(fragment)) return "leading or trailing '*'";
  const stack: string[] = [];
  for (let i = 0; i < fragment.length; i++) {
    const c = fragment[i] as string;
    if (c === '"') {
      const close = fragment.indexOf('"', i + 1);
      if (close < 0) return 'unterminated string';
      i = close;
      continue;
    }
    if (fragment.startsWith('(*', i) || fragment.startsWith('*)', i)) return 'comment delimiter';
    if (isEnd(fragment, i)) return "'.' ends the sentence";
    if (c === '(' || c === '[' || c === '{') stack.push(c);
    else if (c in PAIRS) {
      if (stack.pop() !== PAIRS[c]) return `unbalanced '${c}'`;
    }
  }
  if (stack.length > 0) return `unclosed '${stack.at(-1) ?? ''}'`;
  return undefined;
};

const IDENT = /^[\p{L}_][\p{L}\p{N}_']*$/u;

export const isIdent = (s: string): boolean => IDENT.test(s) && !['_', 'forall', 'fun', 'exists', 'let', 'in', 'match', 'end', 'as', 'return', 'with', 'if', 'then', 'else', 'fix', 'cofix', 'Type', 'Prop', 'Set', 'SProp'].includes(s);
