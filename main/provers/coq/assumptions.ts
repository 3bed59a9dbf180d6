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

/** Never trusted, wherever it comes from: the axiom behind `admit` in `Coq.Compat.AdmitAxiom`. */
const NEVER = new Set(['Coq.Compat.AdmitAxiom.proof_admitted']);

export interface PrintedAssumptions {
  /** Axioms as printed: the shortest name that resolves to each in the current context, and the statement. */
  axioms: { name: string; statement: string }[];
  /** Kernel checks that were switched off, e.g. `loop is assumed to be guarded.` */
  bypasses: string[];
}

/**
 * Reads `Print Assumptions`: `Closed under the global context`, or sections (`Axioms:`, `Section
 * Variables:`, …) whose entries start at column 0 and continue on indented lines, and lines saying a
 * check was bypassed (`… is assumed to be guarded/positive/…`).
 */
export function parsePrintAssumptions(text: string): PrintedAssumptions {
  const axioms: PrintedAssumptions['axioms'] = [];
  const bypasses: string[] = [];
  let current: { name: string; statement: string } | undefined;
  for (const line of text.split('\n')) {
    if (line.trim() === '' || /^Closed under the global context/.test(line)) continue;
    if (/\bis assumed to be\b/.test(line)) {
      bypasses.push(line.trim());
      current = undefined;
      continue;
    }
    if (/^\S.*:$/.test(line) && !line.includes(' : ')) {
      // A section header such as `Axioms:`.
      current = undefined;
      continue;
    }
    if (/^\S/.test(line)) {
      if (/^used in /.test(line)) {
        // `used in T to prove` and the indented statements after it say where, not what.
        current = undefined;
        continue;
      }
      const colon = line.indexOf(' : ');
      current = colon < 0 ? { name: line.trim(), statement: '' } : { name: line.slice(0, colon).trim(), statement: line.slice(colon + 3).trim() };
      axioms.push(current);
    } else if (current) {
      const t = line.trim();
      current.statement = (current.statement === '' ? t.replace(/^:\s*/, '') : `${current.statement} ${t}`).trim();
    }
  }
  return { axioms, bypasses };
}

/** The full name in an `About` answer (`Expands to: Constant Coq.Logic.Classical_Prop.classic`, possibly wrapped). */
export function fullNameFromAbout(text: string): string | undefined {
  return /Expands to:\s*Constant\s+(\S+)/.exec(text)?.[1];
}

/**
 * Names a trusted prelude (the user's own `--prelude` file or project file) declares as assumptions:
 * `Axiom`, `Parameter`, `Conjecture`, `Hypothesis`, `Variable` (and plurals), and lemmas it leaves `Admitted`.
 */
export function declaredAssumptions(prelude: string): Set<string> {
  const names = new Set<string>();
  const text = prelude.replace(/\(\*[\s\S]*?\*\)/g, ' ');
  const decl = /(?:^|\.\s)\s*(?:#\[[^\]]*\]\s*)?(?:(?:Local|Global|Polymorphic|Monomorphic)\s+)*(?:Axioms?|Parameters?|Conjectures?|Hypothesis|Hypotheses|Variables?)\s+([^:.]+?)\s*:/g;
  for (const m of text.matchAll(decl)) for (const n of (m[1] ?? '').replace(/[()]/g, ' ').split(/\s+/)) if (n) names.add(n);
  const admitted = /(?:Lemma|Theorem|Fact|Remark|Corollary|Proposition|Example)\s+([\p{L}_][\p{L}\p{N}_']*)[^]*?(?:Qed|Defined|Admitted|Abort)\./gu;
  for (const m of text.matchAll(admitted)) if (m[0].endsWith('Admitted.') && m[1]) names.add(m[1]);
  return names;
}

export type AssumptionVerdict =
  | { ok: true; assumptions: string[] }
  | { ok: false; reason: string };

/**
 * Judges a theorem's assumptions. `resolve` gives the full name an axiom's printed name stands for (Coq
 * prints the shortest name that resolves to it, so resolving it in the same context finds that very
 * axiom); `trusted` are the names the user's own prelude declares.
 */
export async function judgeAssumptions(
  printed: PrintedAssumptions,
  resolve: (name: string) => Promise<string | undefined>,
  trusted: ReadonlySet<string>,
): Promise<AssumptionVerdict> {
  if (printed.bypasses.length > 0) return { ok: false, reason: `unsound: depends on switched-off kernel checks (${printed.bypasses.join(' ')})` };
  const bad: string[] = [];
  const listed: string[] = [];
  for (const a of printed.axioms) {
    const full = await resolve(a.name);
    const shown = a.statement ? `${a.name} : ${a.statement}` : a.name;
    listed.push(shown);
    if (full === undefined || NEVER.has(full)) {
      bad.push(a.name);
      continue;
    }
    if (STDLIB_AXIOMS.has(full)) continue;
    const last = full.split('.').at(-1) ?? full;
    if (!full.startsWith('Coq.') && trusted.has(last)) continue;
    bad.push(a.name);
  }
  if (bad.length > 0) return { ok: false, reason: `unsound: depends on ${bad.join(', ')}` };
  return { ok: true, assumptions: listed };
}
