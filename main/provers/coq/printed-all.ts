import type { CoqideTopClient } from './coqidetop-client.ts';
import { typeFromCheck } from './statement-reading.ts';
import { hasArborPlugin, readArborStatement } from './arbor-plugin.ts';

/** Limit for a setting or a query that runs no tactic. */
const ROUND_TRIP_MS = 5000;

const notices = (ms: { level: string; text: string }[]): string => ms.filter((m) => m.level === 'notice').map((m) => m.text).join('\n');

export interface PrintedAll {
  /**
   * `Arbor_references name`: the globals its kernel body and type mention (what the assumption judge reads,
   * arbor-plugin.ts); undefined when Coq refused (the plugin is not loaded, or the name is no constant).
   */
  references: string | undefined;
  /** Its type as Coq elaborated it, printed under `Set Printing All` (what the statement judge reads); undefined when Coq refused. */
  statement: string | undefined;
  /**
   * Printed name → kernel name, for the globals of `statement` the plugin vouched for: exactly what `Locate Term`
   * of that name answers at this state (`Arbor_statement`, docs/arbor-plugin.md). Empty without the plugin.
   */
  names: ReadonlyMap<string, string>;
  /** The statement's kernel term as the plugin writes it (the judge's identity); undefined without the plugin. */
  kernel?: string;
}

/** The last reading per client: the finishing END's two judges ask for the same theorem at the same state. */
const last = new WeakMap<CoqideTopClient, { tip: number; name: string; printed: Promise<PrintedAll> }>();

/**
 * The sentence and query of the reading, for an exchange that sends them right behind `Qed` (`addAndGoalsThen`).
 * With the plugin: one query at the Qed's own state (`Arbor_references`, `Arbor_statement`). Without it: `Set
 * Printing All` one state further, and `Check` there. Everything travels in one query: each query makes coqidetop
 * set up and drop a state of its own, which costs as much as a `Check` (docs/document-speed.md, "The prover's floor").
 */
export const printedAllQueries = (client: CoqideTopClient, name: string): { sentence: string | undefined; queries: string[] } =>
  hasArborPlugin(client) ? { sentence: undefined, queries: [`${referencesOf(name)} Arbor_statement ${name}.`] } : { sentence: 'Set Printing All.', queries: [`${referencesOf(name)} Check ${name}.`] };

const referencesOf = (name: string): string => `Arbor_references ${name}.`;

/**
 * The reading out of the answers to `printedAllQueries`' query: with the plugin four notices (the references,
 * the statement, its names, its kernel term), without it two (the references, then `Check`'s). Anything else (a command printed
 * more or fewer notices) is undefined: the caller asks one by one.
 */
export function readPrintedAll(answers: readonly (readonly { level: string; text: string }[])[], plugin: boolean): PrintedAll | undefined {
  const said = (answers[0] ?? []).filter((m) => m.level === 'notice').map((m) => m.text);
  if (answers.length !== 1) return undefined;
  if (plugin) {
    const statement = said.length === 4 ? readArborStatement(said.slice(1)) : undefined;
    return statement === undefined ? undefined : { references: said[0], statement: statement.printed, names: statement.names, kernel: statement.kernel };
  }
  return said.length === 2 ? { references: said[0], statement: typeFromCheck(said[1] as string), names: new Map() } : undefined;
}

/** The reading's answers (`printedAllQueries`' query) at the client's tip, got in another exchange: `printedAll` returns them. */
export function rememberPrintedAll(client: CoqideTopClient, name: string, answers: readonly (readonly { level: string; text: string }[])[]): void {
  const printed = readPrintedAll(answers, hasArborPlugin(client));
  if (printed !== undefined) last.set(client, { tip: client.tip, name, printed: Promise.resolve(printed) });
}

/**
 * The references of `name` and its elaborated statement at the tip, for both of END's judges, in one pipelined
 * exchange (see `printedAllQueries`); without the plugin one call after the other when that fails. State ids are
 * never reused, so the answer for (tip, name) stays true while the tip is that state.
 */
export function printedAll(client: CoqideTopClient, name: string, timeoutMs: number): Promise<PrintedAll> {
  const tip = client.tip;
  const known = last.get(client);
  if (known?.tip === tip && known.name === name) return known.printed;
  const plugin = hasArborPlugin(client);
  const printed = (async (): Promise<PrintedAll> => {
    try {
      const { sentence, queries } = printedAllQueries(client, name);
      const answers = sentence === undefined ? [await client.query(queries[0] as string, tip, timeoutMs)] : await client.queriesAfter(sentence, queries, timeoutMs);
      const printed = readPrintedAll(answers, plugin);
      if (printed === undefined) throw new Error('the reading did not answer as expected');
      return printed;
    } catch {
      try {
        await client.add('Set Printing All.', ROUND_TRIP_MS);
        const references = await client.query(referencesOf(name), client.tip, timeoutMs).then(notices, () => undefined);
        const check = await client.query(`Check ${name}.`, client.tip, ROUND_TRIP_MS).then(notices, () => undefined);
        return { references, statement: check === undefined ? undefined : typeFromCheck(check), names: new Map() };
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
