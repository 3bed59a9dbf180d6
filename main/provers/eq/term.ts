/**
 * AIM terms: variables, the identity `e`, the three loop operations and the five defined operations,
 * plus named constants (Skolem constants for a goal's variables). Terms are hash-consed inside a
 * `TermBank`, so structural equality is pointer equality and every term carries cached facts
 * (weight, groundness, largest variable) that rewriting and ordering use constantly.
 */

/** Built-in function symbols; codes below `FIRST_CONSTANT`. Constants get codes from the bank. */
export const SYM = { e: 0, mul: 1, ldiv: 2, rdiv: 3, a: 4, K: 5, T: 6, L: 7, R: 8 } as const;
export const FIRST_CONSTANT = 16;

const BUILTIN_NAMES = ['e', '*', '\\', '/', 'a', 'K', 'T', 'L', 'R'];
const BUILTIN_ARITY = [0, 2, 2, 2, 3, 2, 2, 3, 3];
/** The defined operations, by name, with their arity. */
export const DEFINED: Record<string, number> = { a: SYM.a, K: SYM.K, T: SYM.T, L: SYM.L, R: SYM.R };

export interface Term {
  readonly id: number;
  /** Function symbol code (>= 0) or, for a variable with index i, -(i + 1). */
  readonly f: number;
  readonly args: readonly Term[];
  /** Number of symbol occurrences (KBO weight with all weights 1). */
  readonly size: number;
  readonly ground: boolean;
  /** Largest variable index occurring, or -1. */
  readonly maxVar: number;
  /** Scratch for provers: rewriting stamp up to which this term is known irreducible. */
  irred: number;
  /** Scratch for provers: a known reduct of this term (a normal form when `memoAt` is current). */
  memo: Term | undefined;
  memoAt: number;
}

interface ChainedTerm extends Term {
  readonly hash?: number;
  /** Id of the next term in the same hash bucket, or -1. */
  hnext: number;
}

export const isVar = (t: Term): boolean => t.f < 0;
export const varIndex = (t: Term): number => -t.f - 1;
export const isInfix = (f: number): boolean => f === SYM.mul || f === SYM.ldiv || f === SYM.rdiv;

export class TermBank {
  private buckets = new Int32Array(1 << 12).fill(-1);
  private mask = (1 << 12) - 1;
  /** Terms by id (variables included; their `hash` is undefined). */
  private readonly byId: ChainedTerm[] = [];
  private readonly vars: Term[] = [];
  private count = 0;
  private readonly names: string[] = [...BUILTIN_NAMES];
  private readonly arities: number[] = [...BUILTIN_ARITY];
  private readonly constantCodes = new Map<string, number>();
  private nextId = 0;

  constructor() {
    while (this.names.length < FIRST_CONSTANT) {
      this.names.push(`?${this.names.length}`);
      this.arities.push(-1);
    }
  }

  get termCount(): number {
    return this.count;
  }

  /** The code of the named constant, created on first use. */
  constant(name: string): number {
    let code = this.constantCodes.get(name);
    if (code === undefined) {
      code = this.names.length;
      this.names.push(name);
      this.arities.push(0);
      this.constantCodes.set(name, code);
    }
    return code;
  }

  isConstantName(name: string): boolean {
    return this.constantCodes.has(name);
  }

  symbolName(f: number): string {
    return this.names[f] ?? `?${f}`;
  }

  arity(f: number): number {
    return this.arities[f] ?? -1;
  }

  v(i: number): Term {
    let t = this.vars[i];
    if (!t) {
      const v: ChainedTerm = { id: this.nextId++, f: -(i + 1), args: [], size: 1, ground: false, maxVar: i, irred: -1, memo: undefined, memoAt: -1, hnext: -1 };
      this.byId[v.id] = v;
      this.vars[i] = v;
      t = v;
      this.count++;
    }
    return t;
  }

  /**
   * Hash-consing in an open hash table of chained term ids (a string key per lookup made `app` and
   * the garbage collector the top of the completion profile; a Map with numeric keys was next).
   */
  app(f: number, args: readonly Term[]): Term {
    let h = Math.imul(f + 1, 0x9e3779b1);
    for (let k = 0; k < args.length; k++) h = Math.imul(h ^ (args[k] as Term).id, 0x85ebca6b) + k;
    h = (h ^ (h >>> 15)) | 0;
    const byId = this.byId;
    const slot = h & this.mask;
    for (let c = this.buckets[slot] as number; c >= 0; ) {
      const t = byId[c] as ChainedTerm;
      if (t.hash === h && t.f === f && t.args.length === args.length) {
        let same = true;
        for (let k = 0; k < args.length; k++) {
          if (t.args[k] !== args[k]) {
            same = false;
            break;
          }
        }
        if (same) return t;
      }
      c = t.hnext;
    }
    let size = 1;
    let ground = true;
    let maxVar = -1;
    for (const a of args) {
      size += a.size;
      ground &&= a.ground;
      if (a.maxVar > maxVar) maxVar = a.maxVar;
    }
    const id = this.nextId++;
    const t: ChainedTerm = { id, f, args, size, ground, maxVar, irred: -1, memo: undefined, memoAt: -1, hash: h, hnext: this.buckets[slot] as number };
    byId[id] = t;
    this.buckets[slot] = id;
    this.count++;
    if (this.count > this.buckets.length) this.grow();
    return t;
  }

  private grow(): void {
    const size = this.buckets.length * 2;
    this.buckets = new Int32Array(size).fill(-1);
    this.mask = size - 1;
    for (const t of this.byId) {
      if (!t || t.hash === undefined) continue;
      const slot = t.hash & this.mask;
      t.hnext = this.buckets[slot] as number;
      this.buckets[slot] = t.id;
    }
  }

  const(name: string): Term {
    return this.app(this.constant(name), []);
  }

  /** Same term in this bank (terms from another bank are rebuilt; constants keep their names). */
  import(t: Term, from: TermBank): Term {
    if (from === this) return t;
    if (t.f < 0) return this.v(varIndex(t));
    const args = t.args.map((a) => this.import(a, from));
    const f = t.f < FIRST_CONSTANT ? t.f : this.constant(from.symbolName(t.f));
    return this.app(f, args);
  }
}

export interface Equation {
  lhs: Term;
  rhs: Term;
}

/** Variable names for printing: index 0..5 as x y z w u v, later ones as v6, v7, ... */
export const defaultVarName = (i: number): string => ['x', 'y', 'z', 'w', 'u', 'v'][i] ?? `v${i}`;

/**
 * The ARTICLE's concrete syntax: infix operators fully parenthesised when nested, defined
 * operations applied as `T(u,x)`.
 */
export function printTerm(bank: TermBank, t: Term, varName: (i: number) => string = defaultVarName): string {
  const go = (u: Term, nested: boolean): string => {
    if (u.f < 0) return varName(varIndex(u));
    if (isInfix(u.f)) {
      const [l, r] = u.args as [Term, Term];
      const s = `${go(l, true)} ${bank.symbolName(u.f)} ${go(r, true)}`;
      return nested ? `(${s})` : s;
    }
    if (u.args.length === 0) return bank.symbolName(u.f);
    return `${bank.symbolName(u.f)}(${u.args.map((a) => go(a, false)).join(',')})`;
  };
  return go(t, false);
}

export const printEquation = (bank: TermBank, eq: Equation, varName?: (i: number) => string): string =>
  `${printTerm(bank, eq.lhs, varName)} = ${printTerm(bank, eq.rhs, varName)}`;

/** A position is a path of 1-based argument indices from the root. */
export type Position = readonly number[];

export function subtermAt(t: Term, pos: Position): Term | undefined {
  let u: Term | undefined = t;
  for (const i of pos) {
    u = u.args[i - 1];
    if (!u) return undefined;
  }
  return u;
}

export function replaceAt(bank: TermBank, t: Term, pos: Position, by: Term, depth = 0): Term {
  if (depth === pos.length) return by;
  const i = (pos[depth] as number) - 1;
  const args = t.args.slice();
  const child = args[i];
  if (!child) throw new Error(`no position ${pos.join('.')}`);
  args[i] = replaceAt(bank, child, pos, by, depth + 1);
  return bank.app(t.f, args);
}

/** All positions of t, preorder (root first, then arguments left to right). */
export function positions(t: Term): number[][] {
  const out: number[][] = [];
  const walk = (u: Term, path: number[]): void => {
    out.push(path);
    u.args.forEach((a, i) => walk(a, [...path, i + 1]));
  };
  walk(t, []);
  return out;
}

/** Variable indices in order of first occurrence (preorder). */
export function varsInOrder(terms: readonly Term[]): number[] {
  const seen: number[] = [];
  const walk = (u: Term): void => {
    if (u.ground) return;
    if (u.f < 0) {
      const i = varIndex(u);
      if (!seen.includes(i)) seen.push(i);
      return;
    }
    for (const a of u.args) walk(a);
  };
  terms.forEach(walk);
  return seen;
}

/** Constant names in order of first occurrence. */
export function constantsInOrder(bank: TermBank, terms: readonly Term[]): string[] {
  const seen: string[] = [];
  const walk = (u: Term): void => {
    if (u.f >= FIRST_CONSTANT) {
      const n = bank.symbolName(u.f);
      if (!seen.includes(n)) seen.push(n);
    }
    for (const a of u.args) walk(a);
  };
  terms.forEach(walk);
  return seen;
}
