import type { StatementMeaning } from '../../../shared/protocol/statement-meaning.ts';
import { toCoqText, toSexp, type CoqTerm } from './coq-sexp.ts';
import { COQ_BLANK, coqTrim } from './coq-sentence.ts';

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
  /**
   * The term itself from Arbor's plugin (`Arbor_statement`: canonical kernel names, de Bruijn indices): when both
   * readings have it, it alone says whether they are the same term; the printed text only explains a difference.
   */
  kernel?: string;
  /** Every global of the kernel term, by the name the printer gives it (the plugin's, where it vouches for it). */
  globals?: ReadonlyMap<string, string>;
}

const EMPTY = new Set<string>();
const resolver = (r: Reading) => (n: string): string => r.full.get(n) ?? n;
/** The reading as fully qualified Coq text. */
// Coq's blanks only: a no-break space is part of a name (`f\u00a0g` is not `f g`).
const COQ_BLANK_RUNS = new RegExp(`[${COQ_BLANK}]+`, 'g');
export const qualified = (r: Reading): string => (r.term ? toCoqText(r.term, resolver(r)) : coqTrim(r.printed.replace(COQ_BLANK_RUNS, ' ')));
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

/** A kernel text without what it says about the term's universe levels (`(universes (eq 0 2) …)` at its end). */
const termOnly = (kernel: string): string => kernel.replace(/ \(universes( \((?:eq|lt|le) \d+ \d+\))+\)$/, '');
const universes = (kernel: string): string => / \(universes (.*)\)$/.exec(kernel)?.[1] ?? 'no relation between them';

/** Whether a `Type` sort occurs in the term (as a word: a sort is never a bound or global name). */
const mentionsType = (t: CoqTerm): boolean => /(^|[\s(])Type($|[\s)@])/.test(toCoqText(t, (n) => n));

const nonAscii = (s: string): string[] => [...new Set([...s].filter((c) => c.charCodeAt(0) > 127))].map((c) => `U+${(c.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`);

/**
 * Plain-words notes on the names a reading uses that are neither Coq's nor CoqHammer's (`true` is the document's own
 * `Top.true`): a trusted project's compiled library's names (`PLF.Imp.aeval`, under one of its logical roots
 * `libraries`) are said to be the project library's, not the document's.
 */
const documentNames = (doc: Reading, clean: { full: ReadonlyMap<string, string> } | undefined, libraries: readonly string[]): string[] => {
  const notes: string[] = [];
  for (const [shown, full] of doc.full) {
    if (!isDocumentName(full)) continue;
    const elsewhere = clean?.full.get(shown);
    const odd = nonAscii(shown);
    // The document's own are `Top.…`, whatever a project calls its libraries.
    const project = !full.startsWith('Top.') && libraries.some((root) => full.startsWith(`${root}.`));
    let note = project ? `\`${shown}\` is the project library's \`${full}\`` : `\`${shown}\` is the document's own \`${full}\``;
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
export function compareReadings(doc: Reading, clean: Reading | { error: string; full?: ReadonlyMap<string, string> }, libraries: readonly string[] = []): StatementMeaning | undefined {
  const elaborated = qualified(doc);
  if ('error' in clean) {
    return {
      elaborated,
      clean: null,
      differences: [`in a clean environment (standard library and Arbor's prelude only) the text does not elaborate: ${clean.error}`, ...documentNames(doc, clean.full ? { full: clean.full } : undefined, libraries)],
    };
  }
  const byKernel = doc.kernel !== undefined && clean.kernel !== undefined;
  // The kernel's own terms decide when both readings have them: no printing depth, name spelling or term the
  // reader cannot parse (a cast, a `fix`) makes two different terms look alike, or two same ones look different.
  if (byKernel && doc.kernel === clean.kernel) return undefined;
  if (!doc.term || !clean.term) {
    // Unparsed, names stay as printed (shortest names: `False` may be the document's own): never call that the same.
    const unread = byKernel ? 'the two terms differ; Arbor could not read them term by term to say where: compare the two readings' : 'Arbor could not read the elaborated statement term by term, so it could not tell whether it means what its text says: compare the two readings';
    return { elaborated, clean: qualified(clean), differences: [unread, ...(byKernel ? documentNames(doc, clean, libraries) : [])] };
  }
  if (!byKernel && identity(doc) === identity(clean)) {
    // Printed text shows no universe level: a proof may have tied the statement's `Type`s (`Type <> Type` proved with
    // both the same level), which only the plugin's kernel term shows. Without it, such a statement is not vouched for.
    if (!mentionsType(doc.term)) return undefined;
    return { elaborated, clean: qualified(clean), differences: ["the statement mentions `Type`, whose universe levels only Arbor's Coq plugin compares, and it is not loaded here: how the proof tied them was not checked"] };
  }
  const parts = identity(doc) === identity(clean) ? [] : differingParts(doc.term, doc, clean.term, clean);
  const differences = parts.map(([here, there]) => `here \`${here}\` stands where a clean reading has \`${there}\``);
  // Printed alike, different terms: the difference is in what the printed text does not show.
  if (differences.length === 0) differences.push(byKernel && termOnly(doc.kernel as string) === termOnly(clean.kernel as string)
    ? `the proof tied the statement's universe levels (${universes(doc.kernel as string)}, where a clean reading has ${universes(clean.kernel as string)}; levels numbered by first occurrence): read with free levels, the text says something else`
    : 'the two terms differ where their printed forms look the same (names printed alike, or a part the printer leaves out): compare the two readings');
  return { elaborated, clean: qualified(clean), differences: [...differences, ...documentNames(doc, clean, libraries)] };
}
