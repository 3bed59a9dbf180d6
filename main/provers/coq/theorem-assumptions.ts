import { constantFromLocate, sectionVariableFromLocate, isQualid, judgeAssumptions, parsePrintAssumptions, type AssumptionVerdict } from './assumptions.ts';
import type { CoqideTopClient } from './coqidetop-client.ts';
import { notices } from './statement-reading.ts';

/** Limit for a `Locate`: it runs no tactic. */
const ROUND_TRIP_MS = 5000;

/**
 * What a theorem just closed by `Qed` assumes (`Print Assumptions`), judged against the library's axioms and
 * those the user trusts (`trusted`, by full kernel name).
 */
export async function theoremAssumptions(client: CoqideTopClient, name: string, trusted: ReadonlySet<string>, limitMs: number): Promise<AssumptionVerdict> {
  // Progress feedback ("Fetching opaque proofs from disk for …", level info) is not part of the answer.
  const printed = notices(await client.query(`Print Assumptions ${name}.`, client.tip, limitMs));
  // Each candidate is resolved with `Locate Term`, whose answer holds kinds and kernel paths only (see assumptions.ts).
  return judgeAssumptions(parsePrintAssumptions(printed), async (candidate) => {
    if (!isQualid(candidate)) return undefined;
    const located = notices(await client.query(`Locate Term ${candidate}.`, client.tip, ROUND_TRIP_MS).catch(() => []));
    return constantFromLocate(located) ?? sectionVariableFromLocate(located);
  }, trusted);
}
