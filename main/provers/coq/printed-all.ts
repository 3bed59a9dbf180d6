import type { CoqideTopClient } from './coqidetop-client.ts';

/** Limit for a setting or a query that runs no tactic. */
const ROUND_TRIP_MS = 5000;

const notices = (ms: { level: string; text: string }[]): string => ms.filter((m) => m.level === 'notice').map((m) => m.text).join('\n');

export interface PrintedAll {
  /**
   * `Arbor_references name`: the globals its kernel body and type mention (what the assumption judge reads,
   * arbor-plugin.ts); undefined when Coq refused (the plugin is not loaded, or the name is no constant).
   */
  references: string | undefined;
  /** `Check name`: its type (what the statement judge reads the elaborated statement from); undefined when Coq refused. */
  check: string | undefined;
}

/** The last reading per client: the finishing END's two judges ask for the same theorem at the same state. */
const last = new WeakMap<CoqideTopClient, { tip: number; name: string; printed: Promise<PrintedAll> }>();

/**
 * The sentence and query of the reading, for an exchange that sends them right behind `Qed` (`addAndGoalsThen`).
 * The references and `Check` travel in one query: each query makes coqidetop set up and drop a state of its
 * own, which costs as much as a `Check` (docs/document-speed.md, "The prover's floor").
 */
export const printedAllQueries = (name: string): { sentence: string; queries: string[] } => ({ sentence: 'Set Printing All.', queries: [`${referencesOf(name)} Check ${name}.`] });

const referencesOf = (name: string): string => `Arbor_references ${name}.`;

/**
 * The reading out of the answers to `printedAllQueries`' query: its two notices, the references then `Check`'s.
 * Anything else (a command printed more than one notice, or none) is undefined: the caller asks one by one.
 */
export function readPrintedAll(answers: readonly (readonly { level: string; text: string }[])[]): PrintedAll | undefined {
  const said = (answers[0] ?? []).filter((m) => m.level === 'notice');
  if (answers.length !== 1 || said.length !== 2) return undefined;
  return { references: (said[0] as { text: string }).text, check: (said[1] as { text: string }).text };
}

/** The reading's answers (`printedAllQueries`' query) at the client's tip, got in another exchange: `printedAll` returns them. */
export function rememberPrintedAll(client: CoqideTopClient, name: string, answers: readonly (readonly { level: string; text: string }[])[]): void {
  const printed = readPrintedAll(answers);
  if (printed !== undefined) last.set(client, { tip: client.tip, name, printed: Promise.resolve(printed) });
}

/**
 * The references of `name` and `Check name` at the tip under `Set Printing All`, for both of END's judges, in one
 * pipelined exchange (Add, one query, Edit_at: see `queriesAfter`); one call after the other when that
 * fails. State ids are never reused, so the answer for (tip, name) stays true while the tip is that state.
 */
export function printedAll(client: CoqideTopClient, name: string, timeoutMs: number): Promise<PrintedAll> {
  const tip = client.tip;
  const known = last.get(client);
  if (known?.tip === tip && known.name === name) return known.printed;
  const printed = (async (): Promise<PrintedAll> => {
    try {
      const { sentence, queries } = printedAllQueries(name);
      const printed = readPrintedAll(await client.queriesAfter(sentence, queries, timeoutMs));
      if (printed === undefined) throw new Error('the reading did not answer with two notices');
      return printed;
    } catch {
      try {
        await client.add('Set Printing All.', ROUND_TRIP_MS);
        const references = await client.query(referencesOf(name), client.tip, timeoutMs).then(notices, () => undefined);
        const check = await client.query(`Check ${name}.`, client.tip, ROUND_TRIP_MS).then(notices, () => undefined);
        return { references, check };
      } finally {
        await client.editAt(tip, ROUND_TRIP_MS);
      }
    }
  })();
  last.set(client, { tip, name, printed });
  printed.catch(() => {
    if (last.get(client)?.printed === printed) last.delete(client);
  });
  return printed;
}
