/**
 * Unfailing Knuth-Bendix completion with ordered rewriting (the Waldmeister/discount loop), goal
 * directed: the ground goal's two sides are kept in normal form and the proof is found when they
 * meet. Every kept equation carries a rewrite chain from its left to its right side built from
 * its parents, so a success yields a checkable proof (lemmas in creation order, then the goal chain).
 *
 * Only selected equations get chains; critical pairs wait in the passive queue as their two raw
 * sides plus the overlap, and are renormalised, with recording, when selected.
 */
import { fingerprint, unifiableFp } from './fingerprint.ts';
import { type Comparison, kboCompare, kboGreater, type TermOrder } from './kbo.ts';
import { PassiveQueue, type Queued } from './passive-queue.ts';
import { PerfectIndex } from './perfect-index.ts';
import { lpoCompare, lpoGreater } from './lpo.ts';
import { type ChainStep, type Direction, type EqProof, flip, type Lemma, reverseChain } from './proof.ts';
import { applySubst, match, normalizeVars, shiftVars, type Subst, unify } from './substitution.ts';
import { type Position, replaceAt, subtermAt, type Term, TermBank } from './term.ts';

export interface CompletionAxiom {
  name: string;
  lhs: Term;
  rhs: Term;
}

export interface CompletionOptions {
  /** Wall-clock deadline (Date.now() milliseconds). */
  deadline: number;
  signal?: AbortSignal;
  /** Critical pairs with a side larger than this are dropped (incompleteness traded for speed). */
  maxSideSize?: number;
  /** Every n-th selection takes the oldest pair instead of the best (fairness; 0 = never). */
  fifoEvery?: number;
  /** Hand the event loop back this often (ms), so a shell stays responsive. */
  sliceMs?: number;
  /** Term order: size-based KBO (default), KBO with another precedence, or LPO with the defined operations on top. */
  order?: 'kbo' | 'lpo' | TermOrder;
  /** Priority factor for a pair one of whose sides matches a subterm of the goal (goal direction; 1 = off). */
  goalFactor?: number;
  /** Pair priority: sum of the two sides' sizes (default), or 2·larger + smaller (favours one small side). */
  weighting?: 'sum' | 'max';
  /** Stop after this many selections (deterministic probes). */
  maxSelections?: number;
}

export interface CompletionStats {
  selected: number;
  active: number;
  generated: number;
  ms: number;
}

interface Eqn {
  id: number;
  name: string;
  lhs: Term;
  rhs: Term;
  oriented: boolean;
  alive: boolean;
  steps: ChainStep[];
  views: View[];
}

interface View {
  eq: Eqn;
  dir: Direction;
  l: Term;
  r: Term;
  /** Unorientable equation: an instance may be used only where it decreases. */
  check: boolean;
  /** Insertion number: terms stamped irreducible up to `seq` never need this view. */
  seq: number;
  /** l and r with variables shifted by SHIFT, for overlaps into other equations. */
  l2: Term;
  r2: Term;
  fp: Int32Array;
  /** Non-variable subterms of l with their positions and fingerprints (overlap sites). */
  sites: { pos: number[]; term: Term; fp: Int32Array }[];
}

/** Normalisation stopped because a term outgrew the size cap (LPO unfolding can explode). */
class SizeBlowup extends Error {}

/** Variables of the equation overlapped into stay below this; the other's are shifted above it. */
const SHIFT = 64;

type Origin =
  | { kind: 'axiom'; name: string }
  | { kind: 'cp'; v1: View; v2: View; pos: Position; peak: Term }
  | { kind: 'reduced'; from: Eqn };

interface Passive extends Queued {
  rawS: Term;
  rawT: Term;
  origin: Origin;
}

interface RecStep {
  pos: number[];
  view: View;
  sub: Term;
}

export class Completion {
  readonly bank = new TermBank();
  private readonly index = new PerfectIndex<View>();
  private readonly active: Eqn[] = [];
  private readonly eqns = new Map<string, Eqn>();
  private readonly queue: PassiveQueue<Passive>;
  private age = 0;
  private nextId = 0;
  /** Views inserted so far (the irreducibility stamp). */
  private seq = 0;
  private goalS: Term;
  private goalT: Term;
  private goalStepsS: ChainStep[] = [];
  private goalStepsT: ChainStep[] = [];
  private readonly goalS0: Term;
  private readonly goalT0: Term;
  private goalSubterms: Term[] = [];
  private selections = 0;
  private generated = 0;
  private readonly maxSide: number;
  private readonly sizeCap: number;
  private readonly goalFactor: number;
  private readonly greater: (s: Term, t: Term) => boolean;
  private readonly compare: (s: Term, t: Term) => Comparison;
  private readonly fpCache = new Map<number, Int32Array>();
  /** Overlap candidates by root symbol: views by their left side, sites by their subterm. */
  private viewsByRoot: View[][] = [];
  private sitesByRoot: { view: View; site: View['sites'][number] }[][] = [];

  constructor(sourceBank: TermBank, axioms: readonly CompletionAxiom[], goal: { lhs: Term; rhs: Term }, private readonly options: CompletionOptions) {
    this.goalS0 = this.goalS = this.bank.import(goal.lhs, sourceBank);
    this.goalT0 = this.goalT = this.bank.import(goal.rhs, sourceBank);
    this.maxSide = options.maxSideSize ?? Math.max(24, Math.max(this.goalS.size, this.goalT.size) + 8);
    this.sizeCap = 6 * this.maxSide;
    this.queue = new PassiveQueue<Passive>(options.fifoEvery ?? 7);
    this.goalFactor = options.goalFactor ?? 1;
    const order = options.order ?? 'kbo';
    const o: TermOrder = order === 'lpo' ? { greater: lpoGreater, compare: lpoCompare } : order === 'kbo' ? { greater: kboGreater, compare: kboCompare } : order;
    this.greater = o.greater;
    this.compare = o.compare;
    this.refreshGoalSubterms();
    for (const ax of axioms) {
      const lhs = this.bank.import(ax.lhs, sourceBank);
      const rhs = this.bank.import(ax.rhs, sourceBank);
      this.queue.push({ rawS: lhs, rawT: rhs, origin: { kind: 'axiom', name: ax.name }, priority: 0, age: this.age++, done: false });
    }
  }

  stats(start: number): CompletionStats {
    return { selected: this.selections, active: this.liveCount(), generated: this.generated, ms: Date.now() - start };
  }

  private fp(t: Term): Int32Array {
    let f = this.fpCache.get(t.id);
    if (!f) {
      f = fingerprint(t);
      this.fpCache.set(t.id, f);
    }
    return f;
  }

  // ---- rewriting -------------------------------------------------------------------------

  /** One root step with a live view inserted at or after `minSeq`. */
  private rewriteRoot(t: Term, minSeq: number): { view: View; result: Term } | undefined {
    let found: { view: View; result: Term } | undefined;
    this.index.retrieve(t, (view, s) => {
      if (!view.eq.alive || view.seq < minSeq) return false;
      const result = applySubst(this.bank, view.r, s as Subst);
      if (view.check && !this.greater(t, result)) return false;
      found = { view, result };
      return true;
    });
    return found;
  }

  /**
   * Innermost normal form without a record, memoised on the term. A stale memo (made before newer
   * rules) is a valid reduct to continue from; `irred` stamps skip subterms known irreducible.
   */
  private nfq(t: Term): Term {
    const seq = this.seq;
    if (t.irred >= seq) return t;
    if (t.memoAt === seq) return t.memo as Term;
    let cur = t.memo ?? t;
    for (;;) {
      if (cur.irred >= seq) break;
      const n = cur.args.length;
      if (n > 0) {
        let args: Term[] | undefined;
        for (let k = 0; k < n; k++) {
          const a = cur.args[k] as Term;
          const b = this.nfq(a);
          if (b !== a) {
            args ??= cur.args.slice();
            args[k] = b;
          }
        }
        if (args) {
          cur = this.bank.app(cur.f, args);
          if (cur.irred >= seq) break;
        }
      }
      const step = this.rewriteRoot(cur, cur.irred);
      if (!step) {
        cur.irred = seq;
        break;
      }
      cur = step.result;
      if (cur.size > this.sizeCap) throw new SizeBlowup();
    }
    t.memo = cur;
    t.memoAt = seq;
    return cur;
  }

  /** Innermost normal form recording every step with its position. */
  private nfRec(t: Term, rec: RecStep[], path: number[]): Term {
    const seq = this.seq;
    let cur = t;
    for (;;) {
      if (cur.irred >= seq) return cur;
      const n = cur.args.length;
      if (n > 0) {
        let args: Term[] | undefined;
        for (let k = 0; k < n; k++) {
          const a = cur.args[k] as Term;
          path.push(k + 1);
          const b = this.nfRec(a, rec, path);
          path.pop();
          if (b !== a) {
            args ??= cur.args.slice();
            args[k] = b;
          }
        }
        if (args) {
          cur = this.bank.app(cur.f, args);
          if (cur.irred >= seq) return cur;
        }
      }
      const step = this.rewriteRoot(cur, cur.irred);
      if (!step) {
        cur.irred = seq;
        return cur;
      }
      rec.push({ pos: path.slice(), view: step.view, sub: step.result });
      cur = step.result;
      if (cur.size > this.sizeCap) throw new SizeBlowup();
    }
  }

  private recordedChain(start: Term, rec: RecStep[]): ChainStep[] {
    const steps: ChainStep[] = [];
    let cur = start;
    for (const r of rec) {
      cur = replaceAt(this.bank, cur, r.pos, r.sub);
      steps.push({ by: r.view.eq.name, dir: r.view.dir, pos: r.pos, term: cur });
    }
    return steps;
  }

  private normalizeRecorded(t: Term): { term: Term; steps: ChainStep[] } {
    const rec: RecStep[] = [];
    const term = this.nfRec(t, rec, []);
    return { term, steps: rec.length ? this.recordedChain(t, rec) : [] };
  }

  // ---- activation ------------------------------------------------------------------------

  private makeViews(eq: Eqn): View[] {
    const raw: [Direction, Term, Term, boolean][] = [['lr', eq.lhs, eq.rhs, !eq.oriented]];
    if (!eq.oriented) raw.push(['rl', eq.rhs, eq.lhs, true]);
    const views: View[] = [];
    for (const [dir, l, r, check] of raw) {
      // A view whose right side has variables its left side lacks cannot rewrite.
      if (l.f < 0 || r.maxVar > l.maxVar || !varsSubset(r, l)) continue;
      const sites: View['sites'] = [];
      const walk = (u: Term, path: number[]): void => {
        if (u.f < 0) return;
        sites.push({ pos: path.slice(), term: u, fp: this.fp(u) });
        u.args.forEach((a, i) => {
          path.push(i + 1);
          walk(a, path);
          path.pop();
        });
      };
      walk(l, []);
      views.push({ eq, dir, l, r, check, seq: -1, l2: shiftVars(this.bank, l, SHIFT), r2: shiftVars(this.bank, r, SHIFT), fp: this.fp(l), sites });
    }
    return views;
  }

  /** s = t is an instance of a live equation (either way round). */
  private instanceOfActive(s: Term, t: Term): boolean {
    const hit = (a: Term, b: Term): boolean =>
      this.index.retrieve(a, (view, sub) => view.eq.alive && applySubst(this.bank, view.r, sub as Subst) === b);
    return hit(s, t) || hit(t, s);
  }

  /** Subsumption modulo congruence: s = t follows from one live equation's instance at one position. */
  private subsumed(s: Term, t: Term): boolean {
    for (;;) {
      if (s === t) return true;
      if (this.instanceOfActive(s, t)) return true;
      if (s.f < 0 || s.f !== t.f) return false;
      let diff = -1;
      for (let k = 0; k < s.args.length; k++) {
        if (s.args[k] !== t.args[k]) {
          if (diff >= 0) return false;
          diff = k;
        }
      }
      s = s.args[diff] as Term;
      t = t.args[diff] as Term;
    }
  }

  private rawChain(p: Passive): ChainStep[] {
    const o = p.origin;
    if (o.kind === 'axiom') return [{ by: o.name, dir: 'lr', pos: [], term: p.rawT }];
    if (o.kind === 'reduced') return [{ by: o.from.name, dir: 'lr', pos: [], term: p.rawT }];
    return [
      { by: o.v1.eq.name, dir: flip(o.v1.dir), pos: [], term: o.peak },
      { by: o.v2.eq.name, dir: o.v2.dir, pos: o.pos, term: p.rawT },
    ];
  }

  /** Returns the new equation, or undefined when the pair was redundant. */
  private activate(p: Passive): Eqn | undefined {
    const ns = this.normalizeRecorded(p.rawS);
    const nt = this.normalizeRecorded(p.rawT);
    if (ns.term === nt.term) return undefined;
    if (p.origin.kind !== 'axiom' && this.subsumed(ns.term, nt.term)) return undefined;
    let chain = [...reverseChain(p.rawS, ns.steps), ...this.rawChain(p), ...nt.steps];
    let lhs = ns.term;
    let rhs = nt.term;
    const cmp = this.compare(lhs, rhs);
    if (cmp === '<') {
      chain = reverseChain(lhs, chain);
      [lhs, rhs] = [rhs, lhs];
    }
    const { terms } = normalizeVars(this.bank, [lhs, rhs, ...chain.map((c) => c.term)]);
    const id = this.nextId++;
    const eq: Eqn = {
      id,
      name: `E${id}`,
      lhs: terms[0] as Term,
      rhs: terms[1] as Term,
      oriented: cmp !== '?',
      alive: true,
      steps: chain.map((c, k) => ({ ...c, term: terms[k + 2] as Term })),
      views: [],
    };
    eq.views = this.makeViews(eq);
    this.eqns.set(eq.name, eq);
    this.active.push(eq);
    for (const v of eq.views) {
      v.seq = this.seq++;
      this.index.insert(v.l, v);
      (this.viewsByRoot[v.l.f] ??= []).push(v);
      for (const site of v.sites) (this.sitesByRoot[site.term.f] ??= []).push({ view: v, site });
    }
    return eq;
  }

  /** Older equations the new one simplifies go back to the passive set (they return simplified). */
  private interreduce(eq: Eqn): void {
    for (const a of this.active) {
      if (!a.alive || a === eq) continue;
      if (this.reducibleBy(a.lhs, eq.views) || this.reducibleBy(a.rhs, eq.views)) {
        a.alive = false;
        this.queue.push({ rawS: a.lhs, rawT: a.rhs, origin: { kind: 'reduced', from: a }, priority: 0, age: this.age++, done: false });
      }
    }
  }

  private reducibleBy(t: Term, views: readonly View[]): boolean {
    if (t.f < 0) return false;
    for (const v of views) {
      if (v.l.f === t.f && v.l.size <= t.size) {
        const s = match(v.l, t);
        if (s && (!v.check || this.greater(t, applySubst(this.bank, v.r, s)))) return true;
      }
    }
    for (const a of t.args) if (this.reducibleBy(a, views)) return true;
    return false;
  }

  /** v2's left side (variables shifted) unified with v1's left side at `path` (the subterm `u`). */
  private tryOverlap(v1: View, v2: View, path: number[], u: Term, l2: Term, r2: Term): void {
    if (v1.l.maxVar >= SHIFT || v1.r.maxVar >= SHIFT) return;
    const s = unify(this.bank, u, l2);
    if (!s) return;
    const peak = applySubst(this.bank, v1.l, s);
    const rawS = applySubst(this.bank, v1.r, s);
    if (v1.check && this.greater(rawS, peak)) return;
    const inner = applySubst(this.bank, r2, s);
    if (v2.check && this.greater(inner, subtermAt(peak, path) as Term)) return;
    const rawT = replaceAt(this.bank, peak, path, inner);
    if (rawS === rawT) return;
    this.generated++;
    let a: Term;
    let b: Term;
    try {
      a = this.nfq(rawS);
      b = this.nfq(rawT);
    } catch (err) {
      if (err instanceof SizeBlowup) return;
      throw err;
    }
    if (a === b) return;
    if (a.size > this.maxSide || b.size > this.maxSide) return;
    let priority = this.options.weighting === 'max' ? 2 * Math.max(a.size, b.size) + Math.min(a.size, b.size) : a.size + b.size;
    if (this.goalFactor !== 1) {
      // each side that matches a goal subterm could rewrite the goal
      if (this.touchesGoal(a)) priority *= this.goalFactor;
      if (this.touchesGoal(b)) priority *= this.goalFactor;
    }
    this.queue.push({ rawS, rawT, origin: { kind: 'cp', v1, v2, pos: path.slice(), peak }, priority, age: this.age++, done: false });
  }

  /** The term (as a pattern) matches a subterm of the goal's current sides. */
  private touchesGoal(t: Term): boolean {
    if (t.f < 0) return false;
    for (const g of this.goalSubterms) if (g.f === t.f && g.size >= t.size && match(t, g)) return true;
    return false;
  }

  private refreshGoalSubterms(): void {
    const out = new Set<Term>();
    const walk = (u: Term): void => {
      if (u.args.length === 0 || out.has(u)) return;
      out.add(u);
      u.args.forEach(walk);
    };
    walk(this.goalS);
    walk(this.goalT);
    this.goalSubterms = [...out];
  }

  /**
   * All overlaps between the new equation and the active ones (itself included). Candidates come
   * from lists by root symbol (views by their left side's root, overlap sites by theirs), then a
   * fingerprint test, and only then unification.
   */
  private criticalPairs(eq: Eqn): void {
    for (const v1 of eq.views) {
      if (Date.now() > this.options.deadline) return;
      // active left sides into the new equation
      for (const site of v1.sites) {
        const cands = this.viewsByRoot[site.term.f];
        if (!cands) continue;
        for (const v2 of cands) {
          if (!v2.eq.alive) continue;
          if (v2.eq === eq && site.pos.length === 0 && v1.dir === v2.dir) continue;
          if (!unifiableFp(site.fp, v2.fp)) continue;
          this.tryOverlap(v1, v2, site.pos, site.term, v2.l2, v2.r2);
        }
      }
      // the new left side into the active equations
      const sites = this.sitesByRoot[v1.l.f];
      if (!sites) continue;
      for (const { view: v0, site } of sites) {
        if (!v0.eq.alive || v0.eq === eq) continue;
        if (!unifiableFp(site.fp, v1.fp)) continue;
        this.tryOverlap(v0, v1, site.pos, site.term, v1.l2, v1.r2);
      }
    }
  }

  private updateGoal(eq: Eqn): EqProof | undefined {
    const s = this.normalizeRecorded(this.goalS);
    const t = this.normalizeRecorded(this.goalT);
    this.goalStepsS.push(...s.steps);
    this.goalStepsT.push(...t.steps);
    const changed = s.term !== this.goalS || t.term !== this.goalT;
    this.goalS = s.term;
    this.goalT = t.term;
    if (changed) this.refreshGoalSubterms();
    const back = reverseChain(this.goalT0, this.goalStepsT);
    if (this.goalS === this.goalT) return this.extract([...this.goalStepsS, ...back]);
    for (const [l, r, dir] of [[eq.lhs, eq.rhs, 'lr'], [eq.rhs, eq.lhs, 'rl']] as const) {
      const m = match(l, this.goalS);
      if (m && applySubst(this.bank, r, m) === this.goalT) {
        return this.extract([...this.goalStepsS, { by: eq.name, dir, pos: [], term: this.goalT }, ...back]);
      }
    }
    return undefined;
  }
  private extract(goalSteps: ChainStep[]): EqProof {
    const needed = new Set<Eqn>();
    const visit = (steps: ChainStep[]): void => {
      for (const st of steps) {
        const e = this.eqns.get(st.by);
        if (e && !needed.has(e)) {
          needed.add(e);
          visit(e.steps);
        }
      }
    };
    visit(goalSteps);
    // An equation proved by one root step is that step's equation (or an instance of it): alias it.
    const alias = new Map<string, { by: string; dir: Direction }>();
    const resolve = (st: ChainStep): ChainStep => {
      const a = alias.get(st.by);
      return a ? { ...st, by: a.by, dir: a.dir === 'lr' ? st.dir : flip(st.dir) } : st;
    };
    const lemmas: Lemma[] = [];
    for (const e of [...needed].sort((x, y) => x.id - y.id)) {
      const steps = e.steps.map(resolve);
      const only = steps[0];
      if (steps.length === 1 && only && only.pos.length === 0) {
        alias.set(e.name, { by: only.by, dir: only.dir });
        continue;
      }
      lemmas.push({ name: e.name.replace(/^E/, 'L'), lhs: e.lhs, rhs: e.rhs, steps });
    }
    const rename = (st: ChainStep): ChainStep => (this.eqns.has(st.by) ? { ...st, by: st.by.replace(/^E/, 'L') } : st);
    for (const l of lemmas) l.steps = l.steps.map(rename);
    return { lemmas, lhs: this.goalS0, rhs: this.goalT0, steps: goalSteps.map(resolve).map(rename) };
  }

  /** Runs until a proof is found, the queue is exhausted, or the deadline passes. */
  async run(): Promise<EqProof | undefined> {
    if (this.goalS === this.goalT) return { lemmas: [], lhs: this.goalS0, rhs: this.goalT0, steps: [] };
    const sliceMs = this.options.sliceMs ?? 50;
    let sliceStart = Date.now();
    for (;;) {
      const now = Date.now();
      if (now > this.options.deadline || this.options.signal?.aborted) return undefined;
      if (now - sliceStart > sliceMs) {
        await new Promise((r) => setTimeout(r, 0));
        sliceStart = Date.now();
      }
      if (this.options.maxSelections !== undefined && this.selections >= this.options.maxSelections) return undefined;
      this.selections++;
      const p = this.queue.pop();
      if (!p) return undefined;
      let eq: Eqn | undefined;
      try {
        eq = this.activate(p);
      } catch (err) {
        if (err instanceof SizeBlowup) continue;
        throw err;
      }
      if (!eq) continue;
      this.interreduce(eq);
      let proof: EqProof | undefined;
      try {
        proof = this.updateGoal(eq);
      } catch (err) {
        // the goal itself outgrew the cap under this order: give up this configuration
        if (err instanceof SizeBlowup) return undefined;
        throw err;
      }
      if (proof) return proof;
      this.criticalPairs(eq);
      if (this.active.length > 2 * this.liveCount() + 200) this.compact();
    }
  }

  private liveCount(): number {
    let n = 0;
    for (const a of this.active) if (a.alive) n++;
    return n;
  }

  private compact(): void {
    const live = this.active.filter((a) => a.alive);
    this.active.length = 0;
    this.active.push(...live);
    this.index.prune((v) => !v.eq.alive);
    this.viewsByRoot = this.viewsByRoot.map((vs) => vs.filter((v) => v.eq.alive));
    this.sitesByRoot = this.sitesByRoot.map((ss) => ss.filter((x) => x.view.eq.alive));
  }
}

function varsSubset(t: Term, of: Term): boolean {
  if (t.ground) return true;
  if (t.f < 0) return occurs(t, of);
  return t.args.every((a) => varsSubset(a, of));
}

function occurs(v: Term, t: Term): boolean {
  if (t === v) return true;
  if (t.ground) return false;
  return t.args.some((a) => occurs(v, a));
}

export async function proveByCompletion(sourceBank: TermBank, axioms: readonly CompletionAxiom[], goal: { lhs: Term; rhs: Term }, options: CompletionOptions): Promise<{ proof: EqProof | undefined; bank: TermBank; stats: CompletionStats }> {
  const start = Date.now();
  const c = new Completion(sourceBank, axioms, goal, options);
  const proof = await c.run();
  return { proof, bank: c.bank, stats: c.stats(start) };
}
