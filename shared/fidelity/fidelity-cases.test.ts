import { describe, expect, it } from 'vitest';
import { parseCases } from './fidelity-cases.ts';
import { summarise } from './fidelity-metrics.ts';
import type { FidelityReport } from './fidelity-types.ts';

describe('case files', () => {
  it('reads TSV with a header, escapes, extra columns and comments', () => {
    const tsv = '# comment\nid\tcanonical\tcandidate\tcontext\tnote\ttruth\nx1\tforall n : nat, n = n\tforall m : nat, m = m\tVariable P : Prop.\\nVariable Q : Prop.\thello\tequivalent\n';
    const [c] = parseCases(tsv);
    expect(c).toMatchObject({ id: 'x1', candidate: 'forall m : nat, m = m', context: 'Variable P : Prop.\nVariable Q : Prop.', truth: 'equivalent', extra: { note: 'hello' } });
  });

  it('reads JSON lines', () => {
    const cases = parseCases('{"id": 1, "canonical": "P", "candidate": "Q", "other": 3}\n{"id": "b", "canonical": "P", "candidate": "P"}\n');
    expect(cases.map((c) => c.id)).toEqual(['1', 'b']);
    expect(cases[0]?.extra).toEqual({ other: '3' });
  });

  it('rejects a header without the required columns', () => {
    expect(() => parseCases('id\tcanonical\nx\tP\n')).toThrow(/candidate/u);
  });
});

describe('metrics', () => {
  const r = (id: string, verdict: FidelityReport['verdict']): FidelityReport => ({ id, verdict, tier: null, reason: '', backend: 'coq', classical: false, normalised: { s0: { canonical: '', candidate: '' } }, evidence: null, trace: [], ms: 10 });
  it('computes accuracy per truth, precision and recall; unknown is never wrong', () => {
    const t = summarise([r('a', 'equivalent'), r('b', 'unknown'), r('c', 'not_equivalent'), r('d', 'equivalent')], ['equivalent', 'equivalent', 'not_equivalent', 'not_equivalent']);
    expect(t.accuracy?.precisionEquivalent).toBe(0.5);
    expect(t.accuracy?.recallEquivalent).toBe(0.5);
    expect(t.accuracy?.perTruth.not_equivalent).toMatchObject({ cases: 2, correct: 1 });
    expect(t.accuracy?.wrong).toEqual(['d: equivalent (truth not_equivalent)']);
  });
});
