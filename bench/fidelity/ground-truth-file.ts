import type { FidelityCase } from '../../shared/fidelity/fidelity-cases.ts';
import { parseContext, splitSentences } from '../../shared/fidelity/fidelity-context.ts';
import { refutationHelpers } from '../../shared/fidelity/refutation-preamble.ts';
import { coqHeader } from '../../main/fidelity/coq-fidelity-prover.ts';

/**
 * The Coq file that establishes a case's ground truth, written independently of the checker's tiers:
 * `equivalent` — the case's witness proves `canonical <-> candidate` in the context;
 * `not_equivalent` — in the case's model (definitions replacing the context's declarations, lemmas for its
 * hypotheses) the witness proves `~ (canonical <-> candidate)`;
 * `ill_typed` — the statements are elaborated as propositions, and the file must fail.
 */
export function groundTruthFile(c: FidelityCase): { source: string; mustFail: boolean } {
  const ctx = c.context ?? '';
  const witness = c.extra.witness ?? '';
  const model = c.extra.model ?? '';
  switch (c.truth) {
    case 'equivalent':
      return { mustFail: false, source: `${coqHeader}\nSection gt.\n${ctx}\nLemma ground_truth : (${c.canonical}) <-> (${c.candidate}).\nProof. ${witness}. Qed.\nEnd gt.\n` };
    case 'not_equivalent': {
      const parsed = parseContext(ctx);
      for (const h of parsed.hypotheses) {
        if (!new RegExp(`Lemma\\s+${h.name}\\b`, 'u').test(model)) throw new Error(`${c.id}: the model must prove hypothesis ${h.name}`);
      }
      const kept = splitSentences(ctx).filter((s) => !/^(Variables?|Parameters?|Context|Hypothesis|Hypotheses|Axioms?)\s/u.test(s)).map((s) => `${s}.`);
      return { mustFail: false, source: `${coqHeader}\n${refutationHelpers}\n${model}\n${kept.join('\n')}\nLemma ground_truth : ~ ((${c.canonical}) <-> (${c.candidate})).\nProof. ${witness}. Qed.\n` };
    }
    case 'ill_typed':
      return { mustFail: true, source: `${coqHeader}\nSection gt.\n${ctx}\nDefinition gt_canonical : Prop := (${c.canonical}).\nDefinition gt_candidate : Prop := (${c.candidate}).\nEnd gt.\n` };
    default:
      throw new Error(`${c.id}: ground truth must be equivalent, not_equivalent or ill_typed`);
  }
}
