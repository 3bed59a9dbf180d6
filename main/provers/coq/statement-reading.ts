import { CoqideTopClient, CoqFailure, type ClientOptions } from './coqidetop-client.ts';
import { globalNames, parseCoqTerm, type CoqTerm } from './coq-sexp.ts';
import { arborPrelude } from './prelude.ts';
import { splitSentences } from './coq-sentence.ts';
import type { Reading } from './statement-meaning.ts';
import { isQualid } from './assumptions.ts';

const ROUND_TRIP_MS = 5000;
/** A `Locate` line naming an object (not a notation, tactic or module), and its full name. */
const LOCATED_OBJECT = /^(?:Constant|Inductive|Constructor|Variable|Projection)\s+(\S+)/;

const notices = (ms: { level: string; text: string }[]): string => ms.filter((m) => m.level === 'notice').map((m) => m.text).join('\n');

/**
 * A term Coq printed under `Set Printing All`, with every global name resolved to its kernel name in the
 * environment that printed it (Coq prints the shortest name that refers to each object there, so
 * `Locate` at the same state finds that very object; its answer holds kinds and paths only).
 */
export async function readTerm(client: CoqideTopClient, printed: string, at: number, cache?: Map<string, string>): Promise<Reading> {
  let term: CoqTerm | undefined;
  try {
    term = parseCoqTerm(printed);
  } catch {
    term = undefined;
  }
  const full = new Map<string, string>();
  if (term) {
    // Only a qualified name goes back to Coq (a token is never a second command).
    const names = [...globalNames(term, new Set())].filter(isQualid);
    // Every name not known yet asked in one query (one answer per `Locate`); one by one if they do not line up.
    const unknown = names.filter((n) => cache?.get(n) === undefined);
    const batched = new Map<string, string>();
    if (unknown.length > 1) {
      const out = await client.query(unknown.map((n) => `Locate ${n}.`).join(' '), at, ROUND_TRIP_MS).catch(() => undefined);
      const answers = out?.filter((m) => m.level === 'notice').map((m) => m.text);
      if (answers?.length === unknown.length) unknown.forEach((n, i) => batched.set(n, answers[i] as string));
    }
    for (const n of names) {
      let hit = cache?.get(n);
      if (hit === undefined) {
        const text = batched.get(n) ?? notices(await client.query(`Locate ${n}.`, at, ROUND_TRIP_MS).catch(() => []));
        const line = text.split('\n').map((l) => LOCATED_OBJECT.exec(l.trim())).find((m) => m !== null);
        hit = line?.[1] ?? n;
        cache?.set(n, hit);
      }
      full.set(n, hit);
    }
  }
  return { printed, term, full };
}

/** `name\n     : type` (a `Check` of a constant) → the type. */
export const typeFromCheck = (text: string): string | undefined => /^\S+\s*\n?\s*:\s([\s\S]*)$/.exec(text.trim())?.[1]?.trim();

/**
 * The clean environment: one coqidetop with the standard library and Arbor's prelude only, under
 * `Set Printing All`, started on first use and shared by every session (its state never changes: each
 * reading is a `Theorem` added on the base state, its goal read, then edited away). Readings are
 * serialized; the process dies with Arbor like every other (process-manager).
 */
class CleanEnvironment {
  private client: Promise<{ client: CoqideTopClient; base: number }> | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  /** Kernel names never change here: one `Locate` per name for the life of the process. */
  private readonly located = new Map<string, string>();

  private start(options: ClientOptions): Promise<{ client: CoqideTopClient; base: number }> {
    this.client ??= (async () => {
      const client = await CoqideTopClient.start(options);
      for (const s of [...splitSentences(arborPrelude()), 'Set Printing All.']) await client.add(s);
      await client.goals(60_000);
      client.holdEventLoop(false);
      return { client, base: client.tip };
    })();
    this.client.catch(() => {
      this.client = undefined;
    });
    return this.client;
  }

  /** How `text` (a GOAL's text) reads here: the reading, or why Coq refuses it. */
  read(text: string, options: ClientOptions = {}): Promise<Reading | { error: string }> {
    const run = async (): Promise<Reading | { error: string }> => {
      const { client, base } = await this.start(options);
      if (!client.alive) {
        this.client = undefined;
        return run();
      }
      client.holdEventLoop(true);
      try {
        await client.add(`Theorem arbor_clean_reading : (${text}).`, ROUND_TRIP_MS);
        const goal = (await client.goals(ROUND_TRIP_MS)).goals?.[0]?.goal;
        if (goal === undefined) return { error: 'no goal' };
        return await readTerm(client, goal, client.tip, this.located);
      } catch (e) {
        if (e instanceof CoqFailure) return { error: e.message.replace(/\s+/g, ' ').trim() };
        throw e;
      } finally {
        if (client.alive) await client.editAt(base, ROUND_TRIP_MS).catch(() => client.kill());
        client.holdEventLoop(false);
      }
    };
    const next = this.queue.then(run, run);
    this.queue = next.catch(() => undefined);
    return next;
  }

  /** Runs `work` on the clean prover's base state, after every earlier request (one at a time). */
  private atBase<T>(options: ClientOptions, work: (client: CoqideTopClient, base: number) => Promise<T>): Promise<T> {
    const run = async (): Promise<T> => {
      const { client, base } = await this.start(options);
      client.holdEventLoop(true);
      try {
        return await work(client, base);
      } finally {
        client.holdEventLoop(false);
      }
    };
    const next = this.queue.then(run, run);
    this.queue = next.catch(() => undefined);
    return next;
  }

  /** What each name means here (kernel names; absent when it names nothing here). */
  names(names: string[], options: ClientOptions = {}): Promise<Map<string, string>> {
    return this.atBase(options, async (client, base) => {
      const out = new Map<string, string>();
      for (const n of names) {
        const full = (await readTerm(client, n, base, this.located)).full.get(n);
        if (full !== undefined && full !== n) out.set(n, full);
      }
      return out;
    });
  }

  /** Which of `names` refer to something here as written (`Check @name` succeeds): a shadowed library name does. */
  referring(names: string[], options: ClientOptions = {}): Promise<Set<string>> {
    return this.atBase(options, async (client, base) => {
      const out = new Set<string>();
      for (const n of names) {
        if (isQualid(n) && (await client.query(`Check @${n}.`, base, ROUND_TRIP_MS).then(() => true, () => false))) out.add(n);
      }
      return out;
    });
  }

  async dispose(): Promise<void> {
    const c = this.client;
    this.client = undefined;
    if (c) await (await c.catch(() => undefined))?.client.dispose();
  }
}

export const cleanEnvironment = new CleanEnvironment();

/** How the text `goal` reads in the clean environment (see CleanEnvironment). */
export const cleanReading = (goal: string, options?: ClientOptions): Promise<Reading | { error: string }> => cleanEnvironment.read(goal, options);

export { notices };
