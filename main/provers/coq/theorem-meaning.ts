import type { StatementMeaning } from '../../../shared/protocol/statement-meaning.ts';
import type { ClientOptions, CoqideTopClient } from './coqidetop-client.ts';
import { printedAll } from './printed-all.ts';
import { judgeStatement } from './statement-judge.ts';

/** Limit for a query or a setting that runs no tactic. */
const ROUND_TRIP_MS = 5000;

/**
 * What the finished theorem means (issue 21): its type as Coq elaborated it (`Set Printing All`, names
 * resolved to kernel names — by the plugin where it vouches for them, by `Locate Term` otherwise), against the same text read in the clean environment. Undefined when they are
 * the same term. A reading that cannot be made is shown as such, never silently dropped: nobody may be
 * shown a statement as plainly proved when its meaning was not checked. `declarations` are the document's
 * own sentences (preludes and DEFINEs, without Arbor's guard sentences around them).
 */
export async function theoremMeaning(client: CoqideTopClient, clientOptions: ClientOptions, name: string, goalText: string, declarations: readonly string[]): Promise<StatementMeaning | undefined> {
  const tip = client.tip;
  // Read with the assumption judge's references, in one exchange (printed-all.ts).
  const read = await printedAll(client, name, ROUND_TRIP_MS).catch(() => undefined);
  const printed = read?.statement;
  if (read === undefined || printed === undefined) return { elaborated: goalText, clean: null, differences: ['the elaborated statement could not be read back from Coq: its meaning was not checked'] };
  // The proof stands whatever happens to the judge; a reading that broke says so, never "means what it says".
  return judgeStatement(client, printed, tip, goalText, declarations, clientOptions, read.kernel === undefined ? undefined : { names: read.names, kernel: read.kernel }).catch((e: unknown) => {
    if (!client.alive) throw e;
    return { elaborated: goalText, clean: null, differences: [`Arbor could not judge what the statement means (${(e as Error).message}): its meaning was not checked`] };
  });
}

