import type { StatementMeaning } from '../../../shared/protocol/statement-meaning.ts';
import type { ClientOptions, CoqideTopClient } from './coqidetop-client.ts';
import { isQualid } from './assumptions.ts';
import { cleanEnvironment, cleanReading, notices, readTerm, typeFromCheck } from './statement-reading.ts';
import { compareReadings } from './statement-meaning.ts';

/** Limit for a query or a setting that runs no tactic. */
const ROUND_TRIP_MS = 5000;

/**
 * What the finished theorem means (issue 21): its type as Coq elaborated it (`Set Printing All`, names
 * resolved to kernel names), against the same text read in the clean environment. Undefined when they are
 * the same term. A reading that cannot be made is shown as such, never silently dropped: nobody may be
 * shown a statement as plainly proved when its meaning was not checked. `declarations` are the document's
 * own sentences (preludes and DEFINEs, without Arbor's guard sentences around them).
 */
export async function theoremMeaning(client: CoqideTopClient, clientOptions: ClientOptions, name: string, goalText: string, declarations: readonly string[]): Promise<StatementMeaning | undefined> {
  const tip = client.tip;
  let printed: string | undefined;
  try {
    await client.add('Set Printing All.', ROUND_TRIP_MS);
    await client.goals(ROUND_TRIP_MS);
    printed = typeFromCheck(notices(await client.query(`Check ${name}.`, client.tip, ROUND_TRIP_MS)));
  } catch {
    printed = undefined;
  } finally {
    await client.editAt(tip, ROUND_TRIP_MS);
  }
  if (printed === undefined) return { elaborated: goalText, clean: null, differences: ['the elaborated statement could not be read back from Coq: its meaning was not checked'] };
  const doc = await readTerm(client, printed, tip);
  const clean = await cleanReading(goalText, clientOptions).catch((e: unknown) => ({ error: `the clean environment is unavailable (${(e as Error).message})` }));
  if ('error' in clean) {
    // No clean reading to compare with: still say what the document's names would mean there.
    const full = await cleanEnvironment.names([...doc.full.keys()].filter(isQualid), clientOptions).catch(() => undefined);
    const own = [...doc.full].filter(([, f]) => !/^(Coq|Hammer)\./.test(f)).map(([shown]) => shown);
    const referring = await cleanEnvironment.referring(own, clientOptions).catch(() => undefined);
    if (referring !== undefined && onlyNewWords(own, referring, clean.error, declarations)) return undefined;
    return compareReadings(doc, full ? { ...clean, full } : clean);
  }
  return compareReadings(doc, clean);
}

/** Declarations that change how a term is read (notations, scopes, coercions, implicit arguments, instances, imports). */
const READS_DIFFERENTLY = /^(Notation|Infix|Reserved|Open|Close|Bind|Delimit|Declare|Coercion|Canonical|Arguments|Instance|Existing|Class|Hint|Set|Unset|Require|From|Import|Export|Include|Typeclasses|Generalizable|Implicit)\b/;

/**
 * A statement that does not elaborate in a clean environment only because it uses the document's own new
 * words (`double`, defined by the document and naming nothing in the library) means what it says: the
 * comparison has nothing else to find when the document changed no notation, scope, coercion, implicit
 * argument, instance or import, no name of its shadows a library one and none looks like another (non-ASCII).
 */
function onlyNewWords(own: readonly string[], referring: ReadonlySet<string>, error: string, declarations: readonly string[]): boolean {
  if (!/was not found in the current environment/.test(error) || own.length === 0) return false;
  if (own.some((shown) => referring.has(shown) || [...shown].some((c) => c.charCodeAt(0) > 127))) return false;
  const head = (sentence: string): string => sentence.replace(/^\s*(#\[[^\]]*\]\s*)*/, '').replace(/^((Local|Global|Polymorphic|Monomorphic|Program|Private|Cumulative|NonCumulative)\s+)+/, '');
  return !declarations.some((d) => READS_DIFFERENTLY.test(head(d)) || /:>/.test(d));
}
