import { describe, expect, it } from 'vitest';
import { checkFidelity, FidelityInputRefused } from './check-fidelity.ts';

describe('fidelity inputs are untrusted text', () => {
  const refused: [string, { canonical: string; candidate: string; context?: string }][] = [
    ['a context that writes a file', { canonical: 'True', candidate: 'True', context: 'Redirect "/tmp/arbor-pwned" Print nat.' }],
    ['a context that loads a file', { canonical: 'True', candidate: 'True', context: 'Load "/etc/passwd".' }],
    ['a context that runs a shell through CoqHammer', { canonical: 'True', candidate: 'True', context: 'Set Hammer PredictPath "touch /tmp/arbor-pwned;".' }],
    ['a context that bypasses the guard checker', { canonical: 'True', candidate: 'True', context: 'Unset Guard Checking.' }],
    ['a statement that ends its sentence', { canonical: 'True. Redirect "/tmp/x" Print nat. Theorem t : True', candidate: 'True' }],
    ['a statement with a comment', { canonical: 'True (* x', candidate: 'True' }],
  ];
  for (const [name, input] of refused) {
    it(`refuses ${name} before anything runs`, async () => {
      await expect(checkFidelity({ ...input, tiers: ['s0'] }, null)).rejects.toBeInstanceOf(FidelityInputRefused);
    });
  }

  it('a context may declare parameters and hypotheses: that is its purpose', async () => {
    const report = await checkFidelity({ canonical: 'P x', candidate: 'P x', context: 'Parameter P : nat -> Prop. Parameter x : nat. Hypothesis h : P x.', tiers: ['s0'] }, null);
    expect(report.verdict).toBe('equivalent');
  });
});
