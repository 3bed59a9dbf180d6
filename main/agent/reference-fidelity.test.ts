import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { checkAgainstReference, suggestedGoal } from './reference-fidelity.ts';

const hasCoq = (() => {
  try { execFileSync('coqc', ['--version'], { stdio: 'ignore' }); return true; } catch { return false; }
})();

describe('suggested goals against the reference statement', () => {
  it('finds the GOAL among a suggestion\'s commands', () => {
    expect(suggestedGoal(['APPLY intros', 'GOAL "forall n : nat, n + 0 = n"'])).toBe('forall n : nat, n + 0 = n');
    expect(suggestedGoal(['3 GOAL "a \\"b\\""'])).toBe('a "b"');
    expect(suggestedGoal(['HAVE "GOAL"', 'APPLY auto'])).toBeNull();
  });

  it('decides an α-variant at S1 without a prover, and leaves the rest unknown', async () => {
    expect(await checkAgainstReference('forall a b : nat, a + b = b + a', 'forall x y : nat, x + y = y + x', null))
      .toMatchObject({ verdict: 'equivalent', tier: 's1' });
    expect(await checkAgainstReference('forall n : nat, n + 0 = n', 'forall n : nat, 0 + n = n', null)).toMatchObject({ verdict: 'unknown', tier: null });
  });

  it.skipIf(!hasCoq)('refutes a drifted goal with real coqc, quick tiers only', async () => {
    const f = await checkAgainstReference('forall a b : nat, a + b >= a', 'forall a b : nat, a + b <= a');
    expect(f).toMatchObject({ verdict: 'not_equivalent', tier: 'refute' });
    expect(f.reason).toMatch(/^counterexample: /);
  }, 30_000);
});
