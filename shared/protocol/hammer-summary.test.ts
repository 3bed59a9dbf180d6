import { describe, expect, it } from 'vitest';
import type { HammerReport } from './hammer-report.ts';
import { hammerStageRows, summariseHammerFailure } from './hammer-summary.ts';

const failed: HammerReport = {
  ms: 20_140,
  stages: [
    { stage: 'refutation', ms: 120, outcome: 'failed', detail: 'no counterexample' },
    { stage: 'decision', tactic: 'solve [lia]', ms: 30, outcome: 'failed' },
    { stage: 'decision', tactic: 'solve [congruence]', ms: 12, outcome: 'failed' },
    { stage: 'rewrite', ms: 80, outcome: 'failed' },
    { stage: 'induction', tactic: 'solve [intros n l; induction n; simpl; auto]', ms: 3000, outcome: 'timeout' },
    { stage: 'induction', tactic: "solve [intros n l; revert n; induction l; intros; auto]", ms: 3000, outcome: 'failed' },
    { stage: 'discovery', ms: 0, outcome: 'skipped' },
    { stage: 'coqhammer', ms: 12_000, outcome: 'timeout' },
    { stage: 'reconstruction', ms: 0, outcome: 'skipped' },
  ],
};

describe('summariseHammerFailure', () => {
  it('says in one line how long and which families were tried, the inducted variables named', () => {
    expect(summariseHammerFailure(failed)).toBe('no proof in 20 s — tried decision procedures, rewriting, induction on n and l, CoqHammer');
  });
  it('says a false goal is false, with its counterexample', () => {
    expect(summariseHammerFailure({ ms: 40, stages: [{ stage: 'refutation', ms: 40, outcome: 'refuted', detail: 'n = 1' }] })).toBe('the goal is false: counterexample n = 1 (checked by Coq)');
  });
  it('keeps every stage for the expanded list', () => {
    const rows = hammerStageRows(failed);
    expect(rows).toHaveLength(failed.stages.length);
    expect(rows[1]).toEqual({ what: 'lia', outcome: 'failed', time: '30 ms' });
    expect(rows[6]?.time).toBe('');
  });
});
