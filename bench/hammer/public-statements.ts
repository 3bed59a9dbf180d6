import { createHash } from 'node:crypto';
import { mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import { basename, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runProcess } from '../../main/process/process-manager.ts';
import { sentenceSpans } from '../../main/provers/coq/coq-sentence.ts';

/**
 * The public benchmark (issue 25): theorems of public Coq developments nobody here wrote, each stated in its
 * source's own context — the definitions and earlier theorems (with their proofs) that precede it — with
 * its proof dropped. Sources are read where they are on disk (CoqHammer's examples, from the Debian package
 * `libcoq-hammer`) or from `fixtures/public/<source>/` (committed, with SOURCE.md).
 *
 * Each file is cut at every theorem into a chain of compiled segments (`Pub.<file>_<k>`, each `Require
 * Export`ing the one before), compiled once with coqc: segment k-1 holds exactly what precedes theorem k,
 * so a run imports it and states the theorem — never the theorem itself or anything after it. Compiling the
 * chain is also the reference check (`--check`): every dropped proof compiles in its context.
 */
export interface PublicSource {
  /** Short name, e.g. `coqhammer-examples`. */
  name: string;
  /** Where its `.v` files are (searched recursively). */
  dir: string;
}

export type Part = 'tuning' | 'held-out';

function fixtureDir(name: string): string {
  return fileURLToPath(new URL(`../../fixtures/public/${name}`, import.meta.url));
}

export interface PublicStatement {
  id: string;
  source: string;
  /** The file, relative to the source's directory. */
  file: string;
  name: string;
  /** As the source states it, binders before the colon turned into `forall`. */
  statement: string;
  /** Sentences (Require, Import, Open Scope) that the context needs repeated: Coq does not export them. */
  header: string[];
  /**
   * Sentences whose effect does not cross a file (`#[local] Hint`), repeated after the context's `Require`:
   * they may name what it defines. Not options (see OPTION).
   */
  locals: string[];
  /**
   * The compiled segment that holds everything before the theorem — or, for a theorem inside a section or
   * module, everything before the top-level theorem that precedes it (none when no theorem does).
   */
  context: string | undefined;
  /**
   * A theorem inside a section or module: the document's own sentences from the end of `context` up to it
   * (the block's opening, its `Variable`s, definitions and earlier theorems with their proofs), so its GOAL is
   * stated inside the still-open block, as the source states it. Empty for a top-level theorem.
   */
  inline: string[];
  /** The sections and modules open at the theorem, outermost first (closed after the proof, in reverse). */
  blocks: { kind: 'Section' | 'Module'; name: string }[];
  /** Its place in the file's chain: segment `index` is its context, segment `index + 1` holds its reference proof. */
  index: number;
  part: Part;
}

export const PUBLIC_SOURCES: readonly PublicSource[] = [
  { name: 'coqhammer-examples', dir: '/usr/share/doc/libcoq-hammer/examples' },
  // Committed with their licence and origin (SOURCE.md); none is derived from Software Foundations.
  { name: 'stepchowfun', dir: fixtureDir('stepchowfun-proofs') },
  { name: 'coq-tricks', dir: fixtureDir('coq-tricks') },
  { name: 'peacoq', dir: fixtureDir('peacoq') },
];

/** The logical root of the compiled segments. */
export const PUBLIC_ROOT = 'Pub';

const THEOREM = /^(Lemma|Theorem|Corollary|Fact|Remark|Proposition|Example)\s+([\p{L}_][\p{L}\p{N}_']*)([\s\S]*)$/u;
const PROOF_END = /^(Qed|Defined|Admitted|Abort|Save)\b/;
/** A sentence without the bullets and braces before it: `- Abort.` ends a proof as `Abort.` does. */
const unbulleted = (text: string): string => text.replace(/^[\s{}]*(?:[-+*]+\s*|[{}]\s*)*/, '');
/** An unnamed theorem (`Goal stmt.`): the tutorials state most of theirs so; it is named by its place among the file's goals. */
const GOAL = /^Goal\s+([\s\S]*)\.$/;
/** Blocks a segment cannot be cut inside (a compiled file cannot end in an open section or module): a theorem there gets its context inline. */
const BLOCK_OPEN = /^(Section|Module(?!\s+Type\b)(?:\s+(?:Import|Export))?)\s+([\p{L}_][\p{L}\p{N}_']*)\s*\.$/u;
const BLOCK_END = /^End\s+([\p{L}_][\p{L}\p{N}_']*)\s*\.$/u;

/** Sentences of a public development (trusted text) with their offsets, from the one Coq syntax module. */
export function sentences(text: string): { start: number; end: number; text: string }[] {
  return sentenceSpans(text).filter((s) => s.complete).map((s) => ({ start: s.start, end: s.end, text: s.text.replace(/\s+/g, ' ') }));
}

/** `name (x y : nat) {A} : stmt` → `forall (x y : nat) {A}, stmt`; the rest after the colon at depth 0. */
export function statementOf(afterName: string): string | undefined {
  const body = afterName.replace(/\.$/, '').trim();
  let depth = 0;
  for (let i = 0; i < body.length; i++) {
    const ch = body[i] as string;
    if ('({['.includes(ch)) depth++;
    else if (')}]'.includes(ch)) depth--;
    else if (ch === ':' && depth === 0 && body[i + 1] !== '=') {
      const binders = body.slice(0, i).trim();
      const stmt = body.slice(i + 1).trim();
      if (stmt === '') return undefined;
      return binders === '' ? stmt : `forall ${binders}, ${stmt}`;
    }
  }
  return undefined;
}

/** One third held out, by a hash of source, file and name: deterministic, and blind to the statement's difficulty. */
export const partOf = (source: string, file: string, name: string): Part =>
  (createHash('sha256').update(`${source}/${file}/${name}`).digest()[0] as number) % 3 === 0 ? 'held-out' : 'tuning';

async function vFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const nested = await Promise.all(entries.map(async (e) => (e.isDirectory() ? vFiles(join(dir, e.name)) : e.name.endsWith('.v') ? [join(dir, e.name)] : [])));
  return nested.flat().sort();
}

const moduleName = (source: string, file: string): string => `${source}_${file.replace(/\.v$/, '')}`.replace(/[^A-Za-z0-9]/g, '_');

interface Segment {
  module: string;
  text: string;
  /** The same with the previous theorem's proof replaced by `Admitted.`: the chain goes on past a proof this Coq rejects. */
  admitted?: string;
}

/**
 * CoqHammer's test file runs `hammer. Restart.` before each reconstruction "for illustrative purposes"
 * (its own comment: the final script is the reconstruction): a context keeps the reconstruction only, so
 * building it does not depend on the ATPs' luck. Likewise a tactic the file takes back with `Undo`.
 */
const provenWithout = (text: string): string => withoutUndone(text.replace(/\bhammer\.\s*Restart\./g, ''));

/** The tutorials try tactics and take them back (`time (induction l; sauto). Undo.`): a context keeps what stays. */
const withoutUndone = (text: string): string => {
  const ss = sentences(text);
  let out = '';
  let at = 0;
  for (let i = 0; i + 1 < ss.length; i++) {
    if ((ss[i + 1] as (typeof ss)[number]).text !== 'Undo.') continue;
    out += text.slice(at, (ss[i] as (typeof ss)[number]).start);
    at = (ss[i + 1] as (typeof ss)[number]).end;
    i++;
  }
  return out + text.slice(at);
};

/**
 * A segment's first lines: the file's imports first, then the segment before it — its own names must come
 * after the library's (an `Import Arith` after them would hide the file's own `leb`).
 */
const chainHead = (base: string, k: number, header: readonly string[], locals: readonly string[]): string => `${header.join('\n')}\nRequire Export ${PUBLIC_ROOT}.${base}_${k - 1}.\n${locals.join('\n')}\n`;
/**
 * Options (`Set Hammer SAutoLimit 0`, `Set Warnings …`) are repeated in the chain, where the source's own proofs
 * need them, but not in a statement's context: they configure the provers, and each side runs with its defaults.
 */
const OPTION = /^(?:(?:#\[\s*local\s*\]|Local)\s+)?(?:Set|Unset)\b/;
/**
 * Inside a block the context is the document's own text, options included (`Set Implicit Arguments` changes
 * what a definition means), except those that only configure a prover or the display.
 */
const PROVER_OPTION = /^(?:(?:#\[\s*local\s*\]|Local|Global)\s+)?(?:Set|Unset)\s+(?:Hammer|Printing)\b/;
/** Sentences whose effect ends with their file: a segment after them must repeat them. */
const LOCAL = /^(?:(?:#\[\s*local\s*\]|Local)\s+(?:Hint|Notation|Arguments|Coercion|Set|Unset)\b|(?:Set|Unset)\s+(?!Printing\b))/;

/** A file's statements and the chain of segments that gives each its context. */
export function cutFile(source: string, file: string, text: string): { statements: PublicStatement[]; segments: Segment[] } {
  const ss = sentences(text);
  const base = moduleName(source, file);
  const statements: PublicStatement[] = [];
  const segments: Segment[] = [];
  const header: string[] = [];
  const locals: string[] = [];
  /** The sections and modules open at this sentence. */
  const open: { kind: 'Section' | 'Module'; name: string }[] = [];
  let goals = 0;
  let segStart = 0;
  /** The local sentences before the current segment (its own are in its text). */
  let segLocals: string[] = [];
  /** The previous theorem's proof (offsets in `text`), for the segment that holds it. */
  let proof: { start: number; end: number } | undefined;
  const segment = (k: number, end: number): Segment => {
    const head = k === 0 ? '' : chainHead(base, k, header, segLocals);
    const body = text.slice(segStart, end);
    const seg: Segment = { module: `${base}_${k}`, text: `${head}${provenWithout(body)}\n` };
    if (proof) seg.admitted = `${head}${provenWithout(`${text.slice(segStart, proof.start)} Admitted.${text.slice(proof.end, end)}`)}\n`;
    return seg;
  };
  let k = 0;
  for (let i = 0; i < ss.length; i++) {
    const s = ss[i] as (typeof ss)[number];
    if (/^(Require|From|Import|Export|((Local|Global) )?Open Scope)\b/.test(s.text) && open.length === 0) header.push(s.text);
    if (LOCAL.test(s.text) && open.length === 0) locals.push(s.text);
    const block = BLOCK_OPEN.exec(s.text);
    if (block) open.push({ kind: (block[1] as string).startsWith('Section') ? 'Section' : 'Module', name: block[2] as string });
    const closed = BLOCK_END.exec(s.text);
    if (closed && open.at(-1)?.name === closed[1]) open.pop();
    const goal = GOAL.exec(s.text);
    if (goal) goals++;
    const m = goal ? [s.text, 'Goal', `Goal_${goals}`, ` : ${goal[1] as string}`] : THEOREM.exec(s.text);
    if (!m) continue;
    // Its proof: up to the first sentence that ends one.
    let j = i + 1;
    while (j < ss.length && !PROOF_END.test(unbulleted((ss[j] as (typeof ss)[number]).text))) j++;
    const ending = unbulleted(ss[j]?.text ?? '');
    const statement = statementOf(m[3] as string);
    const repeatedHere = statement !== undefined && statements.some((p) => p.statement === statement);
    if (open.length > 0) {
      // A compiled file cannot end inside an open block, so no segment is cut here: the context is the last
      // segment before, and the document's own text from there to the theorem, given inline (the GOAL sits
      // inside the open block). Its reference proof is compiled in the segment that holds the block.
      const name = m[2] as string;
      if (statement !== undefined && !repeatedHere && /^(Qed|Defined|Save)\b/.test(ending)) {
        const inline = sentences(provenWithout(text.slice(segStart, s.start))).map((x) => x.text).filter((x) => !PROVER_OPTION.test(x));
        statements.push({ id: `${source}/${file}/${name}`, source, file, name, statement, header: [...header], locals: k === 0 ? [] : segLocals.filter((l) => !OPTION.test(l)),
          context: k === 0 ? undefined : `${PUBLIC_ROOT}.${base}_${k - 1}`, inline, blocks: open.map((b) => ({ ...b })), index: k - 1, part: partOf(source, file, name) });
      }
      i = j;
      continue;
    }
    const module = `${base}_${k}`;
    segments.push(segment(k, s.start));
    segStart = s.start;
    segLocals = [...locals];
    proof = j < ss.length ? { start: (ss[i + 1] as (typeof ss)[number]).start, end: (ss[j] as (typeof ss)[number]).end } : undefined;
    k++;
    // Only theorems the source proves (not admitted or aborted), statements we could read, and not a second
    // proof of a statement the file already proved (the tutorials prove `lem_x` twice: `lem_x'` would be `apply lem_x`).
    if (statement !== undefined && !repeatedHere && /^(Qed|Defined|Save)\b/.test(ending)) {
      statements.push({ id: `${source}/${file}/${m[2] as string}`, source, file, name: m[2] as string, statement, header: [...header], locals: locals.filter((l) => !OPTION.test(l)), context: `${PUBLIC_ROOT}.${module}`, inline: [], blocks: [], index: k - 1, part: partOf(source, file, m[2] as string) });
    }
    i = j;
  }
  // The tail: the last theorem's proof, so it is compiled (checked) too.
  segments.push(segment(k, text.length));
  return { statements, segments };
}

/** Every public statement (no compiling). */
export async function publicStatements(sources: readonly PublicSource[] = PUBLIC_SOURCES): Promise<PublicStatement[]> {
  const out: PublicStatement[] = [];
  for (const src of sources) {
    for (const path of await vFiles(src.dir)) out.push(...cutFile(src.name, relative(src.dir, path), await readFile(path, 'utf8')).statements);
  }
  return out;
}

/**
 * Compiles every file's segment chain into `dir/Pub/` (coqc -Q dir/Pub Pub); a run then sets COQPATH=dir so
 * both coqidetop and coqc find them. Returns the files whose chain failed (with coqc's message): their
 * reference proofs do not compile as extracted: statements from that segment on are left out.
 */
export interface ChainFailures {
  /** The segment where a file's chain stops (nothing from it on is usable), with coqc's message. */
  failed: Map<string, { index: number; message: string }>;
  /** Per file, the theorems whose reference proof this Coq rejects (admitted in the chain, left out as statements). */
  admitted: Map<string, { index: number; message: string }[]>;
}

export async function buildContexts(dir: string, sources: readonly PublicSource[] = PUBLIC_SOURCES): Promise<ChainFailures> {
  const out = join(dir, PUBLIC_ROOT);
  await mkdir(out, { recursive: true });
  const failed = new Map<string, { index: number; message: string }>();
  const admitted = new Map<string, { index: number; message: string }[]>();
  const compile = async (v: string, text: string): Promise<string | undefined> => {
    await writeFile(v, text);
    // Sandboxed like every prover: it writes its .vo/.glob only into `out`.
    const r = await runProcess({ program: 'coqc', args: ['-Q', out, PUBLIC_ROOT, v], cwd: out, timeoutMs: 600_000, sandbox: { writable: [out] } });
    return r.exitCode === 0 ? undefined : `${basename(v)}: ${`${r.stdout}${r.stderr}`.replace(/^.*Warning[\s\S]*?\]\n/gm, '').slice(0, 600)}`;
  };
  for (const src of sources) {
    for (const path of await vFiles(src.dir)) {
      const file = relative(src.dir, path);
      const cut = cutFile(src.name, file, await readFile(path, 'utf8'));
      const { segments } = cut;
      let rebuilt = false;
      for (const [index, seg] of segments.entries()) {
        const v = join(out, `${seg.module}.v`);
        // Built before (same text, and nothing before it rebuilt): not again.
        const before = await readFile(v, 'utf8').catch(() => '');
        if (!rebuilt && (before === seg.text || before === seg.admitted) && await readFile(`${v}o`).then(() => true, () => false)) {
          if (before === seg.admitted) admitted.set(`${src.name}/${file}`, [...(admitted.get(`${src.name}/${file}`) ?? []), { index: index - 1, message: '(built before)' }]);
          continue;
        }
        rebuilt = true;
        const error = await compile(v, seg.text);
        if (error === undefined) continue;
        // The previous theorem's proof fails under this Coq: admit it and go on (its statement is left out).
        if (seg.admitted !== undefined && await compile(v, seg.admitted) === undefined) {
          admitted.set(`${src.name}/${file}`, [...(admitted.get(`${src.name}/${file}`) ?? []), { index: index - 1, message: error }]);
          continue;
        }
        failed.set(`${src.name}/${file}`, { index, message: error });
        break;
      }
    }
  }
  return { failed, admitted };
}
