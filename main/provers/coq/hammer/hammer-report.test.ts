import { describe, expect, it } from 'vitest';
import { formatHammerReport } from '../../../../shared/protocol/hammer-report.ts';
import { ShellProcess } from '../../../cli/shell-process.ts';

/** A HAMMER that fails says what it tried; one that succeeds says what closed the goal (real coqidetop, CoqHammer). */
describe('HAMMER_REPORT', () => {
  it('a failure lists every stage with its time and outcome; a success names the closing tactic', async () => {
    const shell = new ShellProcess();
    try {
      // A false goal: refuted first, with the instance, before any budget goes to proving it.
      await shell.request('GOAL "forall (l1 l2 : list nat), rev (l1 ++ l2) = rev l1 ++ rev l2"', 0);
      const refuted = await shell.request('HAMMER 4', 0);
      expect(refuted.ERR).toMatch(/^fail: the goal is false: .*l1 = .*\(a counterexample Coq checked\)$/);
      expect(refuted.HAMMER_REPORT?.stages[0]).toMatchObject({ stage: 'refutation', outcome: 'refuted' });

      // A true goal out of reach in 4 s: every stage says what it tried.
      await shell.request('GOAL "forall n m : nat, n * n = 2 * (m * m) -> n = 0"', 0);
      const failed = await shell.request('HAMMER 4', 0);
      expect(failed.ERR).toMatch(/^(fail|timeout)/);
      const report = failed.HAMMER_REPORT;
      expect(report?.closedWith).toBeUndefined();
      const stages = report?.stages ?? [];
      expect(stages[0]).toMatchObject({ stage: 'refutation', outcome: 'failed' });
      expect(stages.filter((s) => s.stage === 'decision').map((s) => s.tactic)).toEqual(expect.arrayContaining(['solve [intros; lia]', 'solve [intros; congruence]']));
      expect(stages.some((s) => s.stage === 'induction')).toBe(true);
      expect(stages.every((s) => s.outcome !== 'closed' && s.ms >= 0)).toBe(true);
      expect(formatHammerReport(report!)).toMatch(/^not closed after .*: counterexample search failed /);
      // The state is unchanged: the same goal is still open.
      expect((await shell.request('STATE', 0)).RESPONSE).toMatchObject({ goal: 'forall n m : nat, n * n = 2 * (m * m) -> n = 0' });

      await shell.request('GOAL "forall (A : Type) (l : list A) (x : A), length (l ++ [x]) > 0"', 0);
      const closed = await shell.request('END', 0);
      expect(closed.ERR).toBe('');
      const tactic = closed.HAMMER_REPORT?.closedWith ?? '';
      expect(tactic).not.toBe('');
      // What the report says closed the goal is what the reproduction script contains.
      for (const sentence of tactic.split(/(?<=\.)\s+/)) expect(closed.SCRIPT).toContain(sentence);
      expect(closed.HAMMER_REPORT?.stages.some((s) => s.outcome === 'closed')).toBe(true);
    } finally {
      await shell.end();
    }
  }, 120_000);
});
