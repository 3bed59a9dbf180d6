/**
 * Knuth-Bendix order with all symbol weights 1 (so a term's weight is its size) and a fixed
 * precedence. With unit weights the definitions `T(u,x) = x \ (u*x)` etc. orient towards the
 * defined symbol (folding), which keeps the AIM axioms small instead of unfolding them.
 */
import { FIRST_CONSTANT, SYM, type Term, varIndex } from './term.ts';

/** The default precedence, lowest first. Skolem constants sit below `e`; among themselves by code. */
export const DEFAULT_KBO_PRECEDENCE: readonly number[] = [SYM.e, SYM.mul, SYM.ldiv, SYM.rdiv, SYM.K, SYM.T, SYM.L, SYM.R, SYM.a];

const precedenceTable = (order: readonly number[]): number[] => {
  const table: number[] = [];
  order.forEach((f, i) => {
    table[f] = 1000 + i;
  });
  return table;
};
let PRECEDENCE = precedenceTable(DEFAULT_KBO_PRECEDENCE);
const prec = (f: number): number => (f >= FIRST_CONSTANT ? f - FIRST_CONSTANT : (PRECEDENCE[f] ?? 0));

function countVars(t: Term, delta: number, counts: number[]): void {
  if (t.ground) return;
  if (t.f < 0) {
    const i = varIndex(t);
    counts[i] = (counts[i] ?? 0) + delta;
    return;
  }
  for (const a of t.args) countVars(a, delta, counts);
}

function occursVar(v: Term, t: Term): boolean {
  if (t === v) return true;
  if (t.ground || t.maxVar < varIndex(v)) return false;
  for (const a of t.args) if (occursVar(v, a)) return true;
  return false;
}

/** Every variable occurs in s at least as often as in t. */
function varCondition(s: Term, t: Term): boolean {
  if (t.ground) return true;
  const counts: number[] = [];
  countVars(s, 1, counts);
  countVars(t, -1, counts);
  for (const c of counts) if (c !== undefined && c < 0) return false;
  return true;
}

function greaterNoVarCheck(s: Term, t: Term): boolean {
  if (s === t) return false;
  if (t.f < 0) return occursVar(t, s);
  if (s.f < 0) return false;
  if (s.size !== t.size) return s.size > t.size;
  if (s.f !== t.f) return prec(s.f) > prec(t.f);
  const n = s.args.length;
  for (let k = 0; k < n; k++) {
    const a = s.args[k] as Term;
    const b = t.args[k] as Term;
    if (a !== b) return kboGreater(a, b);
  }
  return false;
}

export function kboGreater(s: Term, t: Term): boolean {
  if (s === t) return false;
  if (t.f < 0) return occursVar(t, s);
  if (s.f < 0) return false;
  if (s.size < t.size) return false;
  if (!varCondition(s, t)) return false;
  return greaterNoVarCheck(s, t);
}

export type Comparison = '>' | '<' | '=' | '?';

export function kboCompare(s: Term, t: Term): Comparison {
  if (s === t) return '=';
  if (kboGreater(s, t)) return '>';
  if (kboGreater(t, s)) return '<';
  return '?';
}

export interface TermOrder {
  greater: (s: Term, t: Term) => boolean;
  compare: (s: Term, t: Term) => Comparison;
}

/**
 * KBO (unit weights) with another precedence over the built-in symbols, lowest first. The table is
 * swapped in around each call, so orders with different precedences can coexist in one process
 * (one prover runs at a time on the event loop; calls never interleave).
 */
export function kboWithPrecedence(order: readonly number[]): TermOrder {
  const table = precedenceTable(order);
  const wrap = <R>(fn: (s: Term, t: Term) => R) => (s: Term, t: Term): R => {
    const saved = PRECEDENCE;
    PRECEDENCE = table;
    try {
      return fn(s, t);
    } finally {
      PRECEDENCE = saved;
    }
  };
  return { greater: wrap(kboGreater), compare: wrap(kboCompare) };
}
