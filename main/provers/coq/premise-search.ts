import { splitHyp, type LetTypes } from './coq-hyps.ts';
import { parseSearchResult } from './coq-queries.ts';
import { globalNames, parseCoqTerm } from './coq-sexp.ts';
import { type Premise, rankPremises, searchableConstants, searchSentence } from './hammer/premise-selection.ts';

/** What the search needs of a session: the goal under `Set Printing All`, and a query at the current state. */
export interface PremiseSearchPort {
  /**
   * The first goal and its hypotheses printed with `Set Printing All` (undefined when there is none), with Coq's
   * types of its let-bound hypotheses printed so too, when it said them (plugin `Arbor_let_types`).
   */
  printedAll(): Promise<{ goal: string; hyps: string[]; letTypes?: LetTypes | undefined } | undefined>;
  /** A query's answer lines (notices) at the current state; an error is an empty answer. */
  query(sentence: string): Promise<string[]>;
}

/**
 * The premises for the current goal (see premise-selection.ts): the constants of the goal and its
 * hypotheses as Coq printed them without notations, one `Search` per constant, ranked by shared constants.
 * `exclude` keeps out the theorem being proved.
 */
export async function searchPremises(port: PremiseSearchPort, deadline: number, exclude: ReadonlySet<string> = new Set()): Promise<{ constants: string[]; premises: Premise[] }> {
  const printed = await port.printedAll();
  if (!printed) return { constants: [], premises: [] };
  const entries = printed.hyps.flatMap((h) => splitHyp(h, printed.letTypes));
  const locals = new Set(entries.map((e) => e.name));
  const constants = new Set<string>();
  for (const text of [printed.goal, ...entries.map((e) => e.type)]) {
    try {
      for (const n of globalNames(parseCoqTerm(text), locals)) constants.add(n);
    } catch {
      // A term the reader does not know (e.g. a fixpoint body in a hypothesis): its constants are missed, nothing else.
    }
  }
  const searched = searchableConstants(constants);
  const found = new Map<string, Premise[]>();
  for (const c of searched) {
    const left = deadline - Date.now();
    if (left < 300) break;
    const sentence = searchSentence(c, Math.min(2, left / 1000));
    if (!sentence) continue;
    const lines = await port.query(sentence);
    // One premise per message: `name: type`.
    found.set(c, lines.map(parseSearchResult).filter((p): p is Premise => p !== undefined));
  }
  return { constants: searched, premises: rankPremises(found, 8, new Set([...exclude, ...locals])) };
}
