/** Moving proofs between term banks, renaming lemmas and turning fixed constants back into variables. */
import type { ChainStep, EqProof, Lemma } from './proof.ts';
import { FIRST_CONSTANT, type Term, type TermBank, varIndex } from './term.ts';

export interface ImportOptions {
  /** Prefix for the imported proof's own lemma names (keeps names unique when proofs are combined). */
  lemmaPrefix?: string;
  /** Constants (by name) to turn into variables (by index) in the target bank. */
  constantsToVars?: Map<string, number>;
}

export function importTerm(t: Term, from: TermBank, to: TermBank, constantsToVars?: Map<string, number>): Term {
  if (t.f < 0) return to.v(varIndex(t));
  if (t.f >= FIRST_CONSTANT) {
    const name = from.symbolName(t.f);
    const v = constantsToVars?.get(name);
    return v === undefined ? to.const(name) : to.v(v);
  }
  return to.app(t.f, t.args.map((a) => importTerm(a, from, to, constantsToVars)));
}

export function importProof(proof: EqProof, from: TermBank, to: TermBank, options: ImportOptions = {}): EqProof {
  const own = new Set(proof.lemmas.map((l) => l.name));
  const prefix = options.lemmaPrefix ?? '';
  const name = (n: string): string => (own.has(n) ? `${prefix}${n}` : n);
  const tr = (t: Term): Term => importTerm(t, from, to, options.constantsToVars);
  const steps = (ss: readonly ChainStep[]): ChainStep[] => ss.map((s) => ({ by: name(s.by), dir: s.dir, pos: s.pos, term: tr(s.term) }));
  const lemmas: Lemma[] = proof.lemmas.map((l) => ({ name: name(l.name), lhs: tr(l.lhs), rhs: tr(l.rhs), steps: steps(l.steps) }));
  return { lemmas, lhs: tr(proof.lhs), rhs: tr(proof.rhs), steps: steps(proof.steps) };
}
