import type { CommandSuggestion } from '../../shared/agent/agent-types.ts';
import type { ShellResponse } from '../../shared/protocol/shell-command.ts';
import type { NewSuggestion } from './suggestion-queue.ts';
import { quoteTerm } from './term-input.ts';

/** Who the panel says a discovered lemma comes from. */
export const HAMMER_SOURCE = 'source:HAMMER';

/**
 * The lemmas a `HAMMER` (or an `END` that hammered) discovered and proved, as `HAVE` suggestions with their
 * proofs (issue 13): `HAVE name "statement"; APPLY (proof); END` keeps the lemma as a named step. Offered
 * whether or not the goal closed with it. `step` is the state the suggestion belongs to: the one the
 * hammer started from (a failed HAMMER leaves it; a successful one made the next step).
 */
export function hammerLemmaSuggestions(response: ShellResponse): NewSuggestion[] {
  const found = response.HAMMER_REPORT?.discovered ?? [];
  if (found.length === 0 || response.STEP === undefined) return [];
  const step = response.ERR === '' ? Math.max(1, response.STEP - 1) : response.STEP;
  return found.map((lemma) => {
    const commands = [`HAVE ${lemma.name} ${quoteTerm(lemma.statement)}`, `APPLY (${lemma.proof})`, 'END'];
    const edit: CommandSuggestion = { kind: 'commands', commands };
    return {
      from: HAMMER_SOURCE,
      edit,
      reason: `HAMMER discovered this lemma and Coq proved it; ${lemma.used ? 'the goal closed with it' : 'the goal did not close with it alone'}`,
      label: 'progress',
      apply: commands,
      step,
    };
  });
}
