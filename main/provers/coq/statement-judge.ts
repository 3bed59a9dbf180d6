import type { StatementMeaning } from '../../../shared/protocol/statement-meaning.ts';
import type { ClientOptions, CoqideTopClient } from './coqidetop-client.ts';
import { isQualid } from './assumptions.ts';
import { coqFlat, commentEnd } from './coq-sentence.ts';
import { compareReadings, qualified, type Reading } from './statement-meaning.ts';
import { writtenNames } from './project-library-sentence.ts';
import { projectLibraries } from './admitted-reliance.ts';
import { cleanEnvironment, cleanReading, librarySentences, readTerm } from './statement-reading.ts';

/** Declarations that change how a term is read (notations, scopes, coercions, implicit arguments, instances, imports; `where` notations below). */
const READS_DIFFERENTLY = /^(Notation|Infix|Reserved|Open|Close|Bind|Delimit|Declare|Coercion|Canonical|Arguments|Instance|Existing|Class|Hint|Set|Unset|Require|From|Import|Export|Include|Typeclasses|Generalizable|Implicit)\b/;

/**
 * A statement that does not elaborate in a clean environment only because it uses the document's own new
 * words (`double`, defined by the document and naming nothing in the library) means what it says: the
 * comparison has nothing else to find when the document changed no notation, scope, coercion, implicit
 * argument, instance or import (beyond the library sentences the clean environment ran too), no name of its
 * shadows a library one and none looks like another (non-ASCII).
 */
/**
 * The sentence with every comment replaced by a blank (strings outside comments kept whole): Coq reads
 * `(* helper *) Notation "x + y" := …` and `#[local] (* x *) Notation …` as notations, so the head test must too.
 */
const withoutComments = (sentence: string): string => {
  let out = '';
  let i = 0;
  while (i < sentence.length) {
    if (sentence.startsWith('(*', i)) {
      i = commentEnd(sentence, i);
      out += ' ';
    } else if (sentence[i] === '"') {
      const close = sentence.indexOf('"', i + 1);
      const end = close < 0 ? sentence.length : close + 1;
      out += sentence.slice(i, end);
      i = end;
    } else out += sentence[i++];
  }
  return out;
};

function onlyNewWords(own: readonly string[], referring: ReadonlySet<string>, error: string, declarations: readonly string[], text: string): boolean {
  if (!/was not found in the current environment/.test(error) || own.length === 0) return false;
  // `ltac:(…)` in the statement runs a tactic (the document may have redefined it) to make part of the term:
  // what the text says is then whatever that tactic built, never "only new words".
  if (/(^|[^\p{L}\p{N}_'])ltac\s*:/u.test(text)) return false;
  if (own.some((shown) => referring.has(shown) || [...shown].some((c) => c.charCodeAt(0) > 127))) return false;
  const head = (sentence: string): string => sentence.replace(/^\s*(#\[[^\]]*\]\s*)*/, '').replace(/^((Local|Global|Polymorphic|Monomorphic|Program|Private|Cumulative|NonCumulative)\s+)+/, '');
  // `where "n + m" := (mymul n m)` after an Inductive or Fixpoint declares a notation as much as `Notation` does
  // (`Definition d := 1. Fixpoint mymul … where "n + m" := (mymul n m).` made `d + d = d` pass as meaning what it says).
  // `#[canonical] Definition d := {| … |}.` declares a canonical structure as much as `Canonical` does.
  const canonical = (d: string): boolean => /^\s*(#\[[^\]]*\]\s*)*#\[[^\]]*\bcanonical\b/.test(d);
  return !declarations.map(withoutComments).some((d) => READS_DIFFERENTLY.test(head(d)) || canonical(d) || /:>/.test(d) || /(^|[^\p{L}\p{N}_'])where($|[^\p{L}\p{N}_'])/u.test(d));
}

/**
 * The one judge of what a statement means (issue 21), for every claim about one: a finished proof, a batch
 * item, a fidelity verdict. `printed` is the statement as Coq elaborated it in the document (`Set Printing
 * All`), at state `at` of `client`; `text` is the statement as written; `declarations` are the document's
 * sentences before it (its library sentences — `Require`, `Import`, `Open Scope` — also run in the clean
 * environment, so an honest statement over Reals reads the same there). Undefined when the statement means
 * what its text says in the clean environment; otherwise what it means and what differs.
 */
export async function judgeStatement(
  client: CoqideTopClient,
  printed: string,
  at: number,
  text: string,
  declarations: readonly string[],
  options: ClientOptions,
  /**
   * From Arbor's plugin (`Arbor_statement`): the printed names resolved at `at` (what `Locate Term` answers there,
   * not asked again) and the kernel term, the reading's identity.
   */
  kernelRead?: { names: ReadonlyMap<string, string>; kernel: string },
): Promise<StatementMeaning | undefined> {
  const doc = await readTerm(client, printed, at, undefined, kernelRead);
  const library = librarySentences(declarations);
  // A trusted project's logical roots (`-Q dir PLF`): its names are the project library's, not the document's own.
  const libraries = projectLibraries(options.extraArgs ?? []);
  const clean = await cleanReading(text, options, library).catch((e: unknown) => ({ error: `the clean environment is unavailable (${(e as Error).message})`, library: [] as string[] }));
  if ('error' in clean) {
    // No clean reading to compare with: still say what the document's names would mean there.
    const full = await cleanEnvironment.names([...doc.full.keys()].filter(isQualid), options, library).catch(() => undefined);
    // The document's own words: as read from the printed term, and every global the kernel term mentions (a name
    // the reader splits — a no-break space inside it — is one name there, and its non-ASCII character shows).
    const own = [...new Set([...doc.full, ...(doc.globals ?? [])].filter(([, f]) => !/^(Coq|Hammer)\./.test(f)).map(([shown]) => shown))];
    const referring = await cleanEnvironment.referring(own, options, library).catch(() => undefined);
    const ranThere = new Set(clean.library);
    // Flattened as `librarySentences` flattens them: Coq's blanks only.
    const declared = declarations.filter((d) => !ranThere.has(coqFlat(d)));
    if (referring !== undefined && onlyNewWords(own, referring, clean.error, declared, text)) return undefined;
    return compareReadings(doc, full ? { ...clean, full } : clean, libraries);
  }
  return compareReadings(doc, clean, libraries) ?? unwrittenProjectNames(doc, clean, text, options) ?? (await chosenByProject(doc, clean, text, options, library));
}

/**
 * A trusted project's library is loaded (`Require`) in the clean environment, and loading alone makes its
 * `#[global]` hints active whatever the import leaves out: a `Hint Extern` can build a class instance out of
 * Coq's own names (`x == y` on nat as the trivial setoid), so no project name shows. A text that names
 * nothing of the project must then read the same without the project's load paths at all.
 */
async function chosenByProject(doc: Reading, clean: Reading, text: string, options: ClientOptions, library: readonly string[]): Promise<StatementMeaning | undefined> {
  if ((options.extraArgs ?? []).length === 0 || [...clean.full.values()].some((f) => !/^(Coq|Hammer)\./.test(f))) return undefined;
  const free = await cleanReading(text, { ...options, extraArgs: [] }, library).catch((e: unknown) => ({ error: `the clean environment is unavailable (${(e as Error).message})`, library: [] as string[] }));
  const differs = 'error' in free ? true : compareReadings(clean, free) !== undefined;
  if (!differs) return undefined;
  return {
    elaborated: qualified(doc),
    clean: 'error' in free ? null : qualified(free),
    differences: [
      'error' in free
        ? `without the project's library the text does not elaborate (${free.error}): what it means depends on the project's library (a hint or instance, active once the library is loaded, or a Coq library it loads: require that one in the document itself)`
        : `without the project's library the text reads ${qualified(free)}: the project's library chose what it means (a hint or instance, active once the library is loaded)`,
    ],
  };
}

/**
 * The same reading with a trusted project's library is the same meaning only when every project name in
 * it is written in the text: a name Coq's elaboration put there (a project's global instance of a class,
 * active once its library is loaded, whatever was imported) is the project choosing what the text means,
 * shown like any other difference.
 */
function unwrittenProjectNames(doc: Reading, clean: Reading, text: string, options: ClientOptions): StatementMeaning | undefined {
  // Only a trusted project's library can put its names into a reading (no project: nothing to look for).
  if ((options.extraArgs ?? []).length === 0) return undefined;
  const written = writtenNames(text);
  // The kernel term's globals where the plugin gave them (a primitive integer printed `0x3` is no name `x3`).
  const names = clean.globals ?? clean.full;
  const unwritten = [...names].filter(([shown, full]) => !/^(Coq|Hammer)\./.test(full) && !written.has(shown.split('.').at(-1) ?? shown));
  if (unwritten.length === 0) return undefined;
  return {
    elaborated: qualified(doc),
    clean: qualified(clean),
    differences: unwritten.map(([shown, full]) => `\`${full}\` is not written in the text: elaborating it put the project's \`${shown}\` there (an instance, coercion or notation of the project's library)`),
  };
}
