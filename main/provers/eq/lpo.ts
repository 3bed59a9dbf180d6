/**
 * Lexicographic path order. Its precedence puts the defined operations and `*` on top, so they
 * unfold into divisions the way E's automatic mode orients this theory; as a second ordering it
 * solves a different set of AIM problems than the size-based KBO.
 */
import { FIRST_CONSTANT, SYM, type Term } from './term.ts';
import type { Comparison } from './kbo.ts';

const PRECEDENCE: number[] = [];
[SYM.e, SYM.rdiv, SYM.ldiv, SYM.R, SYM.mul, SYM.L, SYM.T, SYM.K, SYM.a].forEach((f, i) => {
  PRECEDENCE[f] = 1000 + i;
});
const prec = (f: number): number => (f >= FIRST_CONSTANT ? f - FIRST_CONSTANT : (PRECEDENCE[f] ?? 0));

function occurs(v: Term, t: Term): boolean {
  if (t === v) return true;
  if (t.ground) return false;
  return t.args.some((a) => occurs(v, a));
}

export function lpoGreater(s: Term, t: Term): boolean {
  if (s === t || s.f < 0) return false;
  if (t.f < 0) return occurs(t, s);
  for (const a of s.args) if (a === t || lpoGreater(a, t)) return true;
  const ps = prec(s.f);
  const pt = prec(t.f);
  if (ps > pt) return t.args.every((b) => lpoGreater(s, b));
  if (ps < pt) return false;
  const n = s.args.length;
  for (let k = 0; k < n; k++) {
    const a = s.args[k] as Term;
    const b = t.args[k] as Term;
    if (a !== b) {
      if (!lpoGreater(a, b)) return false;
      for (let j = k + 1; j < n; j++) if (!lpoGreater(s, t.args[j] as Term)) return false;
      return true;
    }
  }
  return false;
}

export function lpoCompare(s: Term, t: Term): Comparison {
  if (s === t) return '=';
  if (lpoGreater(s, t)) return '>';
  if (lpoGreater(t, s)) return '<';
  return '?';
}
