import type { Proposal, SuggestionSource } from './suggestion-source.ts';

/** Cheap tactics worth one try each on the current goal; the prover labels what each does. */
export const QUICK_TACTICS: readonly string[] = [
  'reflexivity', 'assumption', 'auto', 'easy', 'lia', 'congruence', 'tauto', 'trivial',
  '(intros; simpl)', 'split', 'constructor', '(intros; subst; auto)',
];

export function quickTactics(tactics: readonly string[] = QUICK_TACTICS): SuggestionSource {
  return {
    name: 'quick-tactics',
    propose: async (context) => {
      const proposals: Proposal[] = tactics.map((t) => ({ commands: [`APPLY ${t}`], reason: `quick tactic ${t}` }));
      // Induction on each variable of an inductive-looking type is a cheap structural guess.
      for (const v of context.current.vars) {
        if (/^(nat|list\b|bool)/.test(v.type) && new RegExp(`\\b${v.name}\\b`).test(context.current.goal)) {
          proposals.push({ commands: [`APPLY (induction ${v.name}; simpl; auto)`], reason: `induction on ${v.name} : ${v.type}` });
        }
      }
      return proposals;
    },
  };
}
