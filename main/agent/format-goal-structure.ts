import type { TreeView } from '../../shared/proof-tree/proof-tree.ts';
import type { GoalInContext } from '../../shared/proof-tree/tree-view-queries.ts';
import { goalsInContext, isFinishedView } from '../../shared/proof-tree/tree-view-queries.ts';
import { identifiers, outlineShape, shapeName, termShape } from './term-shape.ts';

/**
 * `get_goal_structure`: each open goal's type broken down by structure, its variables and hypotheses
 * with their shapes and what they depend on, and where the goal sits in the bundle tree.
 */
export function formatGoalStructure(view: TreeView, options: { maxGoals?: number } = {}): string {
  const lines = ['=== GOAL STRUCTURE ===', ''];
  const all = goalsInContext(view);
  const open = all.filter((g) => !g.proved);
  if (isFinishedView(view)) return [...lines, 'No goals: the proof is complete.'].join('\n');
  lines.push(`Tree: ${open.length} open goal${open.length === 1 ? '' : 's'}, ${all.length - open.length} proved ${all.length - open.length === 1 ? 'leaf' : 'leaves'} awaiting END, ${countBundles(view)} bundle${countBundles(view) === 1 ? '' : 's'}`, '');
  const shown = open.slice(0, options.maxGoals ?? 10);
  shown.forEach((g, i) => lines.push(...goalSection(g, i + 1, i === 0 && all[0] === g), ''));
  if (open.length > shown.length) lines.push(`(${open.length - shown.length} more open goals not shown)`, '');
  lines.pop();
  return lines.join('\n');
}

function goalSection(g: GoalInContext, n: number, current: boolean): string[] {
  const shape = termShape(g.goal);
  const names = [...g.vars.map((v) => v.name), ...g.hyps.map((h) => h.name)];
  const uses = (text: string, self?: string): string[] => {
    const ids = identifiers(text);
    return names.filter((name) => name !== self && ids.has(name));
  };
  const lines = [
    `--- Goal ${n}${current ? ' (current)' : ''} ---`,
    `Goal Type: ${g.goal}`,
    `Shape: ${shapeName(shape)}`,
    `Depth in tree: ${g.depth}`,
    'Structure:',
    ...outlineShape(shape),
    `Goal depends on: ${list(uses(g.goal))}`,
    '',
    'Variables:',
  ];
  if (g.vars.length === 0) lines.push('  (none)');
  for (const v of g.vars) {
    const usedBy = g.hyps.filter((h) => identifiers(h.expr).has(v.name)).map((h) => h.name);
    lines.push(`  ${v.name} : ${v.type}`, `    type shape: ${shapeName(termShape(v.type))}; in goal: ${identifiers(g.goal).has(v.name) ? 'yes' : 'no'}; used by: ${list(usedBy)}`);
  }
  lines.push('', 'Hypotheses:');
  if (g.hyps.length === 0) lines.push('  (none)');
  for (const h of g.hyps) {
    lines.push(`  ${h.name} : ${h.expr}`, `    shape: ${shapeName(termShape(h.expr))}; depends on: ${list(uses(h.expr, h.name))}`);
  }
  return lines;
}

function list(names: readonly string[]): string {
  return names.length > 0 ? names.join(', ') : '(nothing in context)';
}

function countBundles(view: TreeView): number {
  return view.kind === 'bundle' ? 1 + (view.children ?? []).reduce((n, c) => n + countBundles(c), 0) : 0;
}
