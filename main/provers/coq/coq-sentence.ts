import { COQ_BLANK } from '../../../shared/protocol/coq-lexical.ts';
/**
 * Where Coq text's sentences are: Coq itself decides for any text Arbor did not write (`nextCoqSentence`,
 * through coqidetop's `Annotate`); Arbor's own prelude is split here (`splitSentences`); and the injection
 * guard for user-supplied fragments (terms, tactics, names), which must stay inside the one sentence
 * Arbor builds around them.
 */

/** A sentence ends at `.` followed by whitespace or the end, outside comments and strings. */
const isEnd = (s: string, i: number): boolean => s[i] === '.' && (i + 1 >= s.length || /\s/.test(s[i + 1] ?? ''));

/** A sentence of trusted Coq text: where it lies in the text, and its text with comments dropped. */
export interface SentenceSpan {
  /** Offset of its first character after any comments before it. */
  start: number;
  /** Offset just past its final `.` (the text's length for an unterminated remainder). */
  end: number;
  /** Trimmed, comments replaced by a blank. */
  text: string;
  /** False for a remainder that does not end with a sentence's `.`. */
  complete: boolean;
}

/**
 * Sentences of TRUSTED Coq text — Arbor's own prelude, the public developments the benchmarks read — with
 * their offsets. Never for text from anyone else: this lexer does not know everything Coq's does (strings
 * inside comments are lexed here, but not every token), so untrusted text is delimited by Coq itself (`nextCoqSentence`).
 */
/**
 * Where the comment that opens at `from` (`(*`) ends: the index after its `*)`, or the text's length when it
 * is not closed. Comments nest, and Coq lexes strings inside them: a `*)` in a string does not end one.
 */
export function commentEnd(text: string, from: number): number {
  let depth = 1;
  let i = from + 2;
  while (i < text.length && depth > 0) {
    if (text.startsWith('(*', i)) {
      depth++;
      i += 2;
    } else if (text.startsWith('*)', i)) {
      depth--;
      i += 2;
    } else if (text[i] === '"') {
      const close = text.indexOf('"', i + 1);
      i = close < 0 ? text.length : close + 1;
    } else i++;
  }
  return i;
}

export const sentenceSpans = (text: string): SentenceSpan[] => {
  const out: SentenceSpan[] = [];
  let cur = '';
  let start = 0;
  let i = 0;
  while (i < text.length) {
    if (text.startsWith('(*', i)) {
      i = commentEnd(text, i);
      // Comments before a sentence are not part of it.
      if (cur.trim() === '') start = i;
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
    // `..` (recursive notations) is a token, not a sentence's end.
    if (isEnd(text, i) && text[i - 1] !== '.') {
      const s = cur.trim();
      if (s !== '.') out.push({ start, end: i + 1, text: s, complete: true });
      cur = '';
      start = i + 1;
    }
    i++;
  }
  if (cur.trim() !== '') out.push({ start, end: text.length, text: cur.trim(), complete: false });
  return out;
};

/** Arbor's own prelude as sentences (comments dropped, each trimmed and ending in `.`). */
export const splitSentences = (text: string): string[] => sentenceSpans(text).map((s) => s.text);

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

/** One sentence as Coq delimits it: the exact text (for `Add` and the script) and Coq's pretty-print (to judge). */
export interface CoqSentence {
  /** `source.slice(start, end)`, leading blanks and comments included. */
  text: string;
  /** Coq's pretty-print: comments gone, blanks normalised. */
  pp: string;
  /** The name a tactic sentence starts with, when Coq's parse says so (see `AnnotateAnswer`). */
  tacticHead?: string;
  start: number;
  end: number;
}

/**
 * Coq's reading of a sentence: its pretty-print, and `tacticHead` when the print starts with a name Coq
 * tagged as a reference — a tactic call such as `RelInstance_t.` (commands print their own head as plain
 * keyword text, `Show.`, `Redirect "f" …`, even when an Ltac of the same name exists).
 */
export type AnnotateAnswer = { ok: true; pp: string; tacticHead?: string } | { ok: false; message: string; /** Where Coq's error ends, in bytes of the piece. */ locEnd?: number };
/** Coq's parse of the first sentence of a text (coqidetop's `Annotate`): nothing runs. */
export type Annotate = (text: string) => Promise<AnnotateAnswer>;

/** Text Coq cannot parse (the message is Coq's), or whose sentences Coq would not delimit. */
export class SentenceParseError extends Error {}

/** Characters sent to Coq while looking for one sentence's end: past this, the text is refused, not searched. */
const MAX_TRIED = 16 << 20;
/** A piece asked ahead of need is at most this long (a wasted guess costs Coq little). */
const ASK_AHEAD_MAX = 64 << 10;
const UTF8 = new TextEncoder();
// Coq's blanks and names: one reading, shared with the protocol's `.v` conversion.
export { COQ_BLANK, COQ_NAME, coqFlat, coqTrim, NAME_PART, NAME_START } from '../../../shared/protocol/coq-lexical.ts';
/** Only Coq's layout blanks (a no-break space is part of a name). */
const ONLY_BLANKS = new RegExp(`^[${COQ_BLANK}]*$`);
const BULLET = /[-+*{}]/;
/** After a bullet or brace, a character that cannot continue a symbol token (`->`, `{|`, `*)`…). */
const AFTER_BULLET = /[\s\p{L}\p{N}_]/u;

/**
 * Positions right after a `.` that ends a sentence if it is not in a comment or string: followed by a blank or
 * the end, not the second dot of `..`; the third dot of `...` (the end that runs `Proof with`'s tactic) is one.
 */
function* dotEnds(text: string, from: number, to = text.length): Generator<number> {
  for (let k = from + 1; k <= to; k++) {
    const ellipsis = text[k - 2] === '.' && text[k - 3] === '.' && text[k - 4] !== '.' && k - 3 >= from;
    if (text[k - 1] === '.' && (text[k - 2] !== '.' || ellipsis) && (k === text.length || /\s/.test(text[k] ?? ''))) yield k;
  }
}

/**
 * A generator's values, read only as far as asked: every dot to the end of the file, listed for each
 * sentence, made reading quadratic (a 950 KB file of 40,000 definitions: 595 sentences in 15 s).
 */
function lazily(values: Iterator<number>): { at(i: number): number | undefined; clamp(i: number): number } {
  const seen: number[] = [];
  let done = false;
  const upTo = (i: number): void => {
    while (!done && seen.length <= i) {
      const n = values.next();
      if (n.done === true) done = true;
      else seen.push(n.value);
    }
  };
  return {
    at: (i) => (upTo(i), seen[i]),
    /** `i`, or the last index when there are fewer values. */
    clamp: (i) => (upTo(i), Math.min(i, seen.length - 1)),
  };
}

/** Positions right after a bullet or brace not followed by another symbol character (`->`, `{|`, `*)` are other tokens). */
function* bulletEnds(text: string, from: number, to: number): Generator<number> {
  for (let k = from + 1; k <= to; k++) {
    const next = text[k];
    if (BULLET.test(text[k - 1] as string) && (next === undefined || AFTER_BULLET.test(next))) yield k;
  }
}

/** Sends pieces to Coq, refusing to search past MAX_TRIED characters for one sentence. */
function budgeted(annotate: Annotate): Annotate & { charge(length: number): void } {
  let tried = 0;
  const charge = (length: number): void => {
    tried += length;
    if (tried > MAX_TRIED) throw new SentenceParseError('parse error: sentence too long to delimit');
  };
  return Object.assign((piece: string) => {
    charge(piece.length);
    return annotate(piece);
  }, { charge });
}

/**
 * The first sentence of `text` from `from` on, as Coq delimits it at its current parser state, or
 * undefined when only blanks and comments are left. The end is the first candidate end k where Coq parses
 * `text[from..k]` to a sentence but not `text[from..k-1]` to the same one: Coq's lexer reads left to
 * right, so a prefix that holds a whole sentence holds Coq's first sentence of the whole text, and the
 * second parse proves the sentence ends exactly at k (nothing is left over that `Add` would silently
 * drop while the script keeps it). Candidates are the dots that can end a sentence; when Coq's sentence
 * ends before such a dot, it is a bullet or a brace, found among the bullet characters before it.
 * Strings inside comments, nested comments, `..` and notations are Coq's business: an end inside a
 * comment or string is a lexer error, never a sentence.
 */
export async function nextCoqSentence(text: string, from: number, annotate: Annotate): Promise<CoqSentence | undefined> {
  // Only Coq's blanks left: no sentence, and nothing to ask (anything else, comments included, is Coq's to read).
  if (ONLY_BLANKS.test(text.slice(from))) return undefined;
  const charged = budgeted(annotate);
  // Each piece is asked once; a piece asked ahead (below) is charged to the budget only when its answer is used.
  const answers = new Map<number, Promise<AnnotateAnswer>>();
  const ask = (end: number): Promise<AnnotateAnswer> => {
    const ahead = answers.get(end);
    if (ahead !== undefined) {
      answers.delete(end);
      charged.charge(end - from);
      return ahead;
    }
    return charged(text.slice(from, end));
  };
  const askAhead = (end: number): void => {
    if (end - from > ASK_AHEAD_MAX || answers.has(end)) return;
    const answer = annotate(text.slice(from, end));
    answer.catch(() => undefined); // read (or dropped) later; a failure here is the caller's only if used
    answers.set(end, answer);
  };
  /** The sentence ends exactly at `end` (else: where Coq's reading of the piece ends is not `end`). */
  const endsAt = async (end: number, known?: { pp: string; tacticHead?: string }): Promise<CoqSentence | 'before' | undefined> => {
    const piece = text.slice(from, end);
    const r = known ?? (await ask(end));
    if (!('pp' in r) || r.pp === '') return undefined;
    const shorter = await ask(end - 1);
    if (shorter.ok && shorter.pp === r.pp) return 'before';
    return { text: piece, pp: r.pp, ...(r.tacticHead !== undefined ? { tacticHead: r.tacticHead } : {}), start: from, end };
  };
  const bullet = async (to: number): Promise<CoqSentence> => {
    for (const end of bulletEnds(text, from, to)) {
      const s = await endsAt(end);
      if (s !== undefined && s !== 'before') return s;
    }
    throw new SentenceParseError(`parse error: Coq's sentence ends where Arbor cannot tell (${text.slice(from, to).trim().slice(0, 60)})`);
  };
  // Coq parses text[from..k] to a sentence exactly when k is at or past the sentence's end (before it, the
  // piece ends inside a comment or string: a lexer error), so the first such dot is found by galloping
  // over the dots, then bisecting: a few pieces per sentence, however many dots comments hold.
  const dots = lazily(dotEnds(text, from));
  const parses = async (i: number): Promise<{ ok: true; pp: string; tacticHead?: string } | undefined> => {
    const end = dots.at(i) as number;
    // Most texts' first sentence ends at their first dot: the piece one character shorter, which proves it
    // ends exactly there, goes in the same exchange.
    if (i === 0) askAhead(end - 1);
    const r = await ask(end);
    if (r.ok) return r.pp === '' ? undefined : r;
    // A parser (not lexer) error at a dot outside comments and strings stays an error in any longer text,
    // unless Coq's error lies past the piece's end: the piece stopped inside a token or a notation
    // (`[ 1 |. ]` cut at `|.`), and a longer piece may parse.
    const pastEnd = r.locEnd !== undefined && r.locEnd > UTF8.encode(text.slice(from, end)).length;
    if (!/Lexer:/.test(r.message) && !pastEnd) throw new SentenceParseError(`parse error: ${r.message}`);
    return undefined;
  };
  let below = -1;
  let found: { at: number; pp: string; tacticHead?: string } | undefined;
  for (let step = 1, i = 0; dots.at(i) !== undefined; step *= 2, i = dots.clamp(below + step)) {
    const r = await parses(i);
    if (r) {
      found = { ...r, at: i };
      break;
    }
    below = i;
    if (dots.at(i + 1) === undefined) break;
  }
  if (found) {
    let [lo, hi] = [below, found.at];
    while (hi - lo > 1) {
      const mid = (lo + hi) >> 1;
      const r = await parses(mid);
      if (r) [hi, found] = [mid, { ...r, at: mid }];
      else lo = mid;
    }
    const end = dots.at(found.at) as number;
    const s = await endsAt(end, found);
    if (s === 'before') return bullet(end);
    if (s !== undefined) return s;
  }
  const rest = await ask(text.length);
  if (!rest.ok) throw new SentenceParseError(`parse error: ${rest.message}`);
  if (rest.pp === '') return undefined;
  if (!rest.pp.endsWith('.')) return bullet(text.length);
  throw new SentenceParseError(`parse error: sentence does not end with "." (${rest.pp.slice(0, 60)})`);
}
