import { describe, expect, it } from 'vitest';
import { parseContext } from './fidelity-context.ts';
import { searchRefutation } from './refutation-search.ts';
import { parseStatement } from './statement-parser.ts';
import { evaluate, truthOf } from './small-evaluator.ts';

const search = (c: string, d: string, ctx = '') =>
  searchRefutation({ text: c, term: parseStatement(c, 'coq') }, { text: d, term: parseStatement(d, 'coq') }, parseContext(ctx), { header: '', timeoutS: 1 });
const truth = (s: string) => truthOf(evaluate(parseStatement(s, 'coq'), { vars: new Map(), types: new Map(), zScope: false, budget: { steps: 100_000 } }));

describe('bounded evaluator', () => {
  it('evaluates nat (truncated), Z and lists', () => {
    expect(truth('2 - 5 = 0')).toBe(true);
    expect(truth('(2 - 5 = -3)%Z')).toBe(true);
    expect(truth('length (rev (1 :: 2 :: nil)) = 2')).toBe(true);
    expect(truth('forall n : nat, n < 6')).toBe(true); // bounded: only a hint, Coq decides
    expect(truth('exists b : bool, negb b = true')).toBe(true);
  });
});

describe('refutation search', () => {
  it('finds instances for flipped ≤ and for domain drift, with Coq proofs', () => {
    const r = search('forall a b : nat, a <= a + b', 'forall a b : nat, a + b <= a');
    expect(r.candidates[0]?.instances).toEqual(['a = 0', 'b = 1']);
    expect(r.candidates[0]?.coqFile).toMatch(/Lemma arbor_refutation : ~ \(\(forall a b : nat, a <= a \+ b\) <-> \(forall a b : nat, a \+ b <= a\)\)/u);
    expect(search('forall n : nat, 0 <= n', 'forall n : Z, (0 <= n)%Z').candidates[0]?.instances).toEqual(['n = (-1)%Z']);
  });

  it('finds models for abstract parameters', () => {
    const r = search('forall n, P n', 'exists n, P n', 'Variable P : nat -> Prop.');
    expect(r.candidates[0]?.interpretation[0]).toMatchObject({ name: 'P' });
    expect(r.candidates[0]?.coqFile).toMatch(/Definition P : nat -> Prop := /u);
    const inj = search('forall x y : A, f x = f y -> x = y', 'forall x y : A, x = y -> f x = f y', 'Variable A : Type. Variable f : A -> A.');
    expect(inj.candidates.length).toBeGreaterThan(0);
  });

  it('respects the context hypotheses when choosing a model', () => {
    const r = search('forall n, P n', 'P 0', 'Variable P : nat -> Prop. Hypothesis HP : forall n, P n -> P (S n).');
    // Every model offered must satisfy HP; the file proves it as a lemma.
    for (const c of r.candidates) expect(c.coqFile).toMatch(/Lemma arbor_model_HP/u);
  });

  it('stays silent on equivalent statements and outside the fragment', () => {
    expect(search('forall x, P x /\\ Q x', 'forall x, Q x /\\ P x', 'Variables P Q : nat -> Prop.').candidates).toEqual([]);
    expect(search('forall f : nat -> nat, f 0 = 0', 'True').candidates).toEqual([]);
  });
});
