/**
 * What `arbor advisor` knows about the goals of one AIMLEAP connection: ground rewrite chains
 * between terms, found by Arbor's own prover (completion), flattened to single rewrites with the
 * problem's equations and shortened (ground-chain.ts). With a chain through both sides of a pair,
 * the advisor proposes a middle term (message 0: AIMLEAP then proves the two halves separately), and
 * knows the next step from either side — position, equation and direction — so its estimates
 * (messages 2-4) lead AIMLEAP's cursor straight to that rewrite.
 *
 * Costs are AIMLEAP's: a step at depth d costs d + 2 actions (into the side, d moves, the rewrite),
 * and every action uses one unit of its depth budget. A deep step needs more budget, so the middle
 * term balances the halves by 2^depth of their steps rather than by their number: deep steps end up
 * in shallow halves. Searches are bounded per pair and per connection; a pair it cannot solve gets no plan.
 */
import { type GroundChain, groundChain, shortcut, stepCost } from './ground-chain.ts';
import { proveOwn } from './own-schedule.ts';
import { type Direction, flip } from './proof.ts';
import { importProof } from './proof-import.ts';
import type { RuleEq } from './rewrite.ts';
import type { Term, TermBank } from './term.ts';

/** The next rewrite from one side, and the actions the rest of the chain costs after it. */
export interface PlanMove {
  left: boolean;
  pos: number[];
  name: string;
  dir: Direction;
  rest: number;
}

export interface Plan {
  left: PlanMove;
  right: PlanMove;
}

export interface PlannerOptions {
  /** The problem's equations (the preamble), by which the chains rewrite. */
  equations: readonly RuleEq[];
  /** Search budget for one pair without a chain (ms); 0: never search, estimates only. */
  searchMs: number;
  /** All searches of one connection together (ms); default twice `searchMs`. */
  totalSearchMs?: number;
}

export interface PlannerStats {
  searches: number;
  chains: number;
  middleTerms: number;
}

interface Known {
  chain: GroundChain;
  /** prefix[k]: cost of the chain's first k steps. */
  prefix: number[];
  /** weight[k]: 2^depth summed over the first k steps (for balancing halves). */
  weight: number[];
}

export class AdvisorPlanner {
  private readonly known: Known[] = [];
  private readonly where = new Map<number, { c: number; i: number }[]>();
  private readonly tried = new Set<string>();
  private readonly byName: Map<string, RuleEq>;
  private spentMs = 0;
  readonly stats: PlannerStats = { searches: 0, chains: 0, middleTerms: 0 };

  constructor(private readonly bank: TermBank, private readonly options: PlannerOptions) {
    this.byName = new Map(options.equations.map((e) => [e.name, e] as const));
  }

  /** A chain through both terms, with their places on it. */
  private locate(m: Term, n: Term): { k: Known; i: number; j: number } | undefined {
    const a = this.where.get(m.id);
    const b = this.where.get(n.id);
    if (!a || !b) return undefined;
    for (const x of a) for (const y of b) if (x.c === y.c) return { k: this.known[x.c] as Known, i: x.i, j: y.i };
    return undefined;
  }

  /** AIMLEAP actions a known chain needs between the two terms, or undefined. */
  distance(m: Term, n: Term): number | undefined {
    const at = this.locate(m, n);
    return at ? Math.abs((at.k.prefix[at.j] as number) - (at.k.prefix[at.i] as number)) : undefined;
  }

  add(chain: GroundChain): void {
    const c = this.known.length;
    const prefix = [0];
    const weight = [0];
    chain.steps.forEach((st, k) => {
      prefix.push((prefix[k] as number) + stepCost(st));
      weight.push((weight[k] as number) + 2 ** st.pos.length);
    });
    this.known.push({ chain, prefix, weight });
    this.stats.chains++;
    chain.terms.forEach((t, i) => this.where.set(t.id, [...(this.where.get(t.id) ?? []), { c, i }]));
  }

  /** Whether a chain joins the ground pair, searching for one (once per pair, within the budgets) if none is known. */
  async solve(m: Term, n: Term): Promise<boolean> {
    if (this.locate(m, n)) return true;
    if (!m.ground || !n.ground || this.options.searchMs <= 0) return false;
    const key = `${m.id}:${n.id}`;
    if (this.tried.has(key) || this.tried.has(`${n.id}:${m.id}`)) return false;
    this.tried.add(key);
    const budget = Math.min(this.options.searchMs, (this.options.totalSearchMs ?? 2 * this.options.searchMs) - this.spentMs);
    if (budget < 20) return false;
    const t0 = Date.now();
    this.stats.searches++;
    try {
      const r = await proveOwn(this.bank, this.options.equations, { lhs: m, rhs: n }, t0 + budget);
      if (!r.proof || !r.bank) return false;
      const chain = groundChain(this.bank, importProof(r.proof, r.bank, this.bank), this.byName);
      if (!chain || chain.steps.length === 0) return false;
      this.add(shortcut(this.bank, chain, this.options.equations));
      return true;
    } finally {
      this.spentMs += Date.now() - t0;
    }
  }

  /** Middle terms for message 0: a term strictly between the two on a chain, balancing the halves' weights. */
  async middleTerms(m: Term, n: Term): Promise<Term[]> {
    if (!(await this.solve(m, n))) return [];
    const { k, i, j } = this.locate(m, n) as { k: Known; i: number; j: number };
    const lo = Math.min(i, j);
    const hi = Math.max(i, j);
    if (hi - lo < 2) return [];
    const w = k.weight;
    let best = lo + 1;
    for (let s = lo + 1; s < hi; s++) {
      const gap = (x: number): number => Math.abs((w[x] as number) - (w[lo] as number) - ((w[hi] as number) - (w[x] as number)));
      if (gap(s) < gap(best)) best = s;
    }
    this.stats.middleTerms++;
    return [k.chain.terms[best] as Term];
  }

  /** The next step from either side for a pair a chain joins. */
  plan(m: Term, n: Term): Plan | undefined {
    const at = this.locate(m, n);
    if (!at || at.i === at.j) return undefined;
    const { k } = at;
    const cost = (a: number, b: number): number => Math.abs((k.prefix[b] as number) - (k.prefix[a] as number));
    const toward = (from: number, to: number, left: boolean): PlanMove => {
      const forward = from < to;
      const st = forward ? k.chain.steps[from] : k.chain.steps[from - 1];
      if (!st) throw new Error('chain index out of range');
      return { left, pos: [...st.pos], name: st.by, dir: forward ? st.dir : flip(st.dir), rest: cost(forward ? from + 1 : from - 1, to) };
    };
    return { left: toward(at.i, at.j, true), right: toward(at.j, at.i, false) };
  }
}
