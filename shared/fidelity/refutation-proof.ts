import { coqOfValue, domainOf, evaluate, truthOf } from './small-evaluator.ts';
import type { EvalEnv, Value } from './small-evaluator.ts';
import type { Binder, Term } from './statement-term.ts';

/**
 * Builds a Coq tactic that proves `t` (truth = true) or `~ t` (truth = false) for the instance in `env`,
 * guided by the bounded evaluator: quantifiers are instantiated with the witnesses the evaluator found,
 * connectives go through the `arbor_*` helper lemmas of the refutation preamble, atoms are closed by
 * `arbor_close`, and only unbounded claims (a true ∀, a false ∃ over an infinite type) are left to the
 * `arbor_auto` bundle. Coq checks the result, so a wrong hint costs a failed check, never a wrong verdict.
 */
export interface ProofPlan { tactic: string; instances: string[] }

export function planProof(t: Term, env: EvalEnv, truth: boolean): ProofPlan {
  const instances: string[] = [];
  const tactic = gen(t, env, truth, instances);
  return { tactic, instances };
}

const truthIn = (t: Term, env: EvalEnv): boolean => truthOf(evaluate(t, env));

const withVar = (env: EvalEnv, name: string, v: Value): EvalEnv => {
  const vars = new Map(env.vars);
  vars.set(name, v);
  return { ...env, vars, depth: (env.depth ?? 0) + 1 };
};

function gen(t: Term, env: EvalEnv, truth: boolean, inst: string[]): string {
  switch (t.kind) {
    case 'quant': return genQuant(t.q, t.binders, t.body, env, truth, inst);
    case 'not': return truth ? gen(t.body, env, false, inst) : `apply arbor_nn; ${wrap(gen(t.body, env, true, inst))}`;
    case 'assoc': {
      // n-ary trees only appear after S1; the refutation works on the parsed (binary) tree.
      break;
    }
    case 'infix': {
      const { op, left, right } = t;
      if (op === '∧') {
        if (truth) return `split; [${gen(left, env, true, inst)} | ${gen(right, env, true, inst)}]`;
        return truthIn(left, env) ? `apply arbor_and_fr; ${wrap(gen(right, env, false, inst))}` : `apply arbor_and_fl; ${wrap(gen(left, env, false, inst))}`;
      }
      if (op === '∨') {
        if (!truth) return `apply arbor_or_f; [${gen(left, env, false, inst)} | ${gen(right, env, false, inst)}]`;
        return truthIn(left, env) ? `left; ${wrap(gen(left, env, true, inst))}` : `right; ${wrap(gen(right, env, true, inst))}`;
      }
      if (op === '→') {
        if (!truth) return `apply arbor_imp_f; [${gen(left, env, true, inst)} | ${gen(right, env, false, inst)}]`;
        return truthIn(left, env) ? `apply arbor_imp_tr; ${wrap(gen(right, env, true, inst))}` : `apply arbor_imp_tl; ${wrap(gen(left, env, false, inst))}`;
      }
      if (op === '↔') {
        const l = truthIn(left, env);
        const r = truthIn(right, env);
        const lemma = `arbor_iff_${l ? 't' : 'f'}${r ? 't' : 'f'}`;
        return `apply ${lemma}; [${gen(left, env, l, inst)} | ${gen(right, env, r, inst)}]`;
      }
      break;
    }
  }
  return 'arbor_close';
}

const wrap = (s: string): string => `(${s})`;

function genQuant(q: 'forall' | 'exists', binders: Binder[], body: Term, env: EvalEnv, truth: boolean, inst: string[]): string {
  const [first, ...rest] = binders;
  if (!first) return gen(body, env, truth, inst);
  const remaining: Term = rest.length > 0 ? { kind: 'quant', q, binders: rest, body } : body;
  const dom = domainOf(first.type, env);
  if (!dom) return 'arbor_auto';
  const needsWitness = (q === 'forall' && !truth) || (q === 'exists' && truth);
  if (needsWitness) {
    const hit = dom.values.find(({ value }) => truthIn(remaining, withVar(env, first.name, value)) === truth);
    if (!hit) return 'arbor_auto';
    inst.push(`${first.name} = ${hit.coq}`);
    const next = gen(remaining, withVar(env, first.name, hit.value), truth, inst);
    return q === 'exists' ? `exists ${hit.coq}; ${wrap(next)}` : `intro arbor_h; specialize (arbor_h ${hit.coq}); revert arbor_h; ${wrap(next)}`;
  }
  // A true ∀ / false ∃: enumerable only over a two-element carrier (bool or an abstract type modelled by bool).
  const finite = dom.values.length === 2 && dom.values.every(({ value }) => value.t === 'bool' || value.t === 'elem');
  if (!finite) return synthesise(q, first, remaining, env, truth, dom.name, inst);
  const [a, b] = dom.values as [{ value: Value; coq: string }, { value: Value; coq: string }];
  const ga = gen(remaining, withVar(env, first.name, a.value), truth, inst);
  const gb = gen(remaining, withVar(env, first.name, b.value), truth, inst);
  // bool's `destruct` yields the `true` case first; the carrier lists `true` first too.
  return q === 'forall'
    ? `intro arbor_b; destruct arbor_b; [${ga} | ${gb}]`
    : `intros [arbor_b arbor_h]; destruct arbor_b; revert arbor_h; [${ga} | ${gb}]`;
}

/**
 * `∀ x, ∃ y, φ` true (or `∃ x, ∀ y, φ` false) over nat/Z: look for a witness `y := g x` from a small family
 * of terms that works for every small x, then leave `φ x (g x)` to `arbor_auto` — it is now quantifier-free
 * in the witness, which is what the bundle is good at.
 */
function synthesise(q: 'forall' | 'exists', x: Binder, remaining: Term, env: EvalEnv, truth: boolean, domName: string, inst: string[]): string {
  if (remaining.kind !== 'quant' || remaining.q === q || (domName !== 'nat' && domName !== 'Z')) return 'arbor_auto';
  const [y, ...ys] = remaining.binders;
  if (!y) return 'arbor_auto';
  const yDom = domainOf(y.type, env);
  if (!yDom || yDom.name !== domName) return 'arbor_auto';
  const inner: Term = ys.length > 0 ? { kind: 'quant', q: remaining.q, binders: ys, body: remaining.body } : remaining.body;
  const isZ = domName === 'Z';
  const family: { coq: (v: string) => string; f: (n: bigint) => bigint }[] = isZ
    ? [{ coq: (v) => v, f: (n) => n }, { coq: (v) => `(${v} + 1)%Z`, f: (n) => n + 1n }, { coq: (v) => `(${v} - 1)%Z`, f: (n) => n - 1n }, { coq: () => '0%Z', f: () => 0n }, { coq: (v) => `(- ${v})%Z`, f: (n) => -n }]
    : [{ coq: (v) => v, f: (n) => n }, { coq: (v) => `(S ${v})`, f: (n) => n + 1n }, { coq: () => '0', f: () => 0n }, { coq: () => '1', f: () => 1n }, { coq: (v) => `(${v} + ${v})`, f: (n) => n + n }, { coq: (v) => `(pred ${v})`, f: (n) => (n > 0n ? n - 1n : 0n) }];
  const dom = domainOf(x.type, env);
  if (!dom) return 'arbor_auto';
  const mk = (n: bigint): Value => (isZ ? { t: 'int', v: n } : { t: 'nat', v: n < 0n ? 0n : n });
  // ∀x ∃y φ true needs φ(x, g x) true; ∃x ∀y φ false needs φ(x, g x) false.
  const g = family.find((cand) => dom.values.every(({ value }) => {
    if (value.t !== 'nat' && value.t !== 'int') return false;
    try {
      return truthIn(inner, withVar(withVar(env, x.name, value), y.name, mk(cand.f(value.v)))) === truth;
    } catch {
      return false;
    }
  }));
  if (!g) return 'arbor_auto';
  const v = `arbor_v${inst.length}`;
  inst.push(`${y.name} = ${g.coq(x.name)}`);
  return q === 'forall'
    ? `intro ${v}; exists ${g.coq(v)}; arbor_auto`
    : `intros [${v} arbor_h]; specialize (arbor_h ${g.coq(v)}); revert arbor_h; arbor_auto`;
}

export { coqOfValue };
