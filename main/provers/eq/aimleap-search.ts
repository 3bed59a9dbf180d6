/**
 * AIMLEAP's search (bestsearch in `src/aimleap.ml`), over ground goals: at the root, stop if the
 * sides are equal, else ask the advisor for middle terms (split s = k, k = t), then move the cursor
 * into the left or right side; at a cursor, either move to a child or rewrite there with one of the
 * equations in either direction (which returns to the root with the new pair). Options are tried
 * cheapest estimate first and only while the estimate is within the remaining depth budget; each
 * tried option costs one unit of abstract time. Flags as AIMLEAP's: `abslimit`, `maxdepth`,
 * `constdist`. Unlike AIMLEAP, rewriting matches (goal variables are fixed constants), so every
 * result is sound; a silent advisor is dropped instead of waited for; and a middle term costs one
 * unit of abstract time and one unit of depth too (AIMLEAP's split is free, so an advisor that
 * always proposes one would never let it stop), with the deadline checked before every round trip.
 */
import type { Advisor } from './advisor-client.ts';
import { OPTION_SLOTS } from './advisor-codec.ts';
import { termDistance } from './advisor-estimator.ts';
import { moveSlot, rewriteSlot } from './advisor-slots.ts';
import type { ChainStep, Direction, EqProof } from './proof.ts';
import { reverseChain } from './proof.ts';
import { rewriteAt, type RuleEq } from './rewrite.ts';
import { constantsInOrder, subtermAt, type Term, type TermBank } from './term.ts';

export interface AimleapOptions {
  abslimit?: number;
  maxdepth?: number;
  /** Constant distance for every option (AIMLEAP's -constdist); without it: the advisor's batch estimates, or Arbor's own. */
  constdist?: number;
  advisor?: Advisor;
  deadline?: number;
  /** Called when the advisor fails (the search goes on without it). */
  onAdvisorError?: (message: string) => void;
  /** Constants a middle term may contain (default: the goal's); a term with any other constant is not used. */
  constants?: ReadonlySet<string>;
}

class AbsLimit extends Error {}
class NotFound extends Error {}

type Option =
  | { kind: 'move'; child: number; d: number; slot: number | undefined }
  | { kind: 'rw'; eq: RuleEq; dir: Direction; m: Term; n: Term; d: number; slot: number | undefined };

export async function aimleapSearch(bank: TermBank, equations: readonly RuleEq[], goal: { lhs: Term; rhs: Term }, options: AimleapOptions = {}): Promise<EqProof | undefined> {
  const abslimit = options.abslimit ?? 100;
  let abstime = 0;
  const visited = new Set<string>();
  let advisor = options.advisor;
  if (advisor && options.deadline !== undefined) advisor.deadline = options.deadline;
  const allowed = options.constants ?? new Set(constantsInOrder(bank, [goal.lhs, goal.rhs]));
  const usableMiddle = (k: Term): boolean => k.ground && constantsInOrder(bank, [k]).every((c) => allowed.has(c));
  const dropAdvisor = (err: unknown): void => {
    options.onAdvisorError?.((err as Error).message);
    advisor = undefined;
  };
  const pastDeadline = (): boolean => options.deadline !== undefined && Date.now() > options.deadline;
  const tick = (): void => {
    abstime++;
    if (abstime >= abslimit || pastDeadline()) throw new AbsLimit();
  };
  const checkDeadline = (): void => {
    if (pastDeadline()) throw new AbsLimit();
  };
  const order = async (opts: Option[]): Promise<Option[]> => {
    const slotted = opts.filter((o) => o.slot !== undefined);
    if (options.constdist === undefined && advisor && !advisor.broken && slotted.length) {
      checkDeadline();
      const mask = new Array<number>(OPTION_SLOTS).fill(0);
      for (const o of slotted) mask[o.slot as number] = 1;
      try {
        const est = await advisor.batch(mask);
        const bySlot = new Map<number, number>();
        [...new Set(slotted.map((o) => o.slot as number))].sort((a, b) => a - b).forEach((s, i) => bySlot.set(s, est[i] as number));
        // Options AIMLEAP has no slot for (lemmas) keep Arbor's own estimate.
        return opts.map((o) => (o.slot !== undefined && bySlot.has(o.slot) ? { ...o, d: bySlot.get(o.slot) as number } : o)).sort((a, b) => a.d - b.d);
      } catch (err) {
        dropAdvisor(err);
      }
    }
    return [...opts].sort((a, b) => a.d - b.d);
  };
  const dist = (m: Term, n: Term): number => (m === n ? 0 : (options.constdist ?? Math.min(60, termDistance(m, n))));
  const moveDist = (): number => options.constdist ?? 5;

  // Returns the chains of both sides (left side's steps, right side's steps) to a common term.
  const root = async (m: Term, n: Term, l: number): Promise<[ChainStep[], ChainStep[]]> => {
    if (m === n) return [[], []];
    checkDeadline();
    visited.add(`${m.id}:${n.id}`);
    if (advisor && !advisor.broken && l >= 1) {
      let ks: Term[] = [];
      try {
        ks = await advisor.pair(m, n);
      } catch (err) {
        dropAdvisor(err);
      }
      // A middle term equal to a side splits nothing; one with foreign constants proves nothing about the goal.
      for (const k of ks.filter((t) => t !== m && t !== n && usableMiddle(t))) {
        tick();
        try {
          const [a1, a2] = await root(m, k, l - 1);
          const [b1, b2] = await root(k, n, l - 1);
          // m ->* c1 <-* k ->* c2 <-* n: join through k.
          const toK = [...a1, ...reverseChain(k, a2)];
          const fromK = [...b1, ...reverseChain(n, b2)];
          return [[...toK, ...fromK], []];
        } catch (err) {
          if (!(err instanceof NotFound)) throw err;
        }
      }
    }
    checkDeadline();
    advisor?.state(Math.max(m.maxVar, n.maxVar) + 1, m, n);
    const opts = await order([1, 2].map((c) => ({ kind: 'move' as const, child: c, d: moveDist(), slot: moveSlot(c) })).filter((o) => o.d <= l));
    for (const o of opts) {
      if (o.kind !== 'move') continue;
      tick();
      try {
        return await cursor(m, n, o.child === 1, [], l - 1);
      } catch (err) {
        if (!(err instanceof NotFound)) throw err;
      }
    }
    throw new NotFound();
  };

  const cursor = async (m: Term, n: Term, left: boolean, pos: number[], l: number): Promise<[ChainStep[], ChainStep[]]> => {
    checkDeadline();
    advisor?.state(Math.max(m.maxVar, n.maxVar) + 1, m, n, { left, pos });
    const side = left ? m : n;
    const here = subtermAt(side, pos) as Term;
    const opts: Option[] = [];
    here.args.forEach((_, i) => {
      const d = moveDist();
      if (d <= l) opts.push({ kind: 'move', child: i + 1, d, slot: moveSlot(i + 1) });
    });
    for (const eq of equations) {
      for (const dir of ['lr', 'rl'] as const) {
        const r = rewriteAt(bank, side, eq, dir, pos);
        if (!r) continue;
        const m1 = left ? r : m;
        const n1 = left ? n : r;
        if (visited.has(`${m1.id}:${n1.id}`)) continue;
        const d = dist(m1, n1);
        if (d <= l) opts.push({ kind: 'rw', eq, dir, m: m1, n: n1, d, slot: rewriteSlot(eq.name, dir) });
      }
    }
    for (const o of await order(opts)) {
      tick();
      try {
        if (o.kind === 'move') return await cursor(m, n, left, [...pos, o.child], l - 1);
        const step: ChainStep = { by: o.eq.name, dir: o.dir, pos, term: left ? o.m : o.n };
        const [a, b] = await root(o.m, o.n, l - 1);
        return left ? [[step, ...a], b] : [a, [step, ...b]];
      } catch (err) {
        if (!(err instanceof NotFound)) throw err;
      }
    }
    throw new NotFound();
  };

  try {
    const [a, b] = await root(goal.lhs, goal.rhs, options.maxdepth ?? 10);
    return { lemmas: [], lhs: goal.lhs, rhs: goal.rhs, steps: [...a, ...reverseChain(goal.rhs, b)] };
  } catch (err) {
    if (err instanceof AbsLimit || err instanceof NotFound) return undefined;
    throw err;
  }
}
