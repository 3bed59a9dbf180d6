import type { GoalInContext } from '../../shared/proof-tree/tree-view-queries.ts';
import { quoteTerm } from './term-input.ts';

/**
 * A replay for a session that attached mid-proof (it never saw the script): a proof of the current goal
 * alone, as `GOAL "forall vars, hyps -> goal"` and `APPLY intros …`, which rebuilds the same context and
 * goal. Enough for every check on scratch copies, which only ever act on the current goal.
 */
export function currentGoalPlan(goal: GoalInContext): string[] {
  const binders = goal.vars.map((v) => `(${v.name} : ${v.type})`).join(' ');
  const premises = goal.hyps.map((h) => `(${h.expr}) -> `).join('');
  const statement = `${binders ? `forall ${binders}, ` : ''}${premises}${goal.goal}`;
  const names = [...goal.vars.map((v) => v.name), ...goal.hyps.map((h) => h.name)];
  return [`GOAL ${quoteTerm(statement)}`, ...(names.length > 0 ? [`APPLY intros ${names.join(' ')}`] : [])];
}
