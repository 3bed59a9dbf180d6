import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import type { FidelityInput, Verdict } from '../../shared/fidelity/fidelity-types.ts';
import { checkFidelity } from './check-fidelity.ts';

const hasCoq = (() => {
  try { execFileSync('coqc', ['--version'], { stdio: 'ignore' }); return true; } catch { return false; }
})();

/** SAF categories on Coq statements, with real coqc, each pair in both orders. Short tactic budgets keep this quick. */
const categories: { name: string; a: string; b: string; verdict: Verdict; tier: string; context?: string; tiers?: FidelityInput['tiers'] }[] = [
  { name: 'ASCII operators', a: 'forall a b : nat, a <= b -> b <= a -> a = b', b: '∀ a b : nat, a ≤ b → b ≤ a → a = b', verdict: 'equivalent', tier: 's0' },
  { name: 'whitespace', a: 'forall n:nat,n+0=n', b: 'forall  n : nat ,  n + 0  =  n', verdict: 'equivalent', tier: 's0' },
  { name: 'binders', a: 'forall a : nat, forall b : nat, a * b = b * a', b: 'forall (a b : nat), a * b = b * a', verdict: 'equivalent', tier: 's1' },
  { name: '≠ paraphrase', a: 'forall x y : nat, x <> y -> y <> x', b: 'forall x y : nat, ~ (x = y) -> ~ (y = x)', verdict: 'equivalent', tier: 's1' },
  { name: 'binder order (∀∃ vs ∃∀)', a: 'forall a : nat, exists b : nat, R a b', b: 'exists b : nat, forall a : nat, R a b', verdict: 'not_equivalent', tier: 'refute', context: 'Variable R : nat -> nat -> Prop.' },
  { name: 'domain drift ℕ/ℤ', a: 'forall n : nat, 0 <= n', b: 'forall n : Z, (0 <= n)%Z', verdict: 'not_equivalent', tier: 'refute' },
  { name: 'unknown identifier', a: 'forall n : nat, n + 0 = n', b: 'forall n : nat, plus_zero n = n', verdict: 'ill_typed', tier: 'typecheck' },
  { name: 'parentheses (redundant)', a: 'forall a b : nat, (a + b) = (b + a)', b: 'forall a b : nat, a + b = b + a', verdict: 'equivalent', tier: 's0' },
  { name: 'parentheses (meaningful)', a: 'forall a b c : nat, a * (b + c) = a * b + a * c', b: 'forall a b c : nat, a * b + c = a * b + a * c', verdict: 'not_equivalent', tier: 'refute' },
  { name: 'quantifier flip', a: 'forall n : nat, P n', b: 'exists n : nat, P n', verdict: 'not_equivalent', tier: 'refute', context: 'Variable P : nat -> Prop.' },
  { name: '≥/≤ paraphrase', a: 'forall a b : nat, a + b >= a', b: 'forall a b : nat, a <= a + b', verdict: 'equivalent', tier: 's1' },
  { name: '≥/≤ flipped', a: 'forall a b : nat, a + b >= a', b: 'forall a b : nat, a + b <= a', verdict: 'not_equivalent', tier: 'refute' },
];

describe.skipIf(!hasCoq)('fidelity categories with Coq', () => {
  for (const c of categories) {
    for (const [canonical, candidate, dir] of [[c.a, c.b, '→'], [c.b, c.a, '←']] as const) {
      it(`${c.name} (${dir})`, async () => {
        const r = await checkFidelity({ canonical, candidate, ...(c.context ? { context: c.context } : {}), timeoutMs: 1000, hammerTimeoutMs: 2000 });
        expect(r.verdict).toBe(c.verdict);
        expect(r.tier).toBe(c.tier);
        if (r.evidence?.kind === 'counterexample') expect(r.evidence.coqScript).toMatch(/Lemma arbor_refutation/u);
      });
    }
  }
});
