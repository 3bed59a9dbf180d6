import { describe, expect, it } from 'vitest';
import { currentGoalPlan } from './current-goal-plan.ts';

describe('currentGoalPlan', () => {
  it('rebuilds the current goal with its context as a proof of its own', () => {
    expect(currentGoalPlan({
      id: 3, depth: 1, proved: false, goal: 'n * 1 = n',
      vars: [{ name: 'n', type: 'nat' }], hyps: [{ name: "H'", expr: 'n + 0 = n' }, { name: 'Q', expr: 'P -> "s" = "s"' }],
    })).toEqual(['GOAL ‹forall (n : nat), (n + 0 = n) -> (P -> "s" = "s") -> n * 1 = n›', "APPLY intros n H' Q"]);
    expect(currentGoalPlan({ id: 0, depth: 0, proved: false, goal: 'True', vars: [], hyps: [] })).toEqual(['GOAL "True"']);
  });
});
