/**
 * Equational proofs as rewrite chains. A chain step rewrites the current term at one position with
 * one equation (an ARTICLE equation by name, or a lemma proved earlier in the same proof) in one
 * direction, and records the whole resulting term. A proof is a list of lemmas, each with its own
 * chain from its left to its right side, then the goal's chain. Lemma variables are universally
 * quantified; the goal's variables are fixed constants.
 */
import type { Position, Term } from './term.ts';

export type Direction = 'lr' | 'rl';

export interface ChainStep {
  /** ARTICLE equation name, or a lemma name from the same proof. */
  by: string;
  dir: Direction;
  pos: Position;
  /** The whole term after the step. */
  term: Term;
}

export interface Lemma {
  name: string;
  lhs: Term;
  rhs: Term;
  steps: ChainStep[];
}

export interface EqProof {
  lemmas: Lemma[];
  lhs: Term;
  rhs: Term;
  steps: ChainStep[];
}

/** The proof in plain JSON: what the independent checker and the Coq printer read. */
export interface StepJson {
  by: string;
  dir: Direction;
  pos: number[];
  term: string;
}

export interface LemmaJson {
  name: string;
  statement: string;
  steps: StepJson[];
}

export interface ProofJson {
  /** The goal as `lhs = rhs`; its variables are the fixed constants listed in `constants`. */
  goal: string;
  constants: string[];
  lemmas: LemmaJson[];
  steps: StepJson[];
}

export const flip = (d: Direction): Direction => (d === 'lr' ? 'rl' : 'lr');

/** The same chain read backwards: from its last term to `start`. */
export function reverseChain(start: Term, steps: readonly ChainStep[]): ChainStep[] {
  const out: ChainStep[] = [];
  for (let k = steps.length - 1; k >= 0; k--) {
    const s = steps[k] as ChainStep;
    const before = k === 0 ? start : (steps[k - 1] as ChainStep).term;
    out.push({ by: s.by, dir: flip(s.dir), pos: s.pos, term: before });
  }
  return out;
}

export const lastTerm = (start: Term, steps: readonly ChainStep[]): Term => (steps.length ? (steps[steps.length - 1] as ChainStep).term : start);
