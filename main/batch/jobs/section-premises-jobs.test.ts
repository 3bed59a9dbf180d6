import { afterAll, describe, expect, it } from 'vitest';
import { CoqShells } from '../coq-shells.ts';
import { runCheckJob } from './check-job.ts';

/**
 * Issue 21 leftover, batch side: a document whose theorem is proved under an open section's
 * `Hypothesis H : False` is verified (after `End` the theorem is `False -> 1 = 2`), and its report says
 * in words that the proof assumed H. Real shell over coqidetop, and coqc.
 */
const shells = new CoqShells();
afterAll(() => shells.dispose());

describe('batch reports of proofs under a section\'s hypotheses', () => {
  it('check: the conditional theorem is listed with its verdict in words', async () => {
    const document = [
      'DEFINE "Section S. Hypothesis H : False."',
      'GOAL cheat "1 = 2"',
      'APPLY (destruct H)',
      'END',
      'DEFINE "End S."',
      '',
    ].join('\n');
    const r = await runCheckJob({ kind: 'check', id: 'sec', document, timeoutMs: 20_000 }, shells, () => undefined);
    expect(r.outcome).toBe('verified');
    expect((r.evidence as { conditional?: unknown }).conditional).toEqual([{ line: 4, verdict: "proved, assuming the section's hypothesis H : False" }]);
  }, 180_000);
});
