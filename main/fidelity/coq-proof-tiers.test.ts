import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { checkFidelity } from './check-fidelity.ts';

const hasCoq = (() => {
  try { execFileSync('coqc', ['--version'], { stdio: 'ignore' }); return true; } catch { return false; }
})();

/** The proof tiers and their guard with real coqc (a separate file so vitest runs it beside the categories). */
describe.skipIf(!hasCoq)('fidelity proof tiers with Coq', () => {
  it('S3-lite proves a binder swap over an abstract relation, past the guard', async () => {
    const r = await checkFidelity({ canonical: 'forall a b : nat, R a b', candidate: 'forall b a : nat, R a b', context: 'Variable R : nat -> nat -> Prop.', timeoutMs: 1000, hammerTimeoutMs: 2000 });
    expect(r.verdict).toBe('equivalent');
    expect(r.tier).toBe('s3-lite');
    expect(r.evidence?.kind === 'proof' && r.evidence.directions.length).toBe(2);
  });

  it('BEq+ proves each direction when logic alone does not suffice', async () => {
    const r = await checkFidelity({ canonical: 'forall n, f (f n) = n', candidate: 'forall n m, f n = m -> f m = n', context: 'Variable f : nat -> nat.', timeoutMs: 1000, hammerTimeoutMs: 2000, tiers: ['typecheck', 'beq+'] });
    expect(r.verdict).toBe('equivalent');
    expect(r.tier).toBe('beq+');
  });

  it('two theorems are not called equivalent', async () => {
    const r = await checkFidelity({ canonical: 'forall n : nat, n + 0 = n', candidate: 'forall n : nat, n = n + 0', timeoutMs: 1000, hammerTimeoutMs: 2000, tiers: ['typecheck', 's3-lite'] });
    expect(r.verdict).toBe('unknown');
    expect(r.reason).toMatch(/both provable on their own/u);
  });
});
