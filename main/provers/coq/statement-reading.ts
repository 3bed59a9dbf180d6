import { CoqideTopClient, CoqFailure, type ClientOptions } from './coqidetop-client.ts';
import { deeperThan, globalNames, parseCoqTerm, type CoqTerm } from './coq-sexp.ts';
import { arborPrelude } from './prelude.ts';
import { COQ_BLANK, coqFlat, coqTrim, splitSentences } from './coq-sentence.ts';
import type { Reading } from './statement-meaning.ts';
import { isQualid } from './assumptions.ts';
import { runProjectLibrarySentence } from './project-library-sentence.ts';
import { hasArborPlugin, readArborStatement, startWithArborPlugin } from './arbor-plugin.ts';
import { blockEffect } from './document-blocks.ts';

const COQ_BLANK_RUNS = new RegExp(`[${COQ_BLANK}]+`, 'g');

const ROUND_TRIP_MS = 5000;
/** A `Locate` line naming an object (not a notation, tactic or module), and its full name. */
/** Coq's layout blanks only: a no-break space is part of a name (`x y`), as Coq's lexer reads it. */
const LOCATED_OBJECT = /^(?:Constant|Inductive|Constructor|Variable|Projection)[ \t]+([^ \t\r\n]+)/;

const notices = (ms: { level: string; text: string }[]): string => ms.filter((m) => m.level === 'notice').map((m) => m.text).join('\n');

/**
 * A term Coq printed under `Set Printing All`, with every global name resolved to its kernel name in the
 * environment that printed it (Coq prints the shortest name that refers to each object there, so
 * `Locate` at the same state finds that very object; its answer holds kinds and paths only).
 */
export async function readTerm(client: CoqideTopClient, printed: string, at: number, cache?: Map<string, string>, kernelRead?: { names: ReadonlyMap<string, string>; kernel: string }): Promise<Reading> {
  let term: CoqTerm | undefined;
  try {
    // `...` is the printer's elision past `Printing Depth` (under `Set Printing All` no notation prints it): what it
    // hides is never read as the same on both sides.
    term = /\.\.\./.test(printed) ? undefined : parseCoqTerm(printed);
    // A term this deep (a 3,000-character string is 3,000 nested constructors) is not read term by term: the readers
    // below recurse on it. With the plugin its kernel term still decides.
    if (term !== undefined && deeperThan(term, 400)) term = undefined;
  } catch {
    term = undefined;
  }
  const kernel = kernelRead === undefined ? {} : { kernel: kernelRead.kernel, globals: kernelRead.names };
  const full = new Map<string, string>();
  // `Locate Term`: a bare `Locate` refuses a name that is a word of its own grammar (`Term`, `Module`, `Library`,
  // `File`, `Ltac`, or a qualified name starting with one), which then stayed unresolved on both sides.
  const locate = (n: string): string => `Locate Term ${n}.`;
  if (term) {
    // Only a qualified name goes back to Coq (a token is never a second command).
    const names = [...globalNames(term, new Set())].filter(isQualid);
    // Every name not known yet asked in one query (one answer per `Locate`); one by one if they do not line up.
    const known = (n: string): string | undefined => kernelRead?.names.get(n) ?? cache?.get(n);
    const unknown = names.filter((n) => known(n) === undefined);
    const batched = new Map<string, string>();
    if (unknown.length > 1) {
      // Joined with the assumption judge's `Locate Term` batch when both ask at once: one query (coqidetop-client.ts).
      const out = await client.queryCommandsJoined(unknown.map(locate).join(' '), unknown.length, at, ROUND_TRIP_MS).catch(() => undefined);
      const answers = out?.filter((m) => m.level === 'notice').map((m) => m.text);
      if (answers?.length === unknown.length) unknown.forEach((n, i) => batched.set(n, answers[i] as string));
    }
    for (const n of names) {
      let hit = known(n);
      if (hit === undefined) {
        const text = batched.get(n) ?? notices(await client.query(locate(n), at, ROUND_TRIP_MS).catch(() => []));
        const line = text.split('\n').map((l) => LOCATED_OBJECT.exec(coqTrim(l))).find((m) => m !== null);
        hit = line?.[1] ?? n;
        cache?.set(n, hit);
      }
      full.set(n, hit);
    }
  }
  return { printed, term, full, ...kernel };
}

/** `name\n     : type` (a `Check` of a constant) → the type. */
export const typeFromCheck = (text: string): string | undefined => {
  // Coq's blanks only: the name and the type may begin or end with a no-break space, part of a name (`O `).
  const m = /^[^ \t\r\n]+[ \t\r\n]*:[ \t\r\n]([\s\S]*)$/.exec(coqTrim(text));
  return m === null ? undefined : coqTrim(m[1] as string);
};

/** The clean environment's coqidetop, with Arbor's plugin where it is built and this Coq takes it. */
const startClean = async (options: ClientOptions): Promise<CoqideTopClient> => (await startWithArborPlugin(options)) ?? CoqideTopClient.start(options);

/** How long one of the document's library sentences (a `Require` of Reals loads many files) may take here. */
const LIBRARY_MS = 60_000;
const QUALID = "[A-Za-z_][A-Za-z0-9_']*(?:\\.[A-Za-z_][A-Za-z0-9_']*)*";
/**
 * A sentence that brings library vocabulary in, matched whole (ASCII names, no comments or strings, so it
 * is exactly one sentence in any parser state): `Require`, `Import`/`Export` of modules, `Open`/`Close Scope`.
 */
const LIBRARY_SENTENCE = new RegExp(
  `^(?:(?:From ${QUALID} )?Require(?: Import| Export)?(?: ${QUALID})+|(?:Import|Export)(?: ${QUALID})+|(?:(?:Local|Global) )?(?:Open|Close) Scope [A-Za-z_][A-Za-z0-9_']*)\\.$`,
);

/**
 * The document's sentences that could bring library vocabulary into the clean environment, normalised
 * (blanks collapsed). `Export Set …` is an option, not a module: never one of these.
 */
export const librarySentences = (sentences: readonly string[]): string[] => {
  const out: string[] = [];
  // A sentence inside a section or module that has ended since: its `Import` and `Open Scope` ended with it (only a
  // `Require`'s loading stays), so the clean reading, at top level, must not run them.
  const closedAfter = closedBlockSentences(sentences);
  for (const [i, s] of sentences.entries()) {
    let read = librarySentenceOf.get(s);
    if (read === undefined) {
      // Coq's blanks only: `Require Import Foo\u00a0Bar.` loads one library, never `Foo` and `Bar`.
      const flat = coqTrim(s).replace(COQ_BLANK_RUNS, ' ');
      read = LIBRARY_SENTENCE.test(flat) && !/^Export (?:Set|Unset) /.test(flat) ? flat : null;
      if (librarySentenceOf.size >= 4096) librarySentenceOf.clear();
      librarySentenceOf.set(s, read);
    }
    if (read === null) continue;
    if (!closedAfter.has(i)) out.push(read);
    else if (/^(?:From \S+ )?Require /.test(read)) out.push(read.replace(/^((?:From \S+ )?Require) (?:Import|Export) /, '$1 '));
  }
  return out;
};
/** The indices of sentences inside a section or module that a later sentence ends (Coq's `End`, document-blocks.ts). */
function closedBlockSentences(sentences: readonly string[]): Set<number> {
  const closed = new Set<number>();
  const stack: number[][] = [];
  for (const [i, s] of sentences.entries()) {
    let effect = blockEffectOf.get(s);
    if (effect === undefined) {
      effect = blockEffect(s) ?? null;
      if (blockEffectOf.size >= 4096) blockEffectOf.clear();
      blockEffectOf.set(s, effect);
    }
    if (effect === null) for (const frame of stack) frame.push(i);
    else if ('open' in effect) stack.push([]);
    else for (const k of stack.pop() ?? []) closed.add(k);
  }
  return closed;
}
/** Each sentence's block effect, read once (asked again at every GOAL and END, as `librarySentenceOf`). */
const blockEffectOf = new Map<string, NonNullable<ReturnType<typeof blockEffect>> | null>();

/** Each sentence's answer above: a document's declarations are asked about again at every GOAL and END. */
const librarySentenceOf = new Map<string, string | null>();

interface LibraryState {
  client: CoqideTopClient;
  key: string;
  tip: number;
  /** The library sentences that ran here (the others name something that is not a library's). */
  applied: string[];
}

/**
 * The clean environment: one coqidetop with the standard library and Arbor's prelude, under
 * `Set Printing All`, started on first use and shared by every session with the same project arguments
 * (a trusted project's load paths, whose modules come in with their names only). A reading may ask for the
 * document's own library sentences (`Require Import Reals.`, `Open Scope R_scope.`): those that run here
 * (a `Require` only ever loads an installed library; an `Import`/`Open Scope` of the document's own module
 * or scope fails here and is left out) are added on the base state, and kept while the next reading asks
 * for the same ones. Nothing the document declares itself (notations, definitions) ever runs here.
 * Readings are serialized; the process dies with Arbor like every other (process-manager).
 */
class CleanEnvironment {
  constructor(private readonly projectArgs: readonly string[]) {}

  private client: Promise<{ client: CoqideTopClient; base: number }> | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  private library: LibraryState | undefined;
  /** Kernel names never change for a given set of library sentences: one `Locate` per name and set. */
  private readonly located = new Map<string, Map<string, string>>();
  /** Whether a name refers to something, per set of library sentences (`referring`). */
  private readonly refers = new Map<string, Map<string, boolean>>();
  /**
   * Readings by (library sentences, text): a reading is a function of both (the same base state, the same
   * sentences run on it), so a GOAL's statement read ahead (`prefetch`) is the one its END compares with.
   */
  private readonly readings = new Map<string, Promise<(Reading & { library: string[] }) | { error: string; library: string[] }>>();

  /** Starts the clean environment now (a session's boot), so the first END does not wait for it. */
  warm(options: ClientOptions = {}): void {
    this.start(options).catch(() => undefined);
  }

  /** Reads `text` ahead (a GOAL's statement, while its proof is written), for its END. */
  prefetch(text: string, options: ClientOptions = {}, library: readonly string[] = []): void {
    this.read(text, options, library).catch(() => undefined);
  }

  private start(options: ClientOptions): Promise<{ client: CoqideTopClient; base: number }> {
    this.client ??= (async () => {
      // The load paths are this environment's own (CleanEnvironments keys by them): none without trust, the
      // trusted project's otherwise, whose modules are imported without their notations (withLibrary).
      const client = await startClean({ ...options, extraArgs: [...this.projectArgs] });
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

  /** The state with these library sentences run on the base (reused when the last reading asked for the same). */
  private async withLibrary(client: CoqideTopClient, base: number, library: readonly string[]): Promise<LibraryState> {
    const key = library.join('\n');
    if (this.library?.client === client && this.library.key === key) return this.library;
    this.library = undefined;
    await client.editAt(base, ROUND_TRIP_MS);
    const applied: string[] = [];
    for (const s of library) {
      const before = client.tip;
      try {
        if (this.projectArgs.length > 0) await runProjectLibrarySentence(client, s, LIBRARY_MS);
        else await client.addAndGoals(s, LIBRARY_MS);
        applied.push(s);
      } catch (e) {
        if (!(e instanceof CoqFailure)) throw e;
        await client.editAt(before, ROUND_TRIP_MS);
      }
    }
    this.library = { client, key, tip: client.tip, applied };
    return this.library;
  }

  private cache(key: string): Map<string, string> {
    let m = this.located.get(key);
    if (!m) this.located.set(key, (m = new Map()));
    return m;
  }

  /** Runs `work` at the state of these library sentences, after every earlier request (one at a time). */
  private atLibrary<T>(options: ClientOptions, library: readonly string[], work: (client: CoqideTopClient, state: LibraryState) => Promise<T>): Promise<T> {
    const run = async (): Promise<T> => {
      let started = await this.start(options);
      if (!started.client.alive) {
        this.client = undefined;
        started = await this.start(options);
      }
      const { client, base } = started;
      client.holdEventLoop(true);
      try {
        return await work(client, await this.withLibrary(client, base, library));
      } finally {
        client.holdEventLoop(false);
      }
    };
    const next = this.queue.then(run, run);
    this.queue = next.catch(() => undefined);
    return next;
  }

  /** How `text` (a GOAL's text) reads here, with the document's library sentences: the reading, or why Coq refuses it. */
  read(text: string, options: ClientOptions = {}, library: readonly string[] = []): Promise<(Reading & { library: string[] }) | { error: string; library: string[] }> {
    const key = `${library.join('\n')}\u0000${text}`;
    const known = this.readings.get(key);
    if (known) return known;
    const reading = this.readNow(text, options, library);
    this.readings.set(key, reading);
    if (this.readings.size > 256) this.readings.delete(this.readings.keys().next().value as string);
    // An unavailable environment is no reading: asked again next time.
    reading.catch(() => this.readings.delete(key));
    return reading;
  }

  private readNow(text: string, options: ClientOptions, library: readonly string[]): Promise<(Reading & { library: string[] }) | { error: string; library: string[] }> {
    return this.atLibrary(options, library, async (client, state) => {
      if (hasArborPlugin(client)) {
        // One exchange: the text elaborated as an axiom's type (as a theorem's statement is), that type read as the
        // document's END reads its theorem's (`Arbor_statement`: the same printer, names as `Locate Term` gives
        // them), and back. Anything else — the text does not elaborate — goes the way below, for Coq's message.
        const answers = await client.queriesAfter(`Axiom arbor_clean_reading : (${text}).`, ['Arbor_statement arbor_clean_reading.'], ROUND_TRIP_MS).catch(() => undefined);
        const read = answers === undefined ? undefined : readArborStatement((answers[0] ?? []).filter((m) => m.level === 'notice').map((m) => m.text));
        if (read !== undefined && client.tip === state.tip) {
          return { ...(await readTerm(client, read.printed, state.tip, this.cache(state.key), read)), library: state.applied };
        }
        if (client.tip !== state.tip) await client.editAt(state.tip, ROUND_TRIP_MS);
      }
      try {
        // Add and Goal in one exchange (the reading runs beside every GOAL of every document).
        const goal = (await client.addAndGoals(`Theorem arbor_clean_reading : (${text}).`, ROUND_TRIP_MS)).goals?.[0]?.goal;
        if (goal === undefined) return { error: 'no goal', library: state.applied };
        return { ...(await readTerm(client, goal, client.tip, this.cache(state.key))), library: state.applied };
      } catch (e) {
        if (e instanceof CoqFailure) return { error: coqFlat(e.message), library: state.applied };
        throw e;
      } finally {
        if (client.alive) await client.editAt(state.tip, ROUND_TRIP_MS).catch(() => client.kill());
      }
    });
  }

  /** What each name means here (kernel names; absent when it names nothing here). */
  names(names: string[], options: ClientOptions = {}, library: readonly string[] = []): Promise<Map<string, string>> {
    return this.atLibrary(options, library, async (client, state) => {
      const out = new Map<string, string>();
      for (const n of names) {
        const full = (await readTerm(client, n, state.tip, this.cache(state.key))).full.get(n);
        if (full !== undefined && full !== n) out.set(n, full);
      }
      return out;
    });
  }

  /**
   * Which of `names` refer to something here as written (`Check @name` succeeds): a shadowed library name does.
   * The state of a set of library sentences never changes (every reading goes back to it): answers are kept per state.
   */
  referring(names: string[], options: ClientOptions = {}, library: readonly string[] = []): Promise<Set<string>> {
    return this.atLibrary(options, library, async (client, state) => {
      let known = this.refers.get(state.key);
      if (!known) this.refers.set(state.key, (known = new Map()));
      const out = new Set<string>();
      for (const n of names) {
        if (!isQualid(n)) continue;
        let refers = known.get(n);
        if (refers === undefined) {
          refers = await client.query(`Check @${n}.`, state.tip, ROUND_TRIP_MS).then(() => true, (e: unknown) => {
            // A dead, hung or interrupted environment is no answer: asked again next time, never kept.
            if (!(e instanceof CoqFailure) || /User interrupt/i.test(e.message)) throw e;
            return false;
          });
          // An abbreviation with parameters (`iter_nat n A f x`, `Pcompare x y m`) refers to something as written,
          // yet `Check @` refuses it ("not applied enough"): `Locate Term` says whether the name itself is one.
          if (!refers) refers = abbreviationAsWritten(notices(await client.query(`Locate Term ${n}.`, state.tip, ROUND_TRIP_MS)));
          known.set(n, refers);
        }
        if (refers) out.add(n);
      }
      return out;
    });
  }

  async dispose(): Promise<void> {
    const c = this.client;
    this.client = undefined;
    this.library = undefined;
    this.readings.clear();
    const started = c ? await c.catch(() => undefined) : undefined;
    // Held while it stops: unreferenced, its exit would not keep Node alive and a pending await would end the process (exit 13).
    started?.client.holdEventLoop(true);
    await started?.client.dispose();
  }
}

/**
 * A `Locate Term` answer whose first entry is an abbreviation (`Notation Coq.Arith.Wf_nat.iter_nat`) the name
 * refers to as written: no "shorter name" remark (that one is reached only by a longer name).
 */
export const abbreviationAsWritten = (located: string): boolean => {
  const lines = coqTrim(located).split('\n');
  // The first entry: its line and the indented remarks under it.
  const next = lines.findIndex((l, i) => i > 0 && !/^[ \t]/.test(l));
  const entry = next < 0 ? lines : lines.slice(0, next);
  return /^Notation[ \t]+[^ \t\r\n]/.test(entry[0] ?? '') && !entry.some((l) => /shorter name/.test(l));
};

/**
 * One clean environment per set of project arguments (`ClientOptions.extraArgs`, present only while the
 * workspace is trusted): a session without trust reads in the environment with no load path, whoever asked
 * first, and trusting or withdrawing trust later starts readings in the matching environment. Two are kept.
 */
class CleanEnvironments {
  private readonly byProject = new Map<string, CleanEnvironment>();

  private of(options: ClientOptions): CleanEnvironment {
    const args = options.extraArgs ?? [];
    const key = JSON.stringify(args);
    let env = this.byProject.get(key);
    if (env) this.byProject.delete(key);
    else env = new CleanEnvironment(args);
    this.byProject.set(key, env);
    if (this.byProject.size > 2) {
      const [oldest, stale] = this.byProject.entries().next().value as [string, CleanEnvironment];
      this.byProject.delete(oldest);
      void stale.dispose();
    }
    return env;
  }

  warm(options: ClientOptions = {}): void {
    this.of(options).warm(options);
  }

  prefetch(text: string, options: ClientOptions = {}, library: readonly string[] = []): void {
    this.of(options).prefetch(text, options, library);
  }

  read(text: string, options: ClientOptions = {}, library: readonly string[] = []): ReturnType<CleanEnvironment['read']> {
    return this.of(options).read(text, options, library);
  }

  names(names: string[], options: ClientOptions = {}, library: readonly string[] = []): Promise<Map<string, string>> {
    return this.of(options).names(names, options, library);
  }

  referring(names: string[], options: ClientOptions = {}, library: readonly string[] = []): Promise<Set<string>> {
    return this.of(options).referring(names, options, library);
  }

  async dispose(): Promise<void> {
    const all = [...this.byProject.values()];
    this.byProject.clear();
    await Promise.all(all.map((e) => e.dispose()));
  }
}

export const cleanEnvironment = new CleanEnvironments();

/** How the text `goal` reads in the clean environment (see CleanEnvironment), with the document's library sentences. */
export const cleanReading = (goal: string, options?: ClientOptions, library: readonly string[] = []): Promise<(Reading & { library: string[] }) | { error: string; library: string[] }> =>
  cleanEnvironment.read(goal, options, library);

export { notices };
