import { LexError, tokenize } from './statement-lexer.ts';
import { ParseError, parseStatement } from './statement-parser.ts';
import { printCanonical } from './statement-printer.ts';
import type { StatementSyntax, Term } from './statement-term.ts';

export interface S0Result {
  /** The canonical text; compared as a string by the S0 tier. */
  text: string;
  /** The parsed tree, when the statement is inside the supported fragment. */
  term: Term | null;
  /** Why the statement could not be parsed (S0 then falls back to token-level normalisation). */
  parseError?: string;
}

/**
 * S0: whitespace, ASCII/Unicode notation, binder groups, operator spacing and redundant parentheses —
 * all by parsing and printing the tree canonically. Outside the fragment, S0 degrades to the token
 * stream (notation and spacing still canonical; parentheses kept), never to a regex on the raw text.
 */
export function normaliseS0(src: string, syntax: StatementSyntax): S0Result {
  try {
    const term = parseStatement(src, syntax);
    return { text: printCanonical(term, syntax), term };
  } catch (e) {
    if (!(e instanceof ParseError) && !(e instanceof LexError)) throw e;
    let text: string;
    try {
      text = tokenize(src, syntax).filter((t) => t.kind !== 'eof').map((t) => t.text).join(' ');
    } catch {
      text = src.trim().replace(/\s+/gu, ' ');
    }
    return { text, term: null, parseError: e.message };
  }
}
