/** Single rewrite steps on a term: at a given position or at the first position that matches. */
import { kboGreater } from './kbo.ts';
import type { ChainStep, Direction } from './proof.ts';
import { applySubst, match } from './substitution.ts';
import { positions, type Position, replaceAt, SYM, subtermAt, type Term, type TermBank, varIndex } from './term.ts';

export interface RuleEq {
  name: string;
  lhs: Term;
  rhs: Term;
}

/** Rewrites `t` at `pos` with `rule` in `dir`; variables only on the target side become `e`. */
export function rewriteAt(bank: TermBank, t: Term, rule: RuleEq, dir: Direction, pos: Position): Term | undefined {
  const sub = subtermAt(t, pos);
  if (!sub) return undefined;
  const [from, to] = dir === 'lr' ? [rule.lhs, rule.rhs] : [rule.rhs, rule.lhs];
  const s = match(from, sub);
  if (!s) return undefined;
  const fill = (u: Term): void => {
    if (u.f < 0 && s[varIndex(u)] === undefined) s[varIndex(u)] = bank.app(SYM.e, []);
    u.args.forEach(fill);
  };
  fill(to);
  return replaceAt(bank, t, pos, applySubst(bank, to, s));
}

export function rewriteFirst(bank: TermBank, t: Term, rule: RuleEq, dir: Direction): { term: Term; pos: number[] } | undefined {
  for (const pos of positions(t)) {
    const r = rewriteAt(bank, t, rule, dir, pos);
    if (r) return { term: r, pos };
  }
  return undefined;
}

/** Normal form under the rules that decrease in KBO (terminating); records the chain. */
export function normalizeDecreasing(bank: TermBank, t: Term, rules: readonly RuleEq[], maxSteps = 10_000): { term: Term; steps: ChainStep[] } {
  const oriented: { rule: RuleEq; dir: Direction }[] = [];
  for (const r of rules) {
    if (kboGreater(r.lhs, r.rhs)) oriented.push({ rule: r, dir: 'lr' });
    else if (kboGreater(r.rhs, r.lhs)) oriented.push({ rule: r, dir: 'rl' });
  }
  const steps: ChainStep[] = [];
  let cur = t;
  outer: while (steps.length < maxSteps) {
    for (const pos of positions(cur).reverse()) {
      for (const { rule, dir } of oriented) {
        const next = rewriteAt(bank, cur, rule, dir, pos);
        if (next && next !== cur) {
          cur = next;
          steps.push({ by: rule.name, dir, pos, term: cur });
          continue outer;
        }
      }
    }
    break;
  }
  return { term: cur, steps };
}
