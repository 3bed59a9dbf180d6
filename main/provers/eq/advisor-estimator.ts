/**
 * Arbor's own distance estimates for the advisor protocol: how far a pair of terms is from being
 * equal, measured as the size of the parts where the two trees disagree (a cheap, honest proxy;
 * 0 when equal). Used by `arbor advisor` and by the built-in search when no advisor is connected.
 */
import { rewriteAt, type RuleEq } from './rewrite.ts';
import { subtermAt, type Term, type TermBank } from './term.ts';

export function termDistance(a: Term, b: Term): number {
  if (a === b) return 0;
  if (a.f !== b.f || a.args.length !== b.args.length) return (a.size + b.size) / 4;
  let d = 0;
  for (let i = 0; i < a.args.length; i++) d += termDistance(a.args[i] as Term, b.args[i] as Term);
  return d;
}

export interface CursorState {
  m: Term;
  n: Term;
  cursor?: { left: boolean; pos: number[] };
}

/** Estimates for the options set in a 177-slot mask, in slot order. */
export function estimateOptions(bank: TermBank, state: CursorState, mask: readonly number[], equations: readonly RuleEq[]): number[] {
  const out: number[] = [];
  const base = termDistance(state.m, state.n);
  const side = state.cursor ? (state.cursor.left ? state.m : state.n) : undefined;
  const other = state.cursor ? (state.cursor.left ? state.n : state.m) : undefined;
  mask.forEach((bit, i) => {
    if (!bit) return;
    if (i < 3) {
      if (!state.cursor || !side || !other) {
        out.push(1 + base / 2 + (i === 0 ? 0 : 0.001));
        return;
      }
      const path = [...state.cursor.pos, i + 1];
      const here = subtermAt(side, path);
      const there = subtermAt(other, path);
      out.push(here && there && here === there ? 5 + base : base + 0.25);
      return;
    }
    const eq = equations[(i - 3) >> 1];
    const dir = (i - 3) % 2 === 0 ? 'lr' : 'rl';
    if (!eq || !state.cursor || !side) {
      out.push(60);
      return;
    }
    const r = rewriteAt(bank, side, eq, dir, state.cursor.pos);
    if (!r) {
      out.push(60);
      return;
    }
    out.push(state.cursor.left ? termDistance(r, state.n) : termDistance(state.m, r));
  });
  return out;
}
