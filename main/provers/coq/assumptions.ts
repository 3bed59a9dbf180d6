import { COQ_BLANK, COQ_NAME, coqFlat, coqTrim } from './coq-sentence.ts';
/**
 * What a closed Coq proof may depend on (BRIEF §3, "proved means the kernel accepted it"): nothing beyond
 * the global context, the standard library's consistent axioms below, and axioms of a prelude the user
 * chose. `Print Assumptions` says what a theorem depends on; this module reads its answer and judges it.
 */

/** The standard library's axioms Arbor trusts (consistent with Coq's logic, alone and together), by full name. */
export const STDLIB_AXIOMS: ReadonlyMap<string, string> = new Map([
  ['Coq.Logic.Classical_Prop.classic', 'excluded middle'],
  ['Coq.Logic.ProofIrrelevance.proof_irrelevance', 'proof irrelevance'],
  ['Coq.Logic.FunctionalExtensionality.functional_extensionality_dep', 'functional extensionality'],
  ['Coq.Logic.PropExtensionality.propositional_extensionality', 'propositional extensionality'],
  ['Coq.Logic.Eqdep.Eq_rect_eq.eq_rect_eq', 'uniqueness of identity proofs (Streicher K)'],
  ['Coq.Logic.ClassicalEpsilon.constructive_indefinite_description', 'indefinite description (Hilbert ε)'],
  ['Coq.Logic.Epsilon.epsilon_statement', 'Hilbert ε'],
  ['Coq.Logic.IndefiniteDescription.constructive_indefinite_description', 'indefinite description'],
  ['Coq.Logic.Description.constructive_definite_description', 'definite description'],
  ['Coq.Logic.RelationalChoice.relational_choice', 'relational choice'],
  ['Coq.Logic.ExtensionalFunctionRepresentative.extensional_function_representative', 'extensional function representatives'],
  ['Coq.Sets.Ensembles.Extensionality_Ensembles', 'extensionality of ensembles'],
  ['Coq.Reals.ClassicalDedekindReals.sig_forall_dec', 'real numbers: limited principle of omniscience'],
  ['Coq.Reals.ClassicalDedekindReals.sig_not_dec', 'real numbers: weak excluded middle'],
  ['Coq.Reals.Rdefinitions.RbaseSymbolsImpl.Rabst', 'real numbers: the quotient'],
  ['Coq.Reals.Rdefinitions.RbaseSymbolsImpl.Rrepr', 'real numbers: the quotient'],
  ['Coq.Reals.Rdefinitions.RbaseSymbolsImpl.Rquot1', 'real numbers: the quotient'],
  ['Coq.Reals.Rdefinitions.RbaseSymbolsImpl.Rquot2', 'real numbers: the quotient'],
]);

/**
 * Coq's primitive integers, floats and arrays, as Coq 8.16's own library declares them: the `Primitive` types and
 * operations (`PrimInt63`, `PrimFloat`, `PArray`), which the kernel itself implements (checking each declaration's
 * type against the primitive's), and the axioms that specify them (`Uint63.add_spec`, `FloatAxioms`, `PArray`'s
 * `get_set_same`…), true of the kernel's implementation. `Print Assumptions` lists all of them as axioms
 * (`int : Set`), so a proof over them shows them in ASSUMPTIONS. Judged by kernel name: a document's own `Axiom`
 * or `Primitive` is `Top.…`, never under these libraries.
 */
const PRIMITIVE_LIBRARIES = [
  'Coq.Numbers.Cyclic.Int63.PrimInt63', 'Coq.Numbers.Cyclic.Int63.Uint63',
  'Coq.Floats.PrimFloat', 'Coq.Floats.FloatAxioms', 'Coq.Array.PArray',
  // Not `Sint63`: its `asr_spec` is false of the kernel's `asr` in Coq 8.16.1 (coq/coq#22462), so False follows.
];
export const primitiveLibraryAxiom = (full: string): boolean => PRIMITIVE_LIBRARIES.some((lib) => full.startsWith(`${lib}.`));

/** Never trusted, wherever it comes from: the axiom behind `admit` in `Coq.Compat.AdmitAxiom`. */
const NEVER = new Set(['Coq.Compat.AdmitAxiom.proof_admitted']);

export interface PrintedAssumptions {
  /**
   * Candidate names, each with its statement as printed (for display only). Every entry Coq prints starts
   * at column 0 with its name, so every real assumption is here; text inside an axiom's type (a string
   * may hold newlines) can only add candidates, never hide one — and each candidate is resolved to its
   * kernel name before anything is trusted.
   */
  axioms: { name: string; statement: string }[];
  /** Kernel checks that were switched off, e.g. `loop is assumed to be guarded.` */
  bypasses: string[];
}

/**
 * A qualified identifier as Coq prints one (no quotes, no blanks but the no-break space, which Coq's lexer
 * takes in names as it takes the combining marks U+1DC0–U+1DFF): the only text sent back to `Locate Term`.
 */
const QUALID = /^(?:[\p{L}_\u00A0]|[\u1DC0-\u1DFF])(?:[\p{L}\p{N}_'\u00A0]|[\u1DC0-\u1DFF])*(\.(?:[\p{L}_\u00A0]|[\u1DC0-\u1DFF])(?:[\p{L}\p{N}_'\u00A0]|[\u1DC0-\u1DFF])*)*$/u;
/** Lines of `Print Assumptions` that are headings, not entries. */
const HEADING = /^(Closed under the global context|Axioms:|Section Variables:|Opaque constants:|Transparent constants:|used in .* to prove:?)\s*$/;

/**
 * Reads `Print Assumptions`: every line at column 0 that is not a heading starts a candidate (its first
 * word, when that is a qualified name); indented lines continue its statement. Any line saying a check
 * was bypassed (`… is assumed to be guarded/positive/…`) is kept: it refuses the proof.
 *
 * Which lines belong to which entry is read from the layout alone (column 0 or indented), never from quotes: a
 * document's notation may print a lone `"` (`Notation "x """ := ...`), and a reading that followed it into a
 * "string" gave the next entries' lines to the wrong one (arbor-queries.attack.test.ts). Each entry's own lines are
 * then read as one text whose layout blanks become one space each, outside string literals only (`coqFlat`): a
 * literal with a line break keeps it and the blanks after it, which are its own characters (joining the lines
 * trimmed showed a false premise as a true one); a lone quote only leaves its own entry unfolded.
 */
export function parsePrintAssumptions(text: string): PrintedAssumptions {
  const trim = coqTrim;
  const axioms: PrintedAssumptions['axioms'] = [];
  const bypasses: string[] = [];
  /** Each candidate's text as printed: the rest of its first line, then every line that continues it. */
  const lines = new Map<{ name: string; statement: string }, string[]>();
  let current: { name: string; statement: string } | undefined;
  for (const line of text.split('\n')) {
    if (/\bis assumed to be\b|\bunsafe\b|inconsistent/.test(line)) bypasses.push(line.trim());
    const own = current === undefined ? undefined : lines.get(current);
    if (trim(line) === '') {
      own?.push(line);
      continue;
    }
    // Section variables print as `n` then `: nat` at column 0: a line that starts with `:` names nothing.
    if (/^:/.test(line) && current) {
      own?.push(line);
      continue;
    }
    // Blanks are Coq's layout blanks only: a no-break space is part of a name (`x y`, ` x`).
    if (/^[^ \t\r]/.test(line)) {
      current = undefined;
      if (HEADING.test(trim(line))) continue;
      const name = line.split(/[ \t\r]/)[0] ?? '';
      if (!QUALID.test(name)) continue;
      const candidate = { name, statement: '' };
      lines.set(candidate, [line.slice(name.length)]);
      axioms.push(candidate);
      current = candidate;
    } else {
      own?.push(line);
    }
  }
  for (const [candidate, own] of lines) candidate.statement = coqFlat(own.join('\n')).replace(/^:[ \t]*/, '');
  return { axioms, bypasses };
}

/**
 * The kernel name a `Locate Term` answer gives for the object its query names: its first line,
 * `Constant Coq.Logic.Classical_Prop.classic` (an axiom is always a Constant). Locate prints object kinds
 * and full paths only — never a type or any other user text — so a type cannot spoof it (unlike `About`,
 * whose answer contains the type). Undefined when the first object is not a constant.
 */
export function constantFromLocate(text: string): string | undefined {
  const first = text.split('\n').find((l) => coqTrim(l) !== '');
  const m = /^Constant[ \t]+([^ \t\r\n]+)$/.exec(coqTrim(first ?? ''));
  return m && QUALID.test(m[1] as string) ? m[1] : undefined;
}

/**
 * A section variable (`Variable`, `Hypothesis`, `Context` inside an open section) as `Locate Term` names it:
 * `Variable n`. Only an open section has these; `Variable` outside one declares an axiom, a `Constant`.
 */
export function sectionVariableFromLocate(text: string): { sectionVariable: string } | undefined {
  const first = text.split('\n').find((l) => coqTrim(l) !== '');
  const m = /^Variable[ \t]+([^ \t\r\n]+)$/.exec(coqTrim(first ?? ''));
  return m && QUALID.test(m[1] as string) ? { sectionVariable: m[1] as string } : undefined;
}

/** Every constant a `Locate Term <basename>` answer lists (all objects of that basename, imported or not). */
export function constantsFromLocate(text: string): string[] {
  return text.split('\n').map((l) => /^Constant[ \t]+([^ \t\r\n]+)$/.exec(coqTrim(l))?.[1]).filter((n): n is string => n !== undefined && QUALID.test(n));
}

/** Whether `name` may be sent to `Locate Term` (a qualified name and nothing else). */
export const isQualid = (name: string): boolean => QUALID.test(name);


// Coq's blanks only: a no-break space is part of a name (`Axiom ax\u00a0 : …` declares `ax\u00a0`, never `ax`).
const PB = `[${COQ_BLANK}]`;
const PRELUDE_BLANKS = new RegExp(`${PB}+`);
const PRELUDE_DECLARATION = new RegExp(
  `(?:^|\\.${PB})${PB}*(?:#\\[[^\\]]*\\]${PB}*)?(?:(?:Local|Global|Polymorphic|Monomorphic)${PB}+)*(?:Axioms?|Parameters?|Conjectures?|Hypothesis|Hypotheses|Variables?|Declare${PB}+Instance)${PB}+([^:.]+?)${PB}*:`,
  'g',
);
const PRELUDE_ADMITTED = new RegExp(`(?:Lemma|Theorem|Fact|Remark|Corollary|Proposition|Example)${PB}+(${COQ_NAME})[^]*?(?:Qed|Defined|Admitted|Abort)\\.`, 'g');

/**
 * Names a trusted prelude (the user's own `--prelude` file or project file) declares as assumptions:
 * `Axiom`, `Parameter`, `Conjecture`, `Hypothesis`, `Variable` (and plurals), `Declare Instance`, and
 * lemmas it leaves `Admitted`. Basenames: the session resolves them to full kernel names once after boot.
 */
export function declaredAssumptions(prelude: string): Set<string> {
  const names = new Set<string>();
  const text = prelude.replace(/\(\*[\s\S]*?\*\)/g, ' ');
  for (const m of text.matchAll(PRELUDE_DECLARATION)) for (const n of (m[1] ?? '').replace(/[()]/g, ' ').split(PRELUDE_BLANKS)) if (n) names.add(n);
  for (const m of text.matchAll(PRELUDE_ADMITTED)) if (m[0].endsWith('Admitted.') && m[1]) names.add(m[1]);
  return names;
}

/**
 * A printed assumption as `Locate Term` resolved it: a kernel name, a variable of the open section, a field
 * of an open functor's parameter (functor-parameters.ts), or nothing known.
 */
export type ResolvedAssumption = string | { sectionVariable: string } | { functorParameter: string } | undefined;

export type AssumptionVerdict =
  /** `sectionVariables`: the open section's variables the theorem uses (a premise once the section ends). */
  | { ok: true; assumptions: string[]; sectionVariables?: { name: string; statement: string }[] }
  | { ok: false; reason: string };

/**
 * Judges a theorem's assumptions by kernel name. `resolve` gives the kernel name a candidate stands for
 * (Coq prints the shortest name that resolves to each assumption, so `Locate Term` in the same context
 * finds that very object); `trusted` are the FULL kernel names of the user's own prelude's assumptions.
 * A candidate that resolves to nothing, or to anything not trusted, refuses the proof. A variable of the
 * open section (`resolve` says so from `Locate Term`'s kind) is listed, never refused: it is discharged.
 */
export async function judgeAssumptions(
  printed: PrintedAssumptions,
  resolve: (name: string) => Promise<ResolvedAssumption>,
  trusted: ReadonlySet<string>,
): Promise<AssumptionVerdict> {
  if (printed.bypasses.length > 0) return { ok: false, reason: `unsound: depends on switched-off kernel checks (${printed.bypasses.join(' ')})` };
  const bad: string[] = [];
  const listed = new Map<string, string>();
  const sectionVariables = new Map<string, { name: string; statement: string }>();
  for (const a of printed.axioms) {
    const found = await resolve(a.name);
    if (typeof found === 'object' && 'functorParameter' in found) {
      // Inside an open functor: every module it is applied to gives this field; after `End` nothing is assumed.
      const key = `functor parameter ${found.functorParameter}`;
      if (!listed.has(key)) listed.set(key, `${a.name}${a.statement ? ` : ${a.statement}` : ''} (field of the functor's parameter: a premise of the theorem, given by each module the functor is applied to)`);
      continue;
    }
    if (typeof found === 'object') {
      // Inside an open section: not an axiom. The theorem is proved under it, and `End` makes it a premise.
      const key = `section variable ${found.sectionVariable}`;
      if (!listed.has(key)) listed.set(key, `${a.name}${a.statement ? ` : ${a.statement}` : ''} (section variable: a premise of the theorem once its section ends)`);
      if (!sectionVariables.has(found.sectionVariable)) sectionVariables.set(found.sectionVariable, { name: a.name, statement: a.statement });
      continue;
    }
    const full = found;
    if (full === undefined || NEVER.has(full) || !(STDLIB_AXIOMS.has(full) || primitiveLibraryAxiom(full) || trusted.has(full))) {
      bad.push(full === undefined || full === a.name ? a.name : `${a.name} (${full})`);
      continue;
    }
    if (!listed.has(full)) listed.set(full, a.statement ? `${a.name} : ${a.statement}` : a.name);
  }
  if (bad.length > 0) return { ok: false, reason: `unsound: depends on ${[...new Set(bad)].join(', ')}` };
  return { ok: true, assumptions: [...listed.values()], ...(sectionVariables.size > 0 ? { sectionVariables: [...sectionVariables.values()] } : {}) };
}
