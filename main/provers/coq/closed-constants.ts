import type { AssumptionVerdict, PrintedAssumptions, ResolvedAssumption } from './assumptions.ts';
import { isQualid, judgeAssumptions, parsePrintAssumptions } from './assumptions.ts';
import { escapeRegExp } from '../../../shared/protocol/name-pattern.ts';
import { coqTrim } from './coq-sentence.ts';

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
 * the globals its body and statement mention, read from `Print T` under `Set Printing All` (no notations,
 * implicit arguments and match return clauses shown, no elision) and resolved to kernel names by
 * `Locate Term`; each global's own assumptions come from Coq's `Print Assumptions` on it, asked once per
 * kernel name and remembered. The rule is the same: every axiom T reaches is judged, whether directly or
 * through an earlier lemma or a library constant. Whatever this reading cannot vouch for (a string or
 * numeral literal, an elided term, an unresolved qualified name, a section variable, an answer that does
 * not line up) falls back to `Print Assumptions T` itself.
 */

/** A printed name as `Locate Term` resolved it: a kernel name, an open section's variable or functor's parameter field, or nothing known. */
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
  /**
   * The notice answers of a query (one or more sentences) at the tip, in order. With `commands` (each
   * printing one notice), the query may travel inside one with the other judge's (coqidetop-client.ts).
   */
  query(sentences: string, commands?: number): Promise<string[]>;
  /** `Print <name>` at the tip under `Set Printing All` (and no depth limit). */
  printAll(name: string): Promise<string>;
  /**
   * `Print Assumptions` on one definition that mentions every global of `fulls` (undefined when Coq does not
   * take it): one walk of their joint closure, the libraries' opaque proofs fetched once.
   */
  assumptionsOfAll(fulls: readonly string[]): Promise<string | undefined>;
  /** The kernel name (or section variable) `Locate Term` gives for an axiom's printed name, at the tip. */
  resolve(name: string): Promise<Resolved>;
  /** The session's log length now (the document's globals are remembered against it). */
  logLength(): number;
  /**
   * True when everything the session ran after its first `length` sentences belongs to proofs (a theorem's
   * statement, its tactics, its `Qed`): no declaration, `Require`, `Import`, module or section command.
   */
  onlyProofsSince(length: number): boolean;
}

/**
 * Words of Coq's term grammar that `Locate Term` cannot take and that never name a global, in any environment.
 * Not `struct`, `is`, `IF` (nor `mod` where only Init is loaded): coqc takes them as names (`Definition IF :=
 * …`), so they are asked like any name; where one is a keyword, Coq refuses the batch and the whole closure
 * is walked instead.
 */
const KEYWORDS = new Set([
  'fun', 'forall', 'let', 'in', 'match', 'with', 'end', 'as', 'return', 'if', 'then', 'else', 'fix', 'cofix',
  'Prop', 'Set', 'Type', 'SProp', '_', 'where', 'for', 'exists', 'exists2', 'at', 'using',
]);
/**
 * A name as Coq's lexer reads one (unicode.ml): letters, `_` and also the no-break space (U+00A0) and the
 * combining marks U+1DC0–U+1DFF anywhere, digits and `'` after the first character. A pattern narrower
 * than Coq's would split one global's name into names taken for bound variables.
 */
const NAME = /(?:[\p{L}_\u00A0]|[\u1DC0-\u1DFF])(?:[\p{L}\p{N}_'\u00A0]|[\u1DC0-\u1DFF])*(?:\.(?:[\p{L}_\u00A0]|[\u1DC0-\u1DFF])(?:[\p{L}\p{N}_'\u00A0]|[\u1DC0-\u1DFF])*)*/gu;
/** Text the name reading cannot vouch for: literals (strings, numerals) and any dot outside a qualified name (elision). */
const UNREADABLE = /"|(^|[^\p{L}\p{N}_'])[0-9]|(^|[^\p{L}\p{N}_')])\.|\.($|[^\p{L}_(])/u;
/** The first line of a `Locate Term` answer: the object the name stands for. */
const LOCATED = /^(Constant|Inductive|Constructor)[ \t]+([^ \t\r\n]+)/;
const NOT_FOUND = /^No (term|object) of basename /;
/** The installed libraries' globals never change while a session lives; any other (the document's, `Top.…`) may. */
const documentGlobal = (full: string): boolean => !/^(Coq|Hammer)\./.test(full);

/**
 * A qualified name's `Locate Term` answer, kept for later ENDs. Only a vernacular command (a declaration,
 * `Require`, `Import`, a module or section command) changes what a qualified name `d.c` stands for, or a new
 * object whose path ends in `d.c`; a proof (statement, tactics, `Qed`) declares at most objects `M.x` of the
 * module `M` it is stated in (the theorem, what `abstract` or a scheme adds). So the answer stays Coq's
 * answer while only proofs ran since it was given, unless `d` is a suffix of `M` (then it is never kept).
 * Bare names (most of them bound variables) are kept only along a verified stretch of proofs (`Stretch`).
 */
interface Located {
  /** The answer's first line: the object the name stands for. */
  first: string;
  /** The session's log length when Coq gave it. */
  at: number;
}

/**
 * Proofs since the log length `from` that are known to have declared nothing but their theorems: at each END
 * the environment's last two objects (`Inspect 2`: constants, inductives, modules, section variables — all a
 * proof item can declare, see docs/kept-answers-attacks.md) must be exactly the
 * stretch's previous theorem and this one. Along it a bare name's answer (asked at or after `from`) is still
 * Coq's answer, except for the theorem just declared. Anything else (a declaration, a cut of the log, an
 * object the check does not show) ends the stretch, and every bare name is asked again.
 */
interface Stretch {
  from: number;
  /** The last theorem of the stretch, and the log length after its `Qed`. */
  last: string;
  end: number;
}

/**
 * Coq's answer without its layout (`Check t` prints `t\n : T`, `Inspect` prints `t : T`; only the blanks
 * Coq lays out with: a no-break space is part of a name, `x y` is not `xy`) and without universe
 * instances (`Inspect` prints a universe-polymorphic `t@{u} : T`, `Check` prints `t`). The names, which the
 * check rests on, stay: each is the text before its object's first colon.
 */
const unlaid = (text: string | undefined): string => (text ?? '').replace(/[ \t\r\n]+/g, '').replace(/@\{[^{}]*\}/g, '');
/**
 * `Check @t` (implicit arguments not inserted: `Check t` prints `forall x : ?A, …` for `{A}`, `Inspect` the
 * binder) prints `@t : T` when `t` has implicit arguments; `Inspect` prints `t : T`.
 */
const checked = (text: string | undefined): string => unlaid(text).replace(/^@/, '');

/** `d` (the qualifier of a qualified name) is a suffix of the module path `module` (both dot-separated). */
const suffixOf = (d: string, module: string): boolean => module === d || module.endsWith(`.${d}`);

export class ClosedConstants {
  private readonly walked = new Map<string, Walked>();
  private readonly located = new Map<string, Located>();
  private readonly bare = new Map<string, Located>();
  private stretch: Stretch | undefined;
  /** Counters for tests and benchmarks: how often the library was walked. */
  readonly stats = { judged: 0, fallbacks: 0, walks: 0, locatedAsked: 0, locatedKnown: 0 };

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
    for (const [name, l] of this.located) if (l.at > length) this.located.delete(name);
    if (this.stretch !== undefined && length < this.stretch.end) this.endStretch();
  }

  /**
   * A new coqidetop replayed the preludes and the log: the same sentences, but a `Require` loads its library
   * as it is on disk now (the user may have rebuilt it). Whatever was learnt about names and globals that are
   * not the installed libraries' is asked again; `Inspect 2` cannot see a library's new objects.
   */
  forgetEnvironment(): void {
    for (const full of this.walked.keys()) if (documentGlobal(full)) this.walked.delete(full);
    this.located.clear();
    this.endStretch();
  }

  private endStretch(): void {
    this.stretch = undefined;
    this.bare.clear();
  }

  /** The kept answer for a qualified name, while it is still Coq's answer (see `Located`). */
  private knownLocation(token: string): string | undefined {
    const l = this.located.get(token);
    if (l === undefined) return undefined;
    if (!this.io.onlyProofsSince(l.at)) {
      this.located.delete(token);
      return undefined;
    }
    return l.first;
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
    }
    let verdict = await judgeWalked(union, trusted);
    if (!verdict.ok && direct !== undefined) {
      // The reading counts a bound variable named like a global as that global (both print as `x`): it never
      // misses an assumption but may add one. Before refusing, Coq's own walk of the theorem decides.
      this.stats.fallbacks++;
      union = await this.walk(name);
      verdict = await judgeWalked(union, trusted);
    }
    // A functor parameter's field is one only while its functor is open: what reached one is never remembered.
    const parametric = (w: Walked | undefined): boolean => w?.axioms.some((a) => typeof a.full === 'object' && 'functorParameter' in a.full) ?? false;
    if (parametric(union)) {
      for (const [full, w] of this.walked) if (parametric(w)) this.walked.delete(full);
      return verdict;
    }
    // The theorem is remembered, by its kernel name, for the lemmas that use it (until the log is cut below it).
    if (direct !== undefined) this.walked.set(direct.self, { ...union, logLength: this.io.logLength() });
    return verdict;
  }

  /**
   * The kernel names of the globals `name`'s body and statement mention; undefined when the printed term
   * holds anything the reading cannot vouch for (then the whole closure is walked by Coq instead).
   */
  private async directReferences(name: string): Promise<{ self: string; fulls: string[] } | undefined> {
    let printed: string;
    try {
      printed = await this.io.printAll(name);
    } catch {
      return undefined;
    }
    // The theorem itself ("name = …", "name@{u} = …"), nothing else Coq may print for the name: else Coq's own walk.
    if (!new RegExp(`^${escapeRegExp(name)}(@\\{[^}]*\\})?\\s*=`, 'u').test(coqTrim(printed))) return undefined;
    // The `Arguments …` paragraphs after the term (a blank line before each) name scopes and arguments, never
    // globals of the term. Only whole paragraphs: `Arguments` is a name coqc takes, and a long application
    // of it wraps so that a line of the term itself starts with it.
    const term = printed.split(/\n[ \t]*\n/).filter((p, i) => i === 0 || !/^Arguments\s/.test(p)).join('\n');
    if (term.trim() === '' || UNREADABLE.test(term)) return undefined;
    // The theorem's own name is asked too: its kernel name is what later lemmas will find it by.
    const tokens = [name, ...new Set(term.match(NAME) ?? [])].filter((t, i) => !KEYWORDS.has(t) && isQualid(t) && (i === 0 || t !== name));
    // Along a stretch, the check that it goes on travels in the same exchange as the names asked.
    const stretch = this.stretch !== undefined && this.io.onlyProofsSince(this.stretch.from) ? this.stretch : undefined;
    const keptBare = (t: string): string | undefined => (stretch === undefined || t === name ? undefined : this.bare.get(t)?.first);
    const known = tokens.map((t, i) => (i === 0 ? undefined : t.includes('.') ? this.knownLocation(t) : keptBare(t)));
    const probe = stretch === undefined ? [] : ['Inspect 2.', `Check @${stretch.last}.`, `Check @${name}.`];
    const at = this.io.logLength();
    const locate = async (names: readonly string[], before: readonly string[] = []): Promise<string[] | undefined> => {
      this.stats.locatedAsked += names.length;
      const answers = await this.io.query([...before, ...names.map((t) => `Locate Term ${t}.`)].join(' '), before.length + names.length).catch(() => undefined);
      return answers?.length === before.length + names.length ? answers : undefined;
    };
    const asked = tokens.filter((_, i) => known[i] === undefined);
    const answers = await locate(asked, probe);
    if (answers === undefined) {
      this.endStretch();
      return undefined;
    }
    const verified = stretch !== undefined && unlaid(answers[0]) === checked(answers[1]) + checked(answers[2]);
    const firstLine = (a: string | undefined): string => coqTrim(a?.split('\n')[0] ?? '');
    const answered = new Map(asked.map((t, j) => [t, firstLine(answers[probe.length + j])]));
    if (!verified) {
      // Something besides the theorems may have been declared: bare names kept so far are asked now.
      this.endStretch();
      const again = tokens.filter((t, i) => known[i] !== undefined && !t.includes('.'));
      const more = again.length === 0 ? [] : await locate(again);
      if (more === undefined) return undefined;
      for (const [j, t] of again.entries()) answered.set(t, firstLine(more[j]));
    }
    this.stats.locatedKnown += tokens.filter((t, i) => known[i] !== undefined && (verified || t.includes('.'))).length;
    const firsts = tokens.map((t, i) => answered.get(t) ?? (known[i] as string));
    const fulls = new Set<string>();
    let self: string | undefined;
    for (const [i, token] of tokens.entries()) {
      const first = firsts[i] as string;
      const m = LOCATED.exec(first);
      if (m && i === 0) self = m[2];
      else if (m) fulls.add(m[2] as string);
      if (m) continue;
      // A bare name that names no global is a bound variable; a qualified one, or any other kind of
      // object (a section variable), is something this reading does not know: let Coq walk.
      if (NOT_FOUND.test(first) && !token.includes('.')) continue;
      return undefined;
    }
    if (self === undefined) return undefined;
    // The module the theorem was stated in: what the proofs that follow may declare lies in it.
    const module = self.split('.').slice(0, -1).join('.');
    for (const [i, token] of tokens.entries()) {
      const qualifier = token.split('.').slice(0, -1).join('.');
      if (i === 0 || !answered.has(token)) continue;
      if (qualifier === '') this.bare.set(token, { first: firsts[i] as string, at });
      else if (!suffixOf(qualifier, module) && LOCATED.test(firsts[i] as string)) this.located.set(token, { first: firsts[i] as string, at });
    }
    // This theorem is the only object its proof declared when the stretch goes on; its own name is asked from now on.
    this.bare.delete(name);
    this.stretch = verified && stretch !== undefined ? { from: stretch.from, last: name, end: at } : { from: at, last: name, end: at };
    fulls.delete(self);
    return { self, fulls: [...fulls] };
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
    return this.read((await this.io.query(`Print Assumptions ${name}.`)).join('\n'));
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
  const byName = new Map<string, Resolved>();
  const same = (x: Resolved, y: Resolved): boolean => JSON.stringify(x) === JSON.stringify(y);
  const printed: PrintedAssumptions = { axioms: [], bypasses: union.bypasses };
  for (const a of union.axioms) {
    // The same printed name resolved to two objects (asked in different contexts): trust neither.
    if (byName.has(a.name) && !same(byName.get(a.name), a.full)) byName.set(a.name, undefined);
    else byName.set(a.name, a.full);
    printed.axioms.push({ name: a.name, statement: a.statement });
  }
  return judgeAssumptions(printed, async (name) => byName.get(name), trusted);
}
