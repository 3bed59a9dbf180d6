import { describe, expect, it } from 'vitest';
import { guardReason, injectionProblem, runFidelity } from './fidelity-pipeline.ts';
import type { DirectionScripts, FidelityProver, TypeCheck } from './fidelity-prover.ts';
import type { Verdict } from './fidelity-types.ts';

/** SAF test categories on Lean syntax (no Lean backend): each pair, in both orders. */
const leanCategories: { name: string; a: string; b: string; verdict: Verdict; tier?: string }[] = [
  { name: 'ASCII operators', a: '∀ a b : ℕ, a + b = b + a → True', b: 'forall a b : Nat, a + b = b + a -> True', verdict: 'equivalent', tier: 's0' },
  { name: 'whitespace', a: '∀ n : ℕ,n+0=n', b: '∀  n : ℕ ,  n + 0 = n', verdict: 'equivalent', tier: 's0' },
  { name: 'binders', a: '∀ a b : ℕ, a ≤ a + b', b: '∀ (a : ℕ) (b : ℕ), a ≤ a + b', verdict: 'equivalent', tier: 's0' },
  { name: '≠ paraphrase', a: '∀ x y : ℕ, x ≠ y → y ≠ x', b: '∀ x y : ℕ, ¬ (x = y) → ¬ (y = x)', verdict: 'equivalent', tier: 's1' },
  { name: 'binder order', a: '∀ a b : ℕ, a ≤ a + b', b: '∀ b a : ℕ, a ≤ a + b', verdict: 'unknown' },
  { name: 'domain drift ℕ/ℤ', a: '∀ n : ℕ, 0 ≤ n', b: '∀ n : ℤ, 0 ≤ n', verdict: 'unknown' },
  { name: 'unknown identifier', a: '∀ n : ℕ, n + 0 = n', b: '∀ n : ℕ, plusZero n = n', verdict: 'unknown' },
  { name: 'redundant parentheses', a: '∀ a b : ℕ, (a + b) = (b + a)', b: '∀ a b : ℕ, a + b = b + a', verdict: 'equivalent', tier: 's0' },
  { name: 'meaningful parentheses', a: '∀ a b c : ℕ, a * (b + c) = a * b + a * c', b: '∀ a b c : ℕ, a * b + c = a * b + a * c', verdict: 'unknown' },
  { name: 'quantifier flip', a: '∀ n : ℕ, n + 0 = n', b: '∃ n : ℕ, n + 0 = n', verdict: 'unknown' },
  { name: '≥/≤ paraphrase', a: '∀ a b : ℕ, a + b ≥ a', b: '∀ a b : ℕ, a ≤ a + b', verdict: 'equivalent', tier: 's1' },
  { name: '≥/≤ flipped', a: '∀ a b : ℕ, a + b ≥ a', b: '∀ a b : ℕ, a + b ≤ a', verdict: 'unknown' },
];

describe('pipeline on Lean statements (no Lean backend)', () => {
  for (const c of leanCategories) {
    for (const [canonical, candidate, dir] of [[c.a, c.b, '→'], [c.b, c.a, '←']] as const) {
      it(`${c.name} (${dir})`, async () => {
        const r = await runFidelity({ canonical, candidate, backend: 'lean' }, null);
        expect(r.verdict).toBe(c.verdict);
        if (c.tier) expect(r.tier).toBe(c.tier);
        if (r.verdict === 'unknown') expect(r.reason).toMatch(/no Lean backend configured/u);
      });
    }
  }
});

interface Fake {
  tc?: TypeCheck;
  s3?: DirectionScripts;
  beq?: DirectionScripts;
  alone?: { canonical?: { provable?: string; refutable?: string }; candidate?: { provable?: string; refutable?: string } };
}
const fake = (f: Fake): FidelityProver & { calls: string[] } => {
  const calls: string[] = [];
  return {
    calls,
    backend: 'coq',
    header: () => '',
    async typeCheck() { calls.push('typecheck'); return f.tc ?? { ok: true }; },
    async s3Lite() { calls.push('s3'); return f.s3 ?? { forward: null, backward: null }; },
    async beqPlus() { calls.push('beq'); return f.beq ?? { forward: null, backward: null }; },
    async standalone(_t, which) { calls.push(`alone:${which}`); return { provable: f.alone?.[which]?.provable ?? null, refutable: f.alone?.[which]?.refutable ?? null }; },
    async checkFile() { return { ok: false, message: 'no' }; },
  };
};
const proved: DirectionScripts = { forward: 'intro arbor_h. firstorder.', backward: 'intro arbor_h. firstorder.' };
const pair = { canonical: 'forall x, P x', candidate: 'forall y, Q y', context: 'Variables P Q : nat -> Prop.' };

describe('pipeline guard (fake prover)', () => {
  it('concludes equivalent when both directions are proved and neither statement stands alone', async () => {
    const r = await runFidelity(pair, fake({ s3: proved }));
    expect(r.verdict).toBe('equivalent');
    expect(r.tier).toBe('s3-lite');
    expect(r.evidence?.kind === 'proof' && r.evidence.directions.map((d) => d.direction)).toEqual(['canonical → candidate', 'candidate → canonical']);
  });

  it('refuses equivalent for two theorems', async () => {
    const p = fake({ s3: proved, alone: { canonical: { provable: 'lia.' }, candidate: { provable: 'lia.' } } });
    const r = await runFidelity(pair, p);
    expect(r.verdict).toBe('unknown');
    expect(r.reason).toMatch(/both provable on their own/u);
    expect(p.calls).not.toContain('beq'); // the same guard would block BEq+
  });

  it('refuses equivalent for two falsities, and when one side stands alone', async () => {
    expect((await runFidelity(pair, fake({ beq: proved, alone: { canonical: { refutable: 'x' }, candidate: { refutable: 'y' } } }))).reason).toMatch(/both refutable/u);
    expect((await runFidelity(pair, fake({ beq: proved, alone: { candidate: { provable: 'y' } } }))).reason).toMatch(/candidate provable on its own/u);
  });

  it('reports the direction BEq+ could not prove', async () => {
    const r = await runFidelity(pair, fake({ beq: { forward: 'intro arbor_h. sauto.', backward: null } }));
    expect(r.verdict).toBe('unknown');
    expect(r.evidence).toMatchObject({ kind: 'unproved', failed: ['candidate → canonical'] });
  });

  it('concludes not_equivalent when one statement is provable and the other refutable (no parameters)', async () => {
    const r = await runFidelity({ canonical: 'forall n : nat, n = n', candidate: 'forall n : nat, n = 0' }, fake({ alone: { canonical: { provable: 'p' }, candidate: { refutable: 'r' } } }));
    expect(r.verdict).toBe('not_equivalent');
    expect(r.evidence?.kind).toBe('truth-values');
  });

  it('reports ill_typed with the prover message, before S0 can call identical statements equivalent', async () => {
    const r = await runFidelity({ canonical: 'foo = foo', candidate: 'foo = foo' }, fake({ tc: { ok: false, statement: 'canonical', message: 'The reference foo was not found' } }));
    expect(r.verdict).toBe('ill_typed');
    expect(r.reason).toMatch(/foo was not found/u);
  });

  it('rejects statements that would end the Coq sentence', async () => {
    expect(injectionProblem('True. Axiom bad : False')).not.toBeNull();
    expect(injectionProblem('Nat.add 1 1 = 2')).toBeNull();
    const r = await runFidelity({ canonical: 'True. Axiom bad : False', candidate: 'True' }, fake({}));
    expect(r.verdict).toBe('ill_typed');
  });

  it('runs only the requested tiers', async () => {
    const p = fake({ s3: proved });
    const r = await runFidelity({ ...pair, tiers: ['s0', 's1'] }, p);
    expect(r.verdict).toBe('unknown');
    expect(p.calls).toEqual([]);
  });

  it('guardReason names the blocking fact', () => {
    expect(guardReason({ canonicalProvable: null, canonicalRefutable: null, candidateProvable: null, candidateRefutable: null })).toBeNull();
    expect(guardReason({ canonicalProvable: 'a', canonicalRefutable: null, candidateProvable: null, candidateRefutable: 'b' })).toMatch(/canonical provable and candidate refutable/u);
  });
});
