import type { AssumptionVerdict, PrintedAssumptions, ResolvedAssumption } from './assumptions.ts';
import { isQualid, judgeAssumptions, parsePrintAssumptions } from './assumptions.ts';

/** Library constants known closed across sessions (closed-library-cache.ts). */
export interface KnownClosed {
  /** Learn what is loaded now (after boot). */
  warm(): Promise<void>;
  knownClosed(fulls: readonly string[]): Promise<Set<string>>;
  remember(closed: readonly string[]): Promise<void>;
}

/**
 * Issue 24 item 4: the assumption judgement of a finished theorem without walking the libraries again.
 * `Print Assumptions T` walks T's whole dependency closure, fetching every library's opaque proofs from disk
 * each time (a proof by `lia` reaches ~60 files of micromega, ≈ 0.4–1.8 s), so fifty `lia` lemmas walked
 * the same closure fifty times. Here T's assumptions are the union of its direct references' assumptions:
 * the globals its kernel body and statement mention, as Arbor's Coq plugin reads them from the kernel term
 * (`Arbor_references T`, arbor-plugin.ts: kernel objects named as `Locate Term` names them, nothing printed
 * and parsed back); each global's own assumptions come from Coq's `Print Assumptions` on it, asked once per
 * kernel name and remembered. The rule is the same: every axiom T reaches is judged, whether directly or
 * through an earlier lemma or a library constant. Whatever the plugin cannot vouch for (a section variable,
 * a primitive literal), or no plugin at all, falls back to `Print Assumptions T` itself.
 */

/** An axiom's printed name as `Locate Term` resolved it: a kernel name, an open section's variable or functor's parameter field, or nothing known. */
type Resolved = ResolvedAssumption;

/** What one global depends on, as `Print Assumptions` on it said, each candidate resolved where it was asked. */
interface Walked {
  axioms: { name: string; statement: string; full: Resolved }[];
  bypasses: string[];
  /** For the document's own globals: valid while the session's log keeps its first `logLength` sentences. */
  logLength?: number;
}

/** How the judge talks to the session's coqidetop (at its tip). */
export interface JudgeIO {
  /** The notice answers of a query (one or more sentences) at the tip, in order. */
  query(sentences: string): Promise<string[]>;
  /** `Arbor_references <name>` at the tip: the theorem's line, then one line per global its term mentions. */
  references(name: string): Promise<string>;
  /**
   * `Print Assumptions` on one definition that mentions every global of `fulls` (undefined when Coq does not
   * take it): one walk of their joint closure, the libraries' opaque proofs fetched once.
   */
  assumptionsOfAll(fulls: readonly string[]): Promise<string | undefined>;
  /** The kernel name (or section variable) `Locate Term` gives for an axiom's printed name, at the tip. */
  resolve(name: string): Promise<Resolved>;
  /** The session's log length now (the document's globals are remembered against it). */
  logLength(): number;
}

/**
 * A line of the plugin's answer: a global as `Locate Term` names it, marked when it belongs to a bound module (a
 * functor's parameter), or a section's variable by its name. Anything else (`Unreadable`) is not vouched for. A path holds no ASCII blank, but may hold a no-break space (a name's own character, which
 * `\s` and `trim` would take for layout).
 */
const LOCATED = /^(Constant|Inductive|Constructor|Variable) ([^ \t\r\n]+)( \(bound module\))?$/;
/** The installed libraries' globals never change while a session lives; any other (the document's, `Top.…`) may. */
const documentGlobal = (full: string): boolean => !/^(Coq|Hammer)\./.test(full);

export class ClosedConstants {
  private readonly walked = new Map<string, Walked>();
  /** Counters for tests and benchmarks: how often the library was walked. */
  readonly stats = { judged: 0, fallbacks: 0, walks: 0 };

  constructor(
    private readonly io: JudgeIO,
    private readonly library?: KnownClosed,
  ) {}

  /** After boot: what the prelude loaded is learnt before the first request (never fails). */
  async warm(): Promise<void> {
    await this.library?.warm();
  }

  /** The session's log was cut to its first `length` sentences: the document's globals judged after that are gone. */
  forgetAfter(length: number): void {
    for (const [full, w] of this.walked) if (w.logLength !== undefined && w.logLength > length) this.walked.delete(full);
  }

  /**
   * A new coqidetop replayed the preludes and the log: the same sentences, but a `Require` loads its library
   * as it is on disk now (the user may have rebuilt it). Whatever was learnt about names and globals that are
   * not the installed libraries' is asked again; `Inspect 2` cannot see a library's new objects.
   */
  forgetEnvironment(): void {
    this.forgetDocumentGlobals();
  }

  /**
   * What was learnt about the document's own globals, by path: a path is no identity once a section or module opens
   * or closes (`Top.S.y` is a section's constant while `Section S` is open; after `End S` a functor `Module S (X : T)`
   * gives its own `y` that very path: judge-memo-path.attack.test.ts). The session calls it after any DEFINE that may
   * have opened or closed a block (coq-session.ts); the installed libraries' globals are kept.
   */
  forgetDocumentGlobals(): void {
    for (const full of this.walked.keys()) if (documentGlobal(full)) this.walked.delete(full);
  }

  /** Judges the theorem `name` (just closed by `Qed`): its assumptions, by kernel name, against `trusted`. */
  async judge(name: string, trusted: ReadonlySet<string>): Promise<AssumptionVerdict> {
    this.stats.judged++;
    const direct = await this.directReferences(name);
    let union: Walked;
    if (direct === undefined) {
      this.stats.fallbacks++;
      union = await this.walk(name);
    } else {
      await this.walkAll(direct.fulls.filter((full) => !this.walked.has(full)));
      union = { axioms: [], bypasses: [] };
      // (A referenced axiom is an assumption of its own: Print Assumptions on it lists itself.)
      for (const full of direct.fulls) {
        const w = this.walked.get(full) as Walked;
        union.axioms.push(...w.axioms);
        union.bypasses.push(...w.bypasses);
      }
      // A bound module's global (a functor's parameter field) is walked each time, never remembered: its path
      // names it only while its functor is open, and a later object may have the same path. So is a section's
      // variable or `Let`: `Print Assumptions` of it lists it as a section variable, or what its body assumes.
      for (const full of direct.bound) {
        const w = await this.walk(full);
        union.axioms.push(...w.axioms);
        union.bypasses.push(...w.bypasses);
      }
    }
    // A refusal stands: the plugin's reading is the kernel term's, and what it adds to Coq's own walk inside a
    // section (what the variables' types mention, the hypotheses a lemma was declared with) is what `coqc`'s
    // `Print Assumptions` sees once the section ends (section-judge attacks); Coq's walk may not overrule it.
    const verdict = await judgeWalked(union, trusted);
    // A functor parameter's field is one only while its functor is open: what reached one is never remembered.
    const parametric = (w: Walked | undefined): boolean => w?.axioms.some((a) => typeof a.full === 'object' && 'functorParameter' in a.full) ?? false;
    if (parametric(union)) {
      for (const [full, w] of this.walked) if (parametric(w)) this.walked.delete(full);
      return verdict;
    }
    // The theorem is remembered, by its kernel name, for the lemmas that use it (until the log is cut below it).
    if (direct !== undefined && !direct.selfBound) this.walked.set(direct.self, { ...union, logLength: this.io.logLength() });
    return verdict;
  }

  /**
   * The kernel names of the globals `name`'s body and statement mention; undefined when the plugin's answer
   * holds anything it cannot vouch for, or there is no answer (then the whole closure is walked by Coq instead).
   */
  private async directReferences(name: string): Promise<{ self: string; selfBound: boolean; fulls: string[]; bound: string[] } | undefined> {
    let answer: string;
    try {
      answer = await this.io.references(name);
    } catch {
      return undefined;
    }
    const lines = answer.split('\n').filter((l) => l !== '');
    const first = LOCATED.exec(lines[0] ?? '');
    // The theorem itself, a constant of that name, comes first: anything else is not the theorem just closed.
    if (first?.[1] !== 'Constant' || (first[2] as string).split('.').at(-1) !== name) return undefined;
    const fulls = new Set<string>();
    const bound = new Set<string>();
    for (const line of lines.slice(1)) {
      const m = LOCATED.exec(line);
      if (m === null) return undefined;
      // A section's variable or `Let` (by its name) is walked each time, as a bound module's global: a name, not a path.
      (m[3] === undefined && m[1] !== 'Variable' ? fulls : bound).add(m[2] as string);
    }
    const self = first[2] as string;
    fulls.delete(self);
    bound.delete(self);
    return { self, selfBound: first[3] !== undefined, fulls: [...fulls], bound: [...bound] };
  }

  /**
   * Each global not yet known: when their joint closure is closed (the usual case: a proof by `lia` reaches
   * only the library's axiom-free micromega), each of them is closed — one walk for all. Otherwise
   * `Print Assumptions` on each, in one query; one by one if the answers do not line up.
   */
  private async walkAll(asked: readonly string[]): Promise<void> {
    if (asked.length === 0) return;
    // Library constants an earlier session found closed, in the very library file loaded now.
    const known = this.library ? await this.library.knownClosed(asked) : new Set<string>();
    for (const full of known) this.walked.set(full, { axioms: [], bypasses: [] });
    const fulls = asked.filter((full) => !known.has(full));
    if (fulls.length === 0) return;
    const joint = await this.io.assumptionsOfAll(fulls).catch(() => undefined);
    if (joint !== undefined) {
      this.stats.walks++;
      const printed = parsePrintAssumptions(joint);
      if (printed.axioms.length === 0 && printed.bypasses.length === 0 && /Closed under the global context/.test(joint)) {
        for (const full of fulls) this.walked.set(full, { axioms: [], bypasses: [], ...(documentGlobal(full) ? { logLength: this.io.logLength() } : {}) });
        await this.library?.remember(fulls);
        return;
      }
    }
    let answers: string[] | undefined;
    try {
      answers = await this.io.query(fulls.map((f) => `Print Assumptions ${f}.`).join(' '));
    } catch {
      answers = undefined;
    }
    const closed: string[] = [];
    for (const [i, full] of fulls.entries()) {
      const text = answers?.length === fulls.length ? answers[i] as string : undefined;
      const walked = text === undefined ? await this.walk(full) : await this.read(text);
      if (documentGlobal(full)) walked.logLength = this.io.logLength();
      this.walked.set(full, walked);
      if (text !== undefined && walked.axioms.length === 0 && walked.bypasses.length === 0 && /^Closed under the global context\s*$/.test(text.trim())) closed.push(full);
    }
    await this.library?.remember(closed);
  }

  private async walk(name: string): Promise<Walked> {
    let answer: string[];
    try {
      answer = await this.io.query(`Print Assumptions ${name}.`);
    } catch (e) {
      // Coq could not parse the name: a notation made it a keyword (a section's `Variable land` after `Import
      // Uint63`). The plugin's `Arbor_assumptions` is that very command on the name given as a string (Coq's own
      // lookup, walk and printing); where it fails too (no plugin, no such name), the first error stands.
      if (!isQualid(name)) throw e;
      answer = await this.io.query(`Arbor_assumptions "${name}".`).catch(() => { throw e; });
    }
    return this.read(answer.join('\n'));
  }

  private async read(text: string): Promise<Walked> {
    this.stats.walks++;
    const printed = parsePrintAssumptions(text);
    const axioms: Walked['axioms'] = [];
    for (const a of printed.axioms) axioms.push({ ...a, full: isQualid(a.name) ? await this.io.resolve(a.name) : undefined });
    return { axioms, bypasses: printed.bypasses };
  }
}

/** The one rule (assumptions.ts), over candidates already resolved where each was printed. */
async function judgeWalked(union: Walked, trusted: ReadonlySet<string>): Promise<AssumptionVerdict> {
  const same = (x: Resolved, y: Resolved): boolean => JSON.stringify(x) === JSON.stringify(y);
  // The same printed name resolved to two objects (asked in different contexts: a library axiom walked before a
  // section whose hypothesis has its name): each kernel-named one is named by its kernel name instead.
  const first = new Map<string, Resolved>();
  const clash = new Set<string>();
  for (const a of union.axioms) {
    if (first.has(a.name) && !same(first.get(a.name), a.full)) clash.add(a.name);
    else if (!first.has(a.name)) first.set(a.name, a.full);
  }
  const byName = new Map<string, Resolved>();
  const printed: PrintedAssumptions = { axioms: [], bypasses: union.bypasses };
  for (const a of union.axioms) {
    const name = clash.has(a.name) && typeof a.full === 'string' ? a.full : a.name;
    // Still two objects under one name (two section variables?): trust neither.
    if (byName.has(name) && !same(byName.get(name), a.full)) byName.set(name, undefined);
    else byName.set(name, a.full);
    printed.axioms.push({ name, statement: a.statement });
  }
  return judgeAssumptions(printed, async (name) => byName.get(name), trusted);
}
