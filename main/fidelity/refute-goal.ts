import { emptyContext } from '../../shared/fidelity/fidelity-context.ts';
import { searchRefutation } from '../../shared/fidelity/refutation-search.ts';
import { parseStatement } from '../../shared/fidelity/statement-parser.ts';
import { coqHeader } from './coq-fidelity-prover.ts';
import { runCoqc } from './run-coqc.ts';

/** A false goal, with the instance that makes it false; Coq checked the refutation. */
export interface Refutation {
  /** e.g. `n = 1`. */
  instances: string[];
  summary: string;
}

/**
 * The fidelity engine's counterexample search on one closed statement (over nat, Z, bool and lists):
 * small instances where it is false. A candidate counts only when `coqc` accepts the file proving
 * `~ (True <-> statement)` in it, so "the goal is false" is the prover's claim, not the evaluator's.
 */
export async function refuteStatement(statement: string, timeoutMs = 10_000): Promise<Refutation | undefined> {
  let term;
  try {
    term = parseStatement(statement, 'coq');
  } catch {
    return undefined; // outside the parsed fragment: nothing to say
  }
  const truth = { text: 'True', term: parseStatement('True', 'coq') };
  const search = searchRefutation(truth, { text: statement, term }, emptyContext(), { header: coqHeader, timeoutS: Math.max(1, Math.floor(timeoutMs / 2000)), maxCandidates: 1 });
  for (const candidate of search.candidates) {
    const checked = await runCoqc(candidate.coqFile, { killAfterMs: timeoutMs });
    // Without instances the search's own summary speaks of fidelity ("the canonical statement is true and the
    // candidate is false"), which means nothing to someone proving a goal: say what Coq checked.
    if (checked.ok) return { instances: candidate.instances, summary: candidate.instances.length > 0 ? candidate.instances.join(', ') : 'Coq proved its negation' };
  }
  return undefined;
}
