import type { ChainStep, EqProof } from './proof.ts';
import { FIRST_CONSTANT, type Term, type TermBank, varIndex } from './term.ts';

/**
 * Terms and proofs as plain data, to cross into a worker thread and back: a variable is `-(i + 1)`, a
 * constant its name, an application `[symbol, ...args]` (built-in symbols have the same code in every bank).
 */
export type WireTerm = number | string | [number, ...WireTerm[]];
export interface WireStep { by: string; dir: ChainStep['dir']; pos: number[]; term: WireTerm }
export interface WireProof {
  lemmas: { name: string; lhs: WireTerm; rhs: WireTerm; steps: WireStep[] }[];
  lhs: WireTerm;
  rhs: WireTerm;
  steps: WireStep[];
}

export function toWire(bank: TermBank, t: Term): WireTerm {
  if (t.f < 0) return -(varIndex(t) + 1);
  if (t.f >= FIRST_CONSTANT) return bank.symbolName(t.f);
  return [t.f, ...t.args.map((a) => toWire(bank, a))];
}

export function fromWire(bank: TermBank, w: WireTerm): Term {
  if (typeof w === 'number') return bank.v(-w - 1);
  if (typeof w === 'string') return bank.const(w);
  const [f, ...args] = w;
  return bank.app(f, args.map((a) => fromWire(bank, a)));
}

export function proofToWire(bank: TermBank, p: EqProof): WireProof {
  const steps = (ss: readonly ChainStep[]): WireStep[] => ss.map((s) => ({ by: s.by, dir: s.dir, pos: [...s.pos], term: toWire(bank, s.term) }));
  return {
    lemmas: p.lemmas.map((l) => ({ name: l.name, lhs: toWire(bank, l.lhs), rhs: toWire(bank, l.rhs), steps: steps(l.steps) })),
    lhs: toWire(bank, p.lhs),
    rhs: toWire(bank, p.rhs),
    steps: steps(p.steps),
  };
}

export function proofFromWire(bank: TermBank, p: WireProof): EqProof {
  const steps = (ss: readonly WireStep[]): ChainStep[] => ss.map((s) => ({ by: s.by, dir: s.dir, pos: s.pos, term: fromWire(bank, s.term) }));
  return {
    lemmas: p.lemmas.map((l) => ({ name: l.name, lhs: fromWire(bank, l.lhs), rhs: fromWire(bank, l.rhs), steps: steps(l.steps) })),
    lhs: fromWire(bank, p.lhs),
    rhs: fromWire(bank, p.rhs),
    steps: steps(p.steps),
  };
}
