import type { TreeView } from '../../shared/proof-tree/proof-tree.ts';
import type { GoalInContext } from '../../shared/proof-tree/tree-view-queries.ts';
import { goalsInContext, isFinishedView } from '../../shared/proof-tree/tree-view-queries.ts';

export interface StateFormatOptions {
  channel: number;
  step: number;
}

/** `get_current_proof_state` in the seed's format: one section per open goal, the current one first. */
export function formatProofState(view: TreeView, options: StateFormatOptions): string {
  const lines = ['=== CURRENT PROOF STATE ===', ''];
  const goals = goalsInContext(view);
  const open = goals.filter((g) => !g.proved);
  if (isFinishedView(view)) {
    lines.push('No goals: the proof is complete.');
  } else {
    if (goals[0]?.proved) lines.push('The current goal is proved; END (or NEXT) removes it.', '');
    open.forEach((g, i) => lines.push(...formatGoal(g, i + 1), ''));
    if (open.length === 0) lines.push('No open goals; END removes the proved ones.', '');
    lines.pop();
  }
  lines.push('', `(channel ${options.channel}, step ${options.step}; ${open.length} open goal${open.length === 1 ? '' : 's'}${open.length > 0 && !goals[0]?.proved ? '; Goal 1 is the current goal' : ''})`);
  return lines.join('\n');
}

export function formatGoal(g: GoalInContext, n: number): string[] {
  const lines = [`--- Goal ${n} ---`, `Goal Type: ${g.goal}`, '', 'Hypotheses:'];
  const entries = [...g.vars.map((v) => `  ${v.name} : ${v.type}`), ...g.hyps.map((h) => `  ${h.name} : ${h.expr}`)];
  lines.push(...(entries.length > 0 ? entries : ['  (none)']));
  return lines;
}
