/** Conversion of an `EqProof` to the plain JSON form the checker and the Coq printer read. */
import type { ChainStep, EqProof, ProofJson, StepJson } from './proof.ts';
import { constantsInOrder, type Term, type TermBank, printTerm } from './term.ts';

const stepsJson = (bank: TermBank, steps: readonly ChainStep[]): StepJson[] =>
  steps.map((s) => ({ by: s.by, dir: s.dir, pos: [...s.pos], term: printTerm(bank, s.term) }));

export function proofToJson(bank: TermBank, proof: EqProof): ProofJson {
  return {
    goal: `${printTerm(bank, proof.lhs)} = ${printTerm(bank, proof.rhs)}`,
    constants: constantsInOrder(bank, [proof.lhs, proof.rhs]),
    lemmas: proof.lemmas.map((l) => ({ name: l.name, statement: `${printTerm(bank, l.lhs)} = ${printTerm(bank, l.rhs)}`, steps: stepsJson(bank, l.steps) })),
    steps: stepsJson(bank, proof.steps),
  };
}

/** Human-readable chain: `t0 = t1 by name (dir) @pos` lines. */
export function chainText(bank: TermBank, start: Term, steps: readonly ChainStep[]): string {
  const lines = [`  ${printTerm(bank, start)}`];
  for (const s of steps) lines.push(`= ${printTerm(bank, s.term)}   [${s.by}${s.dir === 'rl' ? '<-' : ''} @${s.pos.join('.') || 'root'}]`);
  return lines.join('\n');
}
