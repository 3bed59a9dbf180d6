import { ProverError } from '../../shell/prover-session.ts';
import { ClosedConstants } from './closed-constants.ts';
import { ClosedLibraryCache } from './closed-library-cache.ts';
import { printedAll } from './printed-all.ts';
import { constantFromLocate, isQualid, sectionVariableFromLocate } from './assumptions.ts';
import { functorParameterField, librariesFromPrint } from './functor-parameters.ts';
import { notices } from './statement-reading.ts';
import { ROUND_TRIP_MS, type CoqTip } from './coq-tip.ts';

/** The kernel re-checks the whole proof term at `Qed`: give it at least this long. */
export const QED_MIN_MS = 30_000;

/**
 * The closed-constants judge (closed-constants.ts) of one session, asking its questions of the session's
 * coqidetop at the tip: finished theorems' assumptions, each global's closure walked once per session.
 */
export function closedConstantsOn(tip: CoqTip, timeoutMs: number): ClosedConstants {
  const limit = Math.max(timeoutMs, QED_MIN_MS);
  return new ClosedConstants({
    // Joined with the statement judge's `Locate` batch when both ask at once (one query, one exchange per END).
    query: async (sentences, commands) =>
      (await (commands === undefined ? tip.client.queryJoined(sentences, tip.client.tip, limit) : tip.client.queryCommandsJoined(sentences, commands, tip.client.tip, limit)))
        .filter((m) => m.level === 'notice')
        .map((m) => m.text),
    printAll: (name) => printAll(tip, name, limit),
    assumptionsOfAll: (fulls) => assumptionsOfAll(tip, fulls, limit),
    resolve: async (name) => {
      const located = notices(await tip.client.query(`Locate Term ${name}.`, tip.client.tip, ROUND_TRIP_MS).catch(() => []));
      const full = constantFromLocate(located);
      if (full === undefined) return sectionVariableFromLocate(located);
      const libraries = async (): Promise<string[] | undefined> => librariesFromPrint(notices(await tip.client.query('Print Libraries.', tip.client.tip, ROUND_TRIP_MS)));
      return (await functorParameterField(full, tip.openBlocks(), () => libraries().catch(() => undefined))) ?? full;
    },
    logLength: () => tip.log.length,
    // Declarations (DEFINE: any vernacular) ending after `length`; a proof's own sentences never change a qualified name.
    onlyProofsSince: (length) => tip.items.every((item) => item.kind === 'proof' || (item.end ?? Infinity) <= length),
  }, new ClosedLibraryCache({
    query: async (sentences) => (await tip.client.query(sentences, tip.client.tip, ROUND_TRIP_MS)).filter((m) => m.level === 'notice').map((m) => m.text),
    coqVersion: () => tip.client.about(ROUND_TRIP_MS),
  }));
}

/** `Print name` at the tip with every detail shown (no notations, implicit arguments, return clauses). */
async function printAll(tip: CoqTip, name: string, limit: number): Promise<string> {
  // One exchange with the `Check` the statement judge reads next (printed-all.ts).
  const { print } = await printedAll(tip.client, name, limit);
  if (print === undefined) throw new ProverError('prover', `Print ${name} failed`);
  return print;
}

/** `Print Assumptions` on a throw-away definition that mentions every global of `fulls` (see closed-constants.ts). */
async function assumptionsOfAll(tip: CoqTip, fulls: readonly string[], limit: number): Promise<string | undefined> {
  if (!fulls.every(isQualid)) return undefined;
  const definition = `Definition arbor_joint_closure : unit := ${fulls.map((f) => `let _ := @${f} in `).join('')}tt.`;
  // One pipelined exchange; the slow way only when Coq refused something or the state was not the one expected.
  const fast = await tip.client.queriesAfter(definition, ['Print Assumptions arbor_joint_closure.'], limit).then((a) => notices(a[0] ?? []), () => undefined);
  if (fast !== undefined) return fast;
  const at = tip.client.tip;
  try {
    await tip.client.add(definition, ROUND_TRIP_MS);
    return notices(await tip.client.query('Print Assumptions arbor_joint_closure.', tip.client.tip, limit));
  } catch {
    return undefined;
  } finally {
    await tip.client.editAt(at, ROUND_TRIP_MS);
  }
}
