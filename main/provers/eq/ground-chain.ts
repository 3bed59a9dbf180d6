/**
 * A proof as one ground rewrite chain with the ARTICLE's own equations only: every lemma step is
 * replaced by the lemma's chain, instantiated where it is used (a variable that occurs only inside
 * the lemma's chain becomes `e`, the same everywhere, which keeps each step an instance of its
 * equation), then detours that come back to a term already passed are cut out. This is the form
 * AIMLEAP can follow step by step: one rewrite at one position per step.
 */
import { type ChainStep, type EqProof, reverseChain } from './proof.ts';
import { rewriteAt, type RuleEq } from './rewrite.ts';
import { applySubst, matchInto, type Subst } from './substitution.ts';
import { positions, replaceAt, SYM, subtermAt, type Term, type TermBank, varIndex } from './term.ts';

export interface GroundChain {
  /** terms[0] is the start, terms[k + 1] the term after steps[k]. */
  terms: Term[];
  steps: ChainStep[];
}

class Unusable extends Error {}

/** The flattened chain of `proof`, or undefined when it is longer than `maxSteps` or does not replay. */
export function groundChain(bank: TermBank, proof: EqProof, equations: ReadonlyMap<string, RuleEq>, maxSteps = 2000): GroundChain | undefined {
  const lemmas = new Map(proof.lemmas.map((l) => [l.name, l] as const));
  const out: ChainStep[] = [];
  const e = bank.app(SYM.e, []);

  const expand = (cur: Term, step: ChainStep): Term => {
    if (out.length > maxSteps) throw new Unusable('too long');
    const lemma = lemmas.get(step.by);
    if (!lemma) {
      out.push(step);
      return step.term;
    }
    const a = subtermAt(cur, step.pos);
    const b = subtermAt(step.term, step.pos);
    const [from, to] = step.dir === 'lr' ? [lemma.lhs, lemma.rhs] : [lemma.rhs, lemma.lhs];
    const s: Subst = [];
    if (!a || !b || !matchInto(from, a, s) || !matchInto(to, b, s)) throw new Unusable(`lemma ${lemma.name} does not fit`);
    const inner = step.dir === 'lr' ? lemma.steps : reverseChain(lemma.lhs, lemma.steps);
    const bindRest = (t: Term): void => {
      if (t.ground) return;
      if (t.f < 0) {
        if (s[varIndex(t)] === undefined) s[varIndex(t)] = e;
        return;
      }
      t.args.forEach(bindRest);
    };
    inner.forEach((st) => bindRest(st.term));
    let c = cur;
    for (const st of inner) {
      const next = replaceAt(bank, c, step.pos, applySubst(bank, st.term, s));
      c = expand(c, { by: st.by, dir: st.dir, pos: [...step.pos, ...st.pos], term: next });
    }
    if (c !== step.term) throw new Unusable(`lemma ${lemma.name} ends elsewhere`);
    return c;
  };

  try {
    let cur = proof.lhs;
    for (const st of proof.steps) cur = expand(cur, st);
    if (cur !== proof.rhs) return undefined;
  } catch (err) {
    if (err instanceof Unusable) return undefined;
    throw err;
  }
  const chain = withoutDetours(proof.lhs, out);
  return replays(bank, chain, equations) ? chain : undefined;
}

/** Cuts every stretch of the chain that returns to a term already passed. */
export function withoutDetours(start: Term, steps: readonly ChainStep[]): GroundChain {
  const terms: Term[] = [start];
  const kept: ChainStep[] = [];
  const at = new Map<number, number>([[start.id, 0]]);
  for (const st of steps) {
    const seen = at.get(st.term.id);
    if (seen !== undefined) {
      for (const t of terms.splice(seen + 1)) at.delete(t.id);
      kept.splice(seen);
      continue;
    }
    kept.push(st);
    terms.push(st.term);
    at.set(st.term.id, terms.length - 1);
  }
  return { terms, steps: kept };
}

/** Every step is one ground instance of its equation at its position, and nothing else changes. */
function replays(bank: TermBank, chain: GroundChain, equations: ReadonlyMap<string, RuleEq>): boolean {
  return chain.steps.every((st, k) => {
    const eq = equations.get(st.by);
    const before = chain.terms[k] as Term;
    const a = subtermAt(before, st.pos);
    const b = subtermAt(st.term, st.pos);
    if (!eq || !a || !b || !st.term.ground) return false;
    const [from, to] = st.dir === 'lr' ? [eq.lhs, eq.rhs] : [eq.rhs, eq.lhs];
    const s: Subst = [];
    return matchInto(from, a, s) && matchInto(to, b, s) && replaceAt(bank, before, st.pos, b) === st.term;
  });
}

/** What a step costs AIMLEAP: the cursor moves into the side and down to the position, then the rewrite. */
export const stepCost = (st: ChainStep): number => st.pos.length + 2;

/**
 * The cheapest path (by `stepCost`) from the chain's start to its end using one rewrite between any
 * two of its terms: a later term reachable in one step from an earlier one cuts out everything
 * between them. Long chains are left as they are (the search is quadratic-ish in their length).
 */
export function shortcut(bank: TermBank, chain: GroundChain, equations: readonly RuleEq[], maxLength = 300): GroundChain {
  const n = chain.terms.length;
  if (n <= 2 || n > maxLength + 1) return chain;
  const index = new Map(chain.terms.map((t, i) => [t.id, i] as const));
  // The chain's own steps are always there (a step whose equation has a variable on one side only
  // may not be the instance rewriteAt builds).
  const edges: { to: number; step: ChainStep }[][] = chain.terms.map((_, i) => (i < chain.steps.length ? [{ to: i + 1, step: chain.steps[i] as ChainStep }] : []));
  chain.terms.forEach((t, i) => {
    for (const pos of positions(t)) {
      for (const eq of equations) {
        for (const dir of ['lr', 'rl'] as const) {
          const r = rewriteAt(bank, t, eq, dir, pos);
          const j = r ? index.get(r.id) : undefined;
          if (r && j !== undefined && j !== i) (edges[i] as { to: number; step: ChainStep }[]).push({ to: j, step: { by: eq.name, dir, pos, term: r } });
        }
      }
    }
  });
  // Dijkstra over at most a few hundred nodes: a linear scan for the minimum is enough.
  const dist = new Array<number>(n).fill(Infinity);
  const prev: ({ from: number; step: ChainStep } | undefined)[] = new Array(n).fill(undefined);
  const done = new Array<boolean>(n).fill(false);
  dist[0] = 0;
  for (;;) {
    let u = -1;
    for (let i = 0; i < n; i++) if (!done[i] && dist[i] !== Infinity && (u < 0 || (dist[i] as number) < (dist[u] as number))) u = i;
    if (u < 0 || u === n - 1) break;
    done[u] = true;
    for (const { to, step } of edges[u] as { to: number; step: ChainStep }[]) {
      const d = (dist[u] as number) + stepCost(step);
      if (d < (dist[to] as number)) {
        dist[to] = d;
        prev[to] = { from: u, step };
      }
    }
  }
  if (dist[n - 1] === Infinity) return chain;
  const steps: ChainStep[] = [];
  for (let v = n - 1; v !== 0; ) {
    const p = prev[v] as { from: number; step: ChainStep };
    steps.unshift(p.step);
    v = p.from;
  }
  return { terms: [chain.terms[0] as Term, ...steps.map((s) => s.term)], steps };
}
