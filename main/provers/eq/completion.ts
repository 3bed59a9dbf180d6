/**
 * Unfailing Knuth-Bendix completion with ordered rewriting (the Waldmeister/discount loop), goal
 * directed: the ground goal's two sides are kept in normal form and the proof is found when they
 * meet. Every kept equation carries a rewrite chain from its left to its right side built from
 * its parents, so a success yields a checkable proof (lemmas in creation order, then the goal chain).
 *
 * Only selected equations get chains; critical pairs wait in the passive queue as their two raw
 * sides plus the overlap, and are renormalised, with recording, when selected.
 */
import { DiscriminationTree } from './discrimination-tree.ts';
import { type Comparison, kboCompare, kboGreater } from './kbo.ts';
import { lpoCompare, lpoGreater } from './lpo.ts';
import { type ChainStep, type Direction, type EqProof, flip, type Lemma, reverseChain } from './proof.ts';
import { applySubst, match, normalizeVars, shiftVars, unify } from './substitution.ts';
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
  /** Every n-th selection takes the oldest pair instead of the lightest (fairness). */
  fifoEvery?: number;
  /** Hand the event loop back this often (ms), so a shell stays responsive. */
  sliceMs?: number;
  /** Term order: size-based KBO (default) or LPO with the defined operations on top. */
  order?: 'kbo' | 'lpo';
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
}

interface View {
  eq: Eqn;
  dir: Direction;
  l: Term;
  r: Term;
  /** Unorientable equation: an instance may be used only where it decreases. */
  check: boolean;
}

type Origin =
  | { kind: 'axiom'; name: string }
  | { kind: 'cp'; v1: View; v2: View; pos: Position; peak: Term }
  | { kind: 'reduced'; from: Eqn };

interface Passive {
  rawS: Term;
  rawT: Term;
  origin: Origin;
  weight: number;
  age: number;
  done: boolean;
}

interface RecStep {
  pos: number[];
  view: View;
  sub: Term;
}

class Heap {
  private readonly a: Passive[] = [];
  get size(): number {
    return this.a.length;
  }
  private less(x: Passive, y: Passive): boolean {
    return x.weight < y.weight || (x.weight === y.weight && x.age < y.age);
  }
  push(p: Passive): void {
    const a = this.a;
    a.push(p);
    let i = a.length - 1;
    while (i > 0) {
      const j = (i - 1) >> 1;
      if (!this.less(a[i] as Passive, a[j] as Passive)) break;
      [a[i], a[j]] = [a[j] as Passive, a[i] as Passive];
      i = j;
    }
  }
  pop(): Passive | undefined {
    const a = this.a;
    const top = a[0];
    const last = a.pop();
    if (a.length > 0 && last) {
      a[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < a.length && this.less(a[l] as Passive, a[m] as Passive)) m = l;
        if (r < a.length && this.less(a[r] as Passive, a[m] as Passive)) m = r;
        if (m === i) break;
        [a[i], a[m]] = [a[m] as Passive, a[i] as Passive];
        i = m;
      }
    }
    return top;
  }
}

export class Completion {
  readonly bank = new TermBank();
  private readonly index = new DiscriminationTree<View>();
  private readonly active: Eqn[] = [];
  private readonly eqns = new Map<string, Eqn>();
  private readonly heap = new Heap();
  private readonly fifo: Passive[] = [];
  private fifoHead = 0;
  private age = 0;
  private nextId = 0;
  private nfCache = new Map<number, Term>();
  private goalS: Term;
  private goalT: Term;
  private goalStepsS: ChainStep[] = [];
  private goalStepsT: ChainStep[] = [];
  private readonly goalS0: Term;
  private readonly goalT0: Term;
  private selections = 0;
  private generated = 0;
  private readonly maxSide: number;
  private readonly fifoEvery: number;
  private readonly greater: (s: Term, t: Term) => boolean;
  private readonly compare: (s: Term, t: Term) => Comparison;

  constructor(sourceBank: TermBank, axioms: readonly CompletionAxiom[], goal: { lhs: Term; rhs: Term }, private readonly options: CompletionOptions) {
    this.goalS0 = this.goalS = this.bank.import(goal.lhs, sourceBank);
    this.goalT0 = this.goalT = this.bank.import(goal.rhs, sourceBank);
    this.maxSide = options.maxSideSize ?? Math.max(24, Math.max(this.goalS.size, this.goalT.size) + 8);
    this.fifoEvery = options.fifoEvery ?? 7;
    this.greater = options.order === 'lpo' ? lpoGreater : kboGreater;
    this.compare = options.order === 'lpo' ? lpoCompare : kboCompare;
    for (const ax of axioms) {
      const lhs = this.bank.import(ax.lhs, sourceBank);
      const rhs = this.bank.import(ax.rhs, sourceBank);
      this.pushPassive({ rawS: lhs, rawT: rhs, origin: { kind: 'axiom', name: ax.name }, weight: 0, age: this.age++, done: false });
    }
  }

  stats(start: number): CompletionStats {
    return { selected: this.selections, active: this.active.filter((e) => e.alive).length, generated: this.generated, ms: Date.now() - start };
  }

  private pushPassive(p: Passive): void {
    this.heap.push(p);
    this.fifo.push(p);
  }

  private select(): Passive | undefined {
    this.selections++;
    if (this.selections % this.fifoEvery === 0) {
      while (this.fifoHead < this.fifo.length) {
        const p = this.fifo[this.fifoHead++] as Passive;
        if (!p.done) {
          p.done = true;
          return p;
        }
      }
    }
    for (;;) {
      const p = this.heap.pop();
      if (!p) return undefined;
      if (!p.done) {
        p.done = true;
        if (this.fifoHead > 4096 && this.fifoHead * 2 > this.fifo.length) {
          this.fifo.splice(0, this.fifoHead);
          this.fifoHead = 0;
        }
        return p;
      }
    }
  }

  // ---- rewriting -------------------------------------------------------------------------

  private rewriteRoot(t: Term): { view: View; result: Term } | undefined {
    let found: { view: View; result: Term } | undefined;
    this.index.retrieve(t, (view) => {
      if (!view.eq.alive) return false;
      const s = match(view.l, t);
      if (!s) return false;
      const result = applySubst(this.bank, view.r, s);
      if (view.check && !this.greater(t, result)) return false;
      found = { view, result };
      return true;
    });
    return found;
  }

  /** Innermost normal form; with `rec`, every step is recorded with its position. */
  private nf(t: Term, rec: RecStep[] | null, path: number[]): Term {
    const cached = this.nfCache.get(t.id);
    if (cached !== undefined && (rec === null || cached === t)) return cached;
    const start = t;
    let cur = t;
    for (;;) {
      if (cur.args.length > 0) {
        let changed = false;
        const args = cur.args.map((a, i) => {
          path.push(i + 1);
          const b = this.nf(a, rec, path);
          path.pop();
          if (b !== a) changed = true;
          return b;
        });
        if (changed) cur = this.bank.app(cur.f, args);
      }
      const step = this.rewriteRoot(cur);
      if (!step) break;
      if (rec) rec.push({ pos: path.slice(), view: step.view, sub: step.result });
      cur = step.result;
    }
    this.nfCache.set(start.id, cur);
    this.nfCache.set(cur.id, cur);
    return cur;
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
    const term = this.nf(t, rec, []);
    return { term, steps: this.recordedChain(t, rec) };
  }

  // ---- activation ------------------------------------------------------------------------

  private viewsOf(eq: Eqn): View[] {
    const views: View[] = [{ eq, dir: 'lr', l: eq.lhs, r: eq.rhs, check: !eq.oriented }];
    if (!eq.oriented) views.push({ eq, dir: 'rl', l: eq.rhs, r: eq.lhs, check: true });
    // A view whose right side has variables its left side lacks cannot rewrite.
    return views.filter((v) => v.l.f >= 0 && v.r.maxVar <= v.l.maxVar && varsSubset(v.r, v.l));
  }

  private subsumed(s: Term, t: Term): boolean {
    let hit = false;
    this.index.retrieve(s, (view) => {
      if (!view.eq.alive) return false;
      const m = match(view.l, s);
      if (m && applySubst(this.bank, view.r, m) === t) hit = true;
      return hit;
    });
    return hit;
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
    if (p.origin.kind !== 'axiom' && (this.subsumed(ns.term, nt.term) || this.subsumed(nt.term, ns.term))) return undefined;
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
    };
    this.eqns.set(eq.name, eq);
    this.active.push(eq);
    for (const v of this.viewsOf(eq)) this.index.insert(v.l, v);
    this.nfCache = new Map();
    return eq;
  }

  private interreduce(eq: Eqn): void {
    const views = this.viewsOf(eq);
    for (const a of this.active) {
      if (!a.alive || a === eq) continue;
      if (reducibleBy(this.bank, a.lhs, views, this.greater) || reducibleBy(this.bank, a.rhs, views, this.greater)) {
        a.alive = false;
        this.pushPassive({ rawS: a.lhs, rawT: a.rhs, origin: { kind: 'reduced', from: a }, weight: 0, age: this.age++, done: false });
      }
    }
  }

  private overlaps(v1: View, v2: View, sameEq: boolean): void {
    // v2's left side into non-variable positions of v1's left side.
    const n1 = Math.max(v1.l.maxVar, v1.r.maxVar) + 1;
    const l2 = shiftVars(this.bank, v2.l, n1);
    const r2 = shiftVars(this.bank, v2.r, n1);
    const walk = (u: Term, path: number[]): void => {
      if (u.f < 0) return;
      if (!(sameEq && path.length === 0 && v1.dir === v2.dir)) {
        if (u.f === l2.f || l2.f < 0) this.tryOverlap(v1, v2, path, u, l2, r2);
      }
      u.args.forEach((a, i) => {
        path.push(i + 1);
        walk(a, path);
        path.pop();
      });
    };
    walk(v1.l, []);
  }

  private tryOverlap(v1: View, v2: View, path: number[], u: Term, l2: Term, r2: Term): void {
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
    const a = this.nf(rawS, null, []);
    const b = this.nf(rawT, null, []);
    if (a === b) return;
    if (a.size > this.maxSide || b.size > this.maxSide) return;
    const weight = a.size + b.size;
    this.pushPassive({ rawS, rawT, origin: { kind: 'cp', v1, v2, pos: path.slice(), peak }, weight, age: this.age++, done: false });
  }

  private criticalPairs(eq: Eqn): void {
    const mine = this.viewsOf(eq);
    for (const a of this.active) {
      if (!a.alive) continue;
      if (Date.now() > this.options.deadline) return;
      const theirs = a === eq ? mine : this.viewsOf(a);
      for (const v1 of mine) {
        for (const v2 of theirs) {
          this.overlaps(v1, v2, a === eq);
          if (a !== eq) this.overlaps(v2, v1, false);
        }
      }
    }
  }

  private updateGoal(eq: Eqn): EqProof | undefined {
    const s = this.normalizeRecorded(this.goalS);
    const t = this.normalizeRecorded(this.goalT);
    this.goalStepsS.push(...s.steps);
    this.goalStepsT.push(...t.steps);
    this.goalS = s.term;
    this.goalT = t.term;
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
      const p = this.select();
      if (!p) return undefined;
      const eq = this.activate(p);
      if (!eq) continue;
      this.interreduce(eq);
      const proof = this.updateGoal(eq);
      if (proof) return proof;
      this.criticalPairs(eq);
      if (this.active.length > 2 * this.liveCount() + 1000) this.compact();
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

function reducibleBy(bank: TermBank, t: Term, views: readonly View[], greater: (s: Term, t: Term) => boolean): boolean {
  for (const v of views) {
    const f = v.l.f;
    const go = (u: Term): boolean => {
      if (u.f === f) {
        const s = match(v.l, u);
        if (s && (!v.check || greater(u, applySubst(bank, v.r, s)))) return true;
      }
      return u.args.some(go);
    };
    if (go(t)) return true;
  }
  return false;
}

export async function proveByCompletion(sourceBank: TermBank, axioms: readonly CompletionAxiom[], goal: { lhs: Term; rhs: Term }, options: CompletionOptions): Promise<{ proof: EqProof | undefined; bank: TermBank; stats: CompletionStats }> {
  const start = Date.now();
  const c = new Completion(sourceBank, axioms, goal, options);
  const proof = await c.run();
  return { proof, bank: c.bank, stats: c.stats(start) };
}
