import { describe, expect, it } from 'vitest';
import { normaliseS0 } from './s0-normalise.ts';
import { normaliseS1 } from './s1-normalise.ts';
import type { StatementSyntax, Term } from './statement-term.ts';

const s1 = (s: string, syntax: StatementSyntax, classical = false) => normaliseS1(normaliseS0(s, syntax).term as Term, syntax, { classical });

describe('S1 structural normalisation', () => {
  it('renames bound variables by position', () => {
    expect(s1('forall m n : nat, m <= m + n', 'coq').text).toBe(s1('forall x y : nat, x <= x + y', 'coq').text);
    expect(s1('∀ m n : ℕ, m ≤ m + n', 'lean').text).toBe('∀ (x1 : ℕ) (x2 : ℕ), x1 ≤ x1 + x2');
  });

  it('keeps binder order (a b vs b a is not a renaming)', () => {
    expect(s1('forall a b : nat, a <= a + b', 'coq').text).not.toBe(s1('forall b a : nat, a <= a + b', 'coq').text);
  });

  it('unfolds ≠, ≥ and >', () => {
    expect(s1('forall x y : nat, x <> y', 'coq').text).toBe(s1('forall x y : nat, ~ (x = y)', 'coq').text);
    expect(s1('∀ a b : ℕ, a + b ≥ a', 'lean').text).toBe(s1('∀ a b : ℕ, a ≤ a + b', 'lean').text);
    expect(s1('∀ a : ℕ, a > 0', 'lean').text).toBe(s1('∀ a : ℕ, 0 < a', 'lean').text);
  });

  it('does not confuse flipped sides with ≥', () => {
    expect(s1('forall a b : nat, a + b >= a', 'coq').text).not.toBe(s1('forall a b : nat, a + b <= a', 'coq').text);
  });

  it('flattens and orders ∧ and ∨', () => {
    expect(s1('P /\\ (Q /\\ R)', 'coq').text).toBe(s1('(R /\\ P) /\\ Q', 'coq').text);
    expect(s1('P ∨ Q', 'lean').text).toBe(s1('Q ∨ P', 'lean').text);
    expect(s1('P ∨ Q', 'lean').text).not.toBe(s1('P ∧ Q', 'lean').text);
  });

  it('merges adjacent like quantifiers but not unlike ones', () => {
    expect(s1('forall a : nat, forall b : nat, a = b', 'coq').text).toBe(s1('forall a b : nat, a = b', 'coq').text);
    expect(s1('forall a : nat, exists b : nat, a = b', 'coq').text).not.toBe(s1('exists b : nat, forall a : nat, a = b', 'coq').text);
  });

  it('applies classical rewrites only when asked, and reports them', () => {
    const plain = [s1('forall x, P x -> Q x', 'coq'), s1('forall x, ~ Q x -> ~ P x', 'coq')];
    expect(plain[0]?.text).not.toBe(plain[1]?.text);
    const cl = [s1('forall x, P x -> Q x', 'coq', true), s1('forall x, ~ Q x -> ~ P x', 'coq', true)];
    expect(cl[0]?.text).toBe(cl[1]?.text);
    expect(cl[1]?.classicalRules).toEqual(['contrapositive']);
    expect(s1('¬ ¬ P', 'lean', true).text).toBe('P');
    expect(s1('¬ (∀ x : ℕ, P x)', 'lean', true).text).toBe(s1('∃ y : ℕ, ¬ P y', 'lean', true).text);
    expect(s1('~ (P /\\ Q)', 'coq', true).classicalRules).toEqual(['de-morgan']);
  });
});
