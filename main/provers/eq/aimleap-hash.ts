/**
 * AIMLEAP's names for a goal's fixed variables. AIMLEAP Skolemises a theorem's variables with
 * SHA-256 hashes built from the theorem's clause (`negate_clause` and the `*_root` functions of its
 * `src/syntax.ml`): a term's root is the hex SHA-256 of `AIMtmVar:i`, `AIMtmPrim:op:spine` or
 * `AIMtmAbbrev:def:spine` (a spine is `""` or `AIMcons:head:tail`), an equation's `AIMEq:l:r`, a
 * one-literal clause's `AIMcl:lit:`, and variable j of that clause becomes the constant
 * `SkolemFor:clause:j`. Variables are numbered by first occurrence read from the right end. A
 * defined operation's root is the root of its definiens over its parameters (Var 0, 1, …).
 *
 * Sending these exact hashes lets an advisor trained on AIMLEAP's traffic recognise the goal's
 * constants. Constants with no AIMLEAP counterpart (a name introduced later, e.g. by `trans`) get a
 * stable hash of their own name, which no AIMLEAP run produces.
 */
import { createHash } from 'node:crypto';
import { parseArticle } from './article.ts';
import { DEFAULT_PRELUDE } from './default-prelude.ts';
import { FIRST_CONSTANT, SYM, type Term, TermBank, varIndex } from './term.ts';

const sha256 = (s: string): string => createHash('sha256').update(s, 'latin1').digest('hex');

const PRIM_NAME: Record<number, string> = { [SYM.e]: 'e', [SYM.mul]: '*', [SYM.ldiv]: '\\', [SYM.rdiv]: '/' };

let abbrevRoots: Map<number, string> | undefined;

/** The roots AIMLEAP gives `a K T L R` (from the standard definitions, as its `DefDecl` does). */
export function abbreviationRoots(): Map<number, string> {
  if (abbrevRoots) return abbrevRoots;
  const bank = new TermBank();
  const roots = new Map<number, string>();
  for (const eq of parseArticle(bank, DEFAULT_PRELUDE).equations) {
    if (eq.kind !== 'definition') continue;
    roots.set(eq.lhs.f, termRoot(bank, eq.rhs, new Map(), roots));
  }
  abbrevRoots = roots;
  return roots;
}

/**
 * The AIMLEAP root of `t`. Variables keep their index; a constant listed in `asVar` is read as that
 * variable (a goal's fixed variables before Skolemisation), any other constant as a Skolem constant.
 */
export function termRoot(bank: TermBank, t: Term, asVar: ReadonlyMap<string, number>, roots: ReadonlyMap<number, string> = abbreviationRoots()): string {
  if (t.f < 0) return sha256(`AIMtmVar:${varIndex(t)}`);
  if (t.f >= FIRST_CONSTANT) {
    const name = bank.symbolName(t.f);
    const v = asVar.get(name);
    return v === undefined ? sha256(`AIMtmSkolem:${constantHex(name)}`) : sha256(`AIMtmVar:${v}`);
  }
  let spine = '';
  for (let k = t.args.length - 1; k >= 0; k--) spine = sha256(`AIMcons:${termRoot(bank, t.args[k] as Term, asVar, roots)}:${spine}`);
  const prim = PRIM_NAME[t.f];
  if (prim !== undefined) return sha256(`AIMtmPrim:${prim}:${spine}`);
  const def = roots.get(t.f);
  if (def === undefined) throw new Error(`no AIMLEAP root for symbol ${bank.symbolName(t.f)}`);
  return sha256(`AIMtmAbbrev:${def}:${spine}`);
}

/** The root of the one-literal clause `lhs = rhs` (AIMLEAP's `clause_root`). */
export function equationClauseRoot(bank: TermBank, lhs: Term, rhs: Term, asVar: ReadonlyMap<string, number>): string {
  const lit = sha256(`AIMEq:${termRoot(bank, lhs, asVar)}:${termRoot(bank, rhs, asVar)}`);
  return sha256(`AIMcl:${lit}:`);
}

/**
 * The Skolem constants AIMLEAP uses for the theorem `lhs = rhs` whose fixed variables are the
 * constants of these terms: constant name → 64 lowercase hex characters.
 */
export function aimleapSkolems(bank: TermBank, lhs: Term, rhs: Term): Map<string, string> {
  // AIMLEAP's parser numbers a statement's variables by first occurrence read from the right end
  // (right side first, arguments right to left): in `x * y = x`, x is 0 and y is 1.
  const order: string[] = [];
  const walk = (u: Term): void => {
    if (u.f >= FIRST_CONSTANT) {
      const n = bank.symbolName(u.f);
      if (!order.includes(n)) order.push(n);
    }
    for (let k = u.args.length - 1; k >= 0; k--) walk(u.args[k] as Term);
  };
  walk(rhs);
  walk(lhs);
  const asVar = new Map(order.map((n, i) => [n, i] as const));
  const clause = equationClauseRoot(bank, lhs, rhs, asVar);
  return new Map(order.map((n, i) => [n, sha256(`SkolemFor:${clause}:${i}`)] as const));
}

export const isSkolemHex = (s: string): boolean => /^[0-9a-f]{64}$/.test(s);

/** A constant's wire name when no theorem names it: itself if already a hash, else a hash of the name. */
export const constantHex = (name: string): string => (isSkolemHex(name) ? name : sha256(`ArborConstant:${name}`));
