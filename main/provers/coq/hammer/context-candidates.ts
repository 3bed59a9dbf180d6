import type { ContextEntry } from '../../../../shared/proof-tree/proof-state.ts';

/** At most this many context variables are inducted on: each costs a slice of the budget. */
const MAX_CONTEXT_CANDIDATES = 3;

/**
 * The variables a goal has in its context rather than under its `forall` (issue 25): a theorem stated inside
 * an open section sees the section's `Variable`s/`Context` there, and a goal the user already introduced sees
 * its variables so. Induction and case analysis on them is as legitimate as on a bound variable (Coq
 * generalises what depends on them). Returned after the introduced ones, the last declared first (a later
 * variable is the likelier recursion argument: `Variables (xs ys : list A)` with `ys` in the premise).
 */
export function contextCandidates(context: readonly ContextEntry[], introduced: readonly ContextEntry[]): ContextEntry[] {
  const bound = new Set(introduced.map((e) => e.name));
  return context.filter((e) => e.kind === 'var' && !bound.has(e.name)).reverse().slice(0, MAX_CONTEXT_CANDIDATES);
}
