import type { StatementSyntax } from './statement-term.ts';

export type TokenKind = 'ident' | 'num' | 'sym' | 'eof';

export interface Token {
  kind: TokenKind;
  /** Canonical spelling: ASCII notation is mapped to Unicode here, so S0's notation rule lives in one table. */
  text: string;
  pos: number;
}

/** ASCII and alternative spellings → canonical symbol. Longest match first (the lexer sorts by length). */
const commonSymbols: Record<string, string> = {
  '<->': '↔', '->': '→', '<=': '≤', '>=': '≥', '/\\': '∧', '\\/': '∨', '!=': '≠',
  '=>': '=>', '::': '::', '++': '++', ':=': ':=',
  '↔': '↔', '→': '→', '≤': '≤', '≥': '≥', '∧': '∧', '∨': '∨', '≠': '≠', '¬': '¬', '∀': '∀', '∃': '∃', 'λ': 'λ',
  '⟶': '→', '⇔': '↔', '∣': '∣', '↦': '=>',
  '(': '(', ')': ')', '[': '[', ']': ']', '{': '{', '}': '}', ',': ',', ':': ':', ';': ';',
  '=': '=', '<': '<', '>': '>', '+': '+', '-': '-', '*': '*', '/': '/', '^': '^', '%': '%', '|': '|', '.': '.',
};
const coqSymbols: Record<string, string> = { ...commonSymbols, '<>': '≠', '~': '¬' };
const leanSymbols: Record<string, string> = { ...commonSymbols, '<>': '≠', '¬': '¬' };

/** Keywords with an ASCII and a Unicode spelling. */
const keywordMap: Record<string, string> = { forall: '∀', exists: '∃', fun: 'λ' };
/** Lean's `Nat`/`Int` are the same constants as `ℕ`/`ℤ` (notation), so S0 may identify them. */
const leanIdentMap: Record<string, string> = { Nat: 'ℕ', Int: 'ℤ', Rat: 'ℚ', Real: 'ℝ' };

const isIdentStart = (c: string): boolean => /[\p{L}_]/u.test(c) && !'λ∀∃¬'.includes(c);
const isIdentPart = (c: string): boolean => /[\p{L}\p{N}_'₀-₉!?]/u.test(c) && !'λ∀∃¬'.includes(c);

export class LexError extends Error {}

export function tokenize(src: string, syntax: StatementSyntax): Token[] {
  const table = syntax === 'coq' ? coqSymbols : leanSymbols;
  const symbols = Object.keys(table).sort((a, b) => b.length - a.length);
  const out: Token[] = [];
  let i = 0;
  while (i < src.length) {
    const c = src[i] as string;
    if (/\s/u.test(c)) { i++; continue; }
    if (/[0-9]/.test(c)) {
      let j = i;
      while (j < src.length && /[0-9]/.test(src[j] as string)) j++;
      out.push({ kind: 'num', text: src.slice(i, j), pos: i });
      i = j;
      continue;
    }
    if (isIdentStart(c)) {
      let j = i + 1;
      // Qualified names (`Nat.add`, `List.length`) are one identifier: a dot directly followed by a letter.
      for (;;) {
        while (j < src.length && isIdentPart(src[j] as string)) j++;
        if (src[j] === '.' && j + 1 < src.length && isIdentStart(src[j + 1] as string)) { j++; continue; }
        break;
      }
      let word = src.slice(i, j);
      // `!` is an identifier character only in Lean's `∃!`-free fragment when trailing; keep `!=` an operator.
      if (word.endsWith('!') && src[j] === '=') { word = word.slice(0, -1); j--; }
      const kw = keywordMap[word];
      if (kw) out.push({ kind: 'sym', text: kw, pos: i });
      else if (word === 'mod') out.push({ kind: 'sym', text: 'mod', pos: i });
      else out.push({ kind: 'ident', text: syntax === 'lean' ? (leanIdentMap[word] ?? word) : word, pos: i });
      i = j;
      continue;
    }
    const sym = symbols.find((s) => src.startsWith(s, i));
    if (!sym) throw new LexError(`unexpected character '${c}' at ${i}`);
    out.push({ kind: 'sym', text: table[sym] as string, pos: i });
    i += sym.length;
  }
  out.push({ kind: 'eof', text: '', pos: src.length });
  return out;
}
