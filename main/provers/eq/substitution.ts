/**
 * Substitutions, matching and unification over hash-consed terms. A substitution is a sparse array
 * indexed by variable number; rule variables are numbered from 0, so arrays stay small.
 */
import { type Term, type TermBank, varIndex } from './term.ts';

export type Subst = (Term | undefined)[];

export function applySubst(bank: TermBank, t: Term, s: Subst): Term {
  if (t.ground) return t;
  if (t.f < 0) return s[varIndex(t)] ?? t;
  let changed = false;
  const args = t.args.map((a) => {
    const b = applySubst(bank, a, s);
    if (b !== a) changed = true;
    return b;
  });
  return changed ? bank.app(t.f, args) : t;
}

/** Extends `s` so that s(pattern) = t; returns false (leaving `s` possibly extended) on failure. */
export function matchInto(pattern: Term, t: Term, s: Subst): boolean {
  if (pattern.f < 0) {
    const i = varIndex(pattern);
    const bound = s[i];
    if (bound === undefined) {
      s[i] = t;
      return true;
    }
    return bound === t;
  }
  if (pattern.ground) return pattern === t;
  if (pattern.f !== t.f) return false;
  const pa = pattern.args;
  const ta = t.args;
  for (let k = 0; k < pa.length; k++) {
    if (!matchInto(pa[k] as Term, ta[k] as Term, s)) return false;
  }
  return true;
}

export function match(pattern: Term, t: Term): Subst | undefined {
  const s: Subst = [];
  return matchInto(pattern, t, s) ? s : undefined;
}

/** Shift every variable index by `n` (renaming apart before unification). */
export function shiftVars(bank: TermBank, t: Term, n: number): Term {
  if (t.ground || n === 0) return t;
  if (t.f < 0) return bank.v(varIndex(t) + n);
  return bank.app(t.f, t.args.map((a) => shiftVars(bank, a, n)));
}

function walkVar(t: Term, s: Subst): Term {
  while (t.f < 0) {
    const b = s[varIndex(t)];
    if (b === undefined) return t;
    t = b;
  }
  return t;
}

function occurs(i: number, t: Term, s: Subst): boolean {
  t = walkVar(t, s);
  if (t.f < 0) return varIndex(t) === i;
  if (t.ground) return false;
  for (const a of t.args) if (occurs(i, a, s)) return true;
  return false;
}

function unifyInto(a: Term, b: Term, s: Subst): boolean {
  a = walkVar(a, s);
  b = walkVar(b, s);
  if (a === b) return true;
  if (a.f < 0) {
    if (occurs(varIndex(a), b, s)) return false;
    s[varIndex(a)] = b;
    return true;
  }
  if (b.f < 0) {
    if (occurs(varIndex(b), a, s)) return false;
    s[varIndex(b)] = a;
    return true;
  }
  if (a.f !== b.f) return false;
  for (let k = 0; k < a.args.length; k++) {
    if (!unifyInto(a.args[k] as Term, b.args[k] as Term, s)) return false;
  }
  return true;
}

/** Most general unifier (triangular form resolved), or undefined. */
export function unify(bank: TermBank, a: Term, b: Term): Subst | undefined {
  const s: Subst = [];
  if (!unifyInto(a, b, s)) return undefined;
  const resolved: Subst = [];
  const resolve = (t: Term): Term => {
    if (t.ground) return t;
    if (t.f < 0) {
      const bnd = s[varIndex(t)];
      return bnd === undefined ? t : resolve(bnd);
    }
    return bank.app(t.f, t.args.map(resolve));
  };
  s.forEach((t, i) => {
    if (t !== undefined) resolved[i] = resolve(t);
  });
  return resolved;
}

/** Rename variables to 0, 1, ... in order of first occurrence across `terms`; returns the renaming too. */
export function normalizeVars(bank: TermBank, terms: readonly Term[]): { terms: Term[]; renaming: Subst } {
  const renaming: Subst = [];
  let next = 0;
  const walk = (t: Term): void => {
    if (t.ground) return;
    if (t.f < 0) {
      const i = varIndex(t);
      if (renaming[i] === undefined) renaming[i] = bank.v(next++);
      return;
    }
    for (const a of t.args) walk(a);
  };
  terms.forEach(walk);
  return { terms: terms.map((t) => applySubst(bank, t, renaming)), renaming };
}
