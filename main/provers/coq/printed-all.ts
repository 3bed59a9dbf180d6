import type { CoqideTopClient } from './coqidetop-client.ts';

/** Limit for a setting or a query that runs no tactic. */
const ROUND_TRIP_MS = 5000;

const notices = (ms: { level: string; text: string }[]): string => ms.filter((m) => m.level === 'notice').map((m) => m.text).join('\n');

export interface PrintedAll {
  /** `Print name`: its body and type (what the assumption judge reads the direct references from); undefined when Coq refused. */
  print: string | undefined;
  /** `Check name`: its type (what the statement judge reads the elaborated statement from); undefined when Coq refused. */
  check: string | undefined;
}

/** The last reading per client: the finishing END's two judges ask for the same theorem at the same state. */
const last = new WeakMap<CoqideTopClient, { tip: number; name: string; printed: Promise<PrintedAll> }>();

/**
 * The sentence and query of the reading, for an exchange that sends them right behind `Qed` (`addAndGoalsThen`).
 * `Print` and `Check` travel in one query: each query makes coqidetop set up and drop a state of its own,
 * which costs as much as a `Check` (docs/document-speed.md, "The prover's floor").
 */
export const printedAllQueries = (name: string): { sentence: string; queries: string[] } => ({ sentence: 'Set Printing All.', queries: [`${printName(name)} Check ${name}.`] });

/**
 * `Print Term name`, never `Print name`: a theorem may be named like a `Print` subcommand (`Hint`, `Classes`,
 * `Strategies`, `Universes`…), and `Print Hint.` prints "No proof in progress", one notice, which the
 * assumption judge would read as the theorem's body (docs/read-back-attacks.md).
 */
const printName = (name: string): string => `Print Term ${name}.`;

/**
 * The reading out of the answers to `printedAllQueries`' query: its two notices, `Print`'s then `Check`'s.
 * Anything else (a command printed more than one notice, or none) is undefined: the caller asks one by one.
 */
export function readPrintedAll(answers: readonly (readonly { level: string; text: string }[])[]): PrintedAll | undefined {
  const said = (answers[0] ?? []).filter((m) => m.level === 'notice');
  if (answers.length !== 1 || said.length !== 2) return undefined;
  return { print: (said[0] as { text: string }).text, check: (said[1] as { text: string }).text };
}

/** The reading's answers (`printedAllQueries`' query) at the client's tip, got in another exchange: `printedAll` returns them. */
export function rememberPrintedAll(client: CoqideTopClient, name: string, answers: readonly (readonly { level: string; text: string }[])[]): void {
  const printed = readPrintedAll(answers);
  if (printed !== undefined) last.set(client, { tip: client.tip, name, printed: Promise.resolve(printed) });
}

/**
 * `Print name` and `Check name` at the tip under `Set Printing All`, for both of END's judges, in one
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
        const print = await client.query(printName(name), client.tip, timeoutMs).then(notices, () => undefined);
        const check = await client.query(`Check ${name}.`, client.tip, ROUND_TRIP_MS).then(notices, () => undefined);
        return { print, check };
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
