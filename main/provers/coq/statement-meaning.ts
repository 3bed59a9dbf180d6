import type { StatementMeaning } from '../../../shared/protocol/statement-meaning.ts';
import { toCoqText, toSexp, type CoqTerm } from './coq-sexp.ts';

/**
 * What a statement means (issue 21): the term Coq elaborated from its text (notations unfolded, coercions
 * and implicit arguments explicit — `Set Printing All`), every global name resolved to its kernel name.
 * Compared with the same text read in a clean environment (standard library and Arbor's prelude only), it
 * says whether the document gave the words another meaning, and where, in plain words. Pure.
 */
export interface Reading {
  /** As Coq printed it under `Set Printing All` (the fallback when it does not parse). */
  printed: string;
  term: CoqTerm | undefined;
  /** Printed name → kernel name (`Locate`), in the environment that printed it. */
  full: ReadonlyMap<string, string>;
}

const EMPTY = new Set<string>();
const resolver = (r: Reading) => (n: string): string => r.full.get(n) ?? n;
/** The reading as fully qualified Coq text. */
export const qualified = (r: Reading): string => (r.term ? toCoqText(r.term, resolver(r)) : r.printed.replace(/\s+/g, ' ').trim());
/** Alpha-invariant identity of a reading (de Bruijn indices, kernel names). */
const identity = (r: Reading): string => (r.term ? toSexp(r.term, EMPTY, resolver(r)) : qualified(r));

/** Kernel names the document itself declared: outside the library's and Hammer's logical roots. */
const isDocumentName = (full: string): boolean => !/^(Coq|Hammer)\./.test(full);

const sexp = (t: CoqTerm, r: Reading): string => toSexp(t, EMPTY, resolver(r));
const text = (t: CoqTerm, r: Reading): string => toCoqText(t, resolver(r));

/**
 * The smallest places where two readings differ: descend while both are applications of the same head
 * and arity with exactly one differing argument; report the pair there. Binders are compared under their
 * bodies only when their types agree (bound names then print the same way on both sides).
 */
const differingParts = (a: CoqTerm, ra: Reading, b: CoqTerm, rb: Reading): [string, string][] => {
  if (sexp(a, ra) === sexp(b, rb)) return [];
  if (a.k === 'app' && b.k === 'app' && a.args.length === b.args.length && sexp(a.f, ra) === sexp(b.f, rb)) {
    const diffs = a.args.map((x, i) => [x, b.args[i] as CoqTerm] as const).filter(([x, y]) => sexp(x, ra) !== sexp(y, rb));
    if (diffs.length === 1) return differingParts(diffs[0]![0], ra, diffs[0]![1], rb);
  }
  if (a.k === 'bind' && b.k === 'bind' && a.q === b.q) {
    if (sexp(a.type, ra) !== sexp(b.type, rb)) return differingParts(a.type, ra, b.type, rb);
    return differingParts(a.body, ra, b.body, rb);
  }
  return [[text(a, ra), text(b, rb)]];
};

const nonAscii = (s: string): string[] => [...new Set([...s].filter((c) => c.charCodeAt(0) > 127))].map((c) => `U+${(c.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`);

/** Plain-words notes on the document's own names a reading uses (`true` is the document's own `Top.true`). */
const documentNames = (doc: Reading, clean: { full: ReadonlyMap<string, string> } | undefined): string[] => {
  const notes: string[] = [];
  for (const [shown, full] of doc.full) {
    if (!isDocumentName(full)) continue;
    const elsewhere = clean?.full.get(shown);
    const odd = nonAscii(shown);
    let note = `\`${shown}\` is the document's own \`${full}\``;
    if (elsewhere !== undefined && elsewhere !== full) note += `, not \`${elsewhere}\``;
    if (odd.length > 0) note += ` (its name has non-ASCII characters ${odd.join(', ')}: it may look like another name)`;
    notes.push(note);
  }
  return notes;
};

/**
 * The meaning to show when the statement's elaborated form differs from its clean reading, or undefined
 * when they are the same term. `clean` is an error message when the text does not elaborate there at all
 * (with what the document's names would mean there, when known).
 */
export function compareReadings(doc: Reading, clean: Reading | { error: string; full?: ReadonlyMap<string, string> }): StatementMeaning | undefined {
  const elaborated = qualified(doc);
  if ('error' in clean) {
    return {
      elaborated,
      clean: null,
      differences: [`in a clean environment (standard library and Arbor's prelude only) the text does not elaborate: ${clean.error}`, ...documentNames(doc, clean.full ? { full: clean.full } : undefined)],
    };
  }
  if (!doc.term || !clean.term) {
    // Unparsed, names stay as printed (shortest names: `False` may be the document's own): never call that the same.
    return { elaborated, clean: qualified(clean), differences: ['Arbor could not read the elaborated statement term by term, so it could not tell whether it means what its text says: compare the two readings'] };
  }
  if (identity(doc) === identity(clean)) return undefined;
  const parts = doc.term && clean.term ? differingParts(doc.term, doc, clean.term, clean) : [[elaborated, qualified(clean)] as [string, string]];
  const differences = parts.map(([here, there]) => `here \`${here}\` stands where a clean reading has \`${there}\``);
  return { elaborated, clean: qualified(clean), differences: [...differences, ...documentNames(doc, clean)] };
}
