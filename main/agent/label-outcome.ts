import type { TreeView } from '../../shared/proof-tree/proof-tree.ts';
import { parseStateJson, treeViewFromState } from '../../shared/proof-tree/from-state-json.ts';
import type { StatementMeaning } from '../../shared/protocol/statement-meaning.ts';
import type { ShellResponse } from '../../shared/protocol/shell-command.ts';
import { goalsInContext, isFinishedView } from '../../shared/proof-tree/tree-view-queries.ts';

/** What trying a command sequence on a copy of the state did to the current goal. */
export interface TryOutcome {
  label: 'closes_goal' | 'closes_goal_different_meaning' | 'progress' | 'invalid';
  /** When an END in the sequence finished the theorem and its statement means something else than its text in a clean environment. */
  statement?: StatementMeaning;
  /** The failing command and the prover's message (`invalid`). */
  error?: string;
  /** The goals now standing in place of the current goal (`progress`). */
  subgoals?: string[];
  /** The tree after the sequence (when it ran to the end). */
  tree?: TreeView;
}

/** The seed state JSON of a response as a tree view, when it is one. */
export function responseTree(response: ShellResponse, previous?: TreeView): TreeView | undefined {
  const state = parseStateJson(response.RESPONSE);
  if (!state) return undefined;
  return treeViewFromState(state, previous ? { step: response.STEP ?? 0, previous } : { step: response.STEP ?? 0 });
}

/**
 * Labels a tried sequence: `invalid` if a command failed (or changed nothing), `closes_goal` if the
 * current goal is gone or proved, `progress` with the new subgoals otherwise.
 */
export function labelOutcome(before: TreeView, commands: readonly string[], responses: readonly ShellResponse[]): TryOutcome {
  const failed = responses.findIndex((r) => r.ERR !== '');
  if (failed >= 0) return { label: 'invalid', error: `${commands[failed] ?? '?'}: ${responses[failed]?.ERR ?? ''}` };
  const last = responses[responses.length - 1];
  const after = last ? responseTree(last, before) : undefined;
  if (!after) return { label: 'invalid', error: 'no proof state after the commands' };
  // A finished theorem is judged on what Coq elaborated (issue 21): never plainly `closes_goal` when that differs.
  const meaning = responses.find((r) => r.STATEMENT !== undefined)?.STATEMENT;
  if (meaning) return { label: 'closes_goal_different_meaning', statement: meaning, tree: after };
  if (isFinishedView(after)) return { label: 'closes_goal', tree: after };
  const openBefore = goalsInContext(before).filter((g) => !g.proved);
  const current = openBefore[0];
  const openAfter = goalsInContext(after).filter((g) => !g.proved);
  const produced = openAfter.length - (openBefore.length - 1);
  if (!current || produced <= 0) return { label: 'closes_goal', tree: after };
  const subgoals = openAfter.slice(0, produced);
  const same = produced === 1 && subgoals[0]?.goal === current.goal &&
    JSON.stringify(subgoals[0]?.hyps) === JSON.stringify(current.hyps) && JSON.stringify(subgoals[0]?.vars) === JSON.stringify(current.vars);
  if (same) return { label: 'invalid', error: 'no progress: the goal is unchanged', tree: after };
  return { label: 'progress', subgoals: subgoals.map((g) => g.goal), tree: after };
}
