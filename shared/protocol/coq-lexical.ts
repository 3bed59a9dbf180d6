/**
 * Coq's lexical classes as Arbor reads Coq text (Coq 8.16's lexer, `clexer.ml` and `unicode.ml`): pure, so the
 * protocol's `.v` conversion (shared) and the Coq session (main) read names and blanks the same way.
 */

/**
 * Coq's layout blanks, as a character class body: what its lexer skips between tokens (`next_token`: space, tab,
 * CR, LF — not a form feed, which is a lexer error, and not a no-break space, which is part of a name).
 * JavaScript's `\s` and `trim` take more (U+00A0, U+2009, U+3000, U+FEFF…).
 */
export const COQ_BLANK = ' \\t\\r\\n';
/**
 * The one reading of a Coq name's characters, as character class bodies for regular expressions without the
 * `u` flag: a name starts with an ASCII letter, `_` or any non-ASCII character and goes on with ASCII letters,
 * digits, `_`, `'` and any non-ASCII character. Coq's lexer (Unicode.classify) takes letters, the no-break space
 * and `_` to start a name, and digits and `'` besides to go on; every non-ASCII character is read as a name's
 * here, since where Arbor reads names (Coq's own prints) a symbol or unknown character is never inside one.
 * A character past U+FFFF is two UTF-16 units, both in range.
 */
export const NAME_START = 'A-Za-z_\\u0080-\\uFFFF';
export const NAME_PART = "\\w'\\u0080-\\uFFFF";
/** A Coq name (regular-expression source, no `u` flag): `and P`, `x'`, `𝔸1`. */
export const COQ_NAME = `[${NAME_START}][${NAME_PART}]*`;

const EDGE_BLANKS = new RegExp(`^[${COQ_BLANK}]+|[${COQ_BLANK}]+$`, 'g');
const BLANK_RUNS = new RegExp(`[${COQ_BLANK}]+`, 'g');
/** Splits text into outside / string literal / outside …: the capture group keeps each literal (quotes included). */
const STRING_LITERALS = /("(?:[^"]|"")*"?)/;

/**
 * `trim` of Coq's layout blanks only. JavaScript's `trim` and `\s` also take the no-break space, which Coq's
 * lexer reads as part of a name (`x `, ` x`): trimming it would answer for another name.
 */
export const coqTrim = (text: string): string => text.replace(EDGE_BLANKS, '');

/**
 * Coq text on one line: each run of Coq's blanks one space, none at the ends; every other character kept (`and P`
 * stays one name), and a string literal kept as written (`"a  b"` is not `"a b"`). Coq's lexer reads `"` as a
 * string's start in comments too, and `""` inside a string as one quote: read alike here.
 */
export const coqFlat = (text: string): string => coqTrim(text.split(STRING_LITERALS).map((part, i) => (i % 2 === 1 ? part : part.replace(BLANK_RUNS, ' '))).join(''));
