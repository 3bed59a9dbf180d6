/**
 * Distance estimates for the advisor protocol ("how many steps to finish the proof after this
 * action"). With a plan (advisor-planner.ts) they are counts along it: the cursor moves still needed
 * to reach the planned position, one rewrite, and the chain's remaining steps; an action off the plan
 * costs more than any action on it. Without a plan, a cheap proxy: the size of the parts where the
 * two sides disagree (`termDistance`, 0 when equal), looked at under the cursor.
 * Used by `arbor advisor` (every message kind) and by the built-in search when no advisor is connected.
 */
import type { Plan, PlanMove } from './advisor-planner.ts';
import { slotOption } from './advisor-slots.ts';
import type { Direction } from './proof.ts';
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
  plan?: Plan;
}

/** The largest distance the wire can carry (two bytes, thousandths). */
export const MAX_ESTIMATE = 65.535;
const clamp = (d: number): number => Math.max(0, Math.min(MAX_ESTIMATE, d));

const isPrefix = (p: readonly number[], of: readonly number[]): boolean => p.length <= of.length && p.every((x, k) => of[k] === x);

const planMove = (plan: Plan, left: boolean): PlanMove => (left ? plan.left : plan.right);

/** Actions left on the plan once the cursor is at `at` on the move's side: the moves down, the rewrite, the rest. */
const onPlan = (move: PlanMove, at: readonly number[]): number => move.pos.length - at.length + 1 + move.rest;

/** The cost of leaving the plan from the root of a side: more than anything on it. */
const offPlan = (move: PlanMove): number => move.pos.length + 2 + move.rest + 2;

/** Message 2 and option slots 0-2: moving the cursor to argument `child` (at the root: 1 = left side, 2 = right side). */
export function moveEstimate(state: CursorState, child: number): number {
  const { m, n, cursor, plan } = state;
  if (!cursor) {
    if (child !== 1 && child !== 2) return MAX_ESTIMATE;
    const left = child === 1;
    // Left first when both sides can take the next step.
    if (plan) return clamp(onPlan(planMove(plan, left), []) + (left ? 0 : 0.5));
    const [side, other] = left ? [m, n] : [n, m];
    return clamp(1 + termDistance(m, n) - (side.size > other.size ? 0.5 : 0));
  }
  const target = [...cursor.pos, child];
  const side = cursor.left ? m : n;
  const other = cursor.left ? n : m;
  if (!subtermAt(side, target)) return MAX_ESTIMATE;
  if (plan) {
    const move = planMove(plan, cursor.left);
    // Off the plan the cursor never comes back up: that costs a detour the plan does not need.
    return clamp(isPrefix(target, move.pos) ? onPlan(move, target) : offPlan(move));
  }
  const here = subtermAt(side, target) as Term;
  const there = subtermAt(other, target);
  if (there === here) return clamp(2 + termDistance(m, n));
  return clamp(1 + (there ? termDistance(here, there) : termDistance(m, n) / 2));
}

/**
 * Message 3 and option slots 3-176: rewriting at the cursor with `name` in `dir`, giving `m1 =? n1`.
 * `after` is what a chain known to join m1 and n1 costs (AIMLEAP actions), if any.
 */
export function rewriteEstimate(state: CursorState, name: string, dir: Direction, m1: Term, n1: Term, after?: number): number {
  if (m1 === n1) return 0;
  const { plan, cursor } = state;
  if (plan && cursor) {
    const move = planMove(plan, cursor.left);
    const same = move.name === name && move.dir === dir && move.pos.length === cursor.pos.length && isPrefix(cursor.pos, move.pos);
    if (same) return clamp(move.rest);
    // A rewrite to a pair a chain joins is judged by that chain (a shortcut wins, a step back loses).
    if (after !== undefined) return clamp(after + 0.5);
    return clamp(offPlan(move) + termDistance(m1, n1) / 4);
  }
  return clamp(after ?? termDistance(m1, n1));
}

/** Message 4: estimates for the options set in a 177-slot mask, in slot order. */
export function batchEstimates(bank: TermBank, state: CursorState, mask: readonly number[], equations: ReadonlyMap<string, RuleEq>, after: (m1: Term, n1: Term) => number | undefined = () => undefined): number[] {
  const out: number[] = [];
  mask.forEach((bit, slot) => {
    if (!bit) return;
    const option = slotOption(slot);
    if (!option) {
      out.push(MAX_ESTIMATE);
      return;
    }
    if (option.kind === 'move') {
      out.push(moveEstimate(state, option.child));
      return;
    }
    const eq = equations.get(option.name);
    const cursor = state.cursor;
    const r = eq && cursor ? rewriteAt(bank, cursor.left ? state.m : state.n, eq, option.dir, cursor.pos) : undefined;
    if (!r || !cursor) {
      // An equation this advisor does not have (or no cursor): no opinion beyond "not better than anything known".
      out.push(state.plan ? clamp(offPlan(state.plan.left)) : clamp(1 + termDistance(state.m, state.n)));
      return;
    }
    const m1 = cursor.left ? r : state.m;
    const n1 = cursor.left ? state.n : r;
    out.push(rewriteEstimate(state, option.name, option.dir, m1, n1, after(m1, n1)));
  });
  return out;
}
