import { parseArgs } from 'node:util';
import { loadavg } from 'node:os';
import { readFile } from 'node:fs/promises';
import { delimiter } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { runCoqc } from '../../main/fidelity/run-coqc.ts';
import { ShellProcess } from '../../main/cli/shell-process.ts';
import { quoteArgument } from '../../shared/protocol/quote-argument.ts';
import type { BenchRow } from '../bench-table.ts';
import { median, printTable, writeResults } from '../bench-table.ts';
import { HAMMER_STATEMENTS } from './hammer-statements.ts';
import { HELD_OUT_STATEMENTS } from './held-out-statements.ts';
import type { HammerStatement as OwnStatement } from './hammer-statements.ts';
import { arborPrelude } from '../../main/provers/coq/prelude.ts';
import { buildContexts, PUBLIC_SOURCES, publicStatements, type Part } from './public-statements.ts';

/**
 * `npm run bench:hammer` (issues 13, 25): Arbor's HAMMER against CoqHammer's `hammer` alone, the same wall budget
 * per statement, alternately (never concurrently), each run in its own process group (Arbor: a channel of
 * arbor-shell, released after; CoqHammer: one coqc process group). Both sides are timed from outside, from
 * the start of the request (HAMMER sent; coqc started) to its answer, and stopped 1 s past the budget; a
 * proof counts only when it was answered within the budget and its script passes coqc alone with `Print
 * Assumptions` closed under the global context. Each row reports the machine's load and the largest overrun.
 * CoqHammer's setup inside coqc (start, libraries, context: Arbor's channel has it before HAMMER is sent) is
 * timed on the same file with the proof admitted and not counted against its budget (`runCoqHammer`).
 *   --check        first compile every reference proof with coqc (the statements are true as written) and
 *                  ask `Search` that no statement is in the library, `Locate` that no definition hides a
 *                  library name;  --check-only: only that
 *   --limit N      the first N statements of each grade (--spread: N spread evenly over the grade, so every
 *                  family is sampled; --complement: the statements that sample leaves out, so two runs cover
 *                  the whole set)   --grade easy|medium|hard   --budget SECONDS (20)
 *   --only ID,ID,…  only the statements with these ids (after the other filters); an unknown id is an error
 *   --held-out     the held-out set (held-out-statements.ts) instead of the main one
 *   --public tuning|held-out   the public benchmark (public-statements.ts: theorems of public developments in
 *                  their source's context), its tuning or its held-out part; --check there compiles every
 *                  source's reference proofs in their context (the segments a run imports)
 *   --source NAME,NAME,…   with --public: only these sources (public-statements.ts's PUBLIC_SOURCES names)
 *   --summarize A.json [B.json …]   the figures of saved reports together, running nothing
 */
const { values, positionals } = parseArgs({ allowPositionals: true, options: { summarize: { type: 'string' }, check: { type: 'boolean' }, 'check-only': { type: 'boolean' }, limit: { type: 'string' }, spread: { type: 'boolean' }, complement: { type: 'boolean' }, grade: { type: 'string' }, budget: { type: 'string' }, only: { type: 'string' }, 'held-out': { type: 'boolean' }, public: { type: 'string' }, source: { type: 'string' } } });
const BUDGET_S = Number(values.budget ?? 20);
const BUDGET_MS = BUDGET_S * 1000;
const PUBLIC_PART = values.public as Part | undefined;
if (PUBLIC_PART !== undefined && PUBLIC_PART !== 'tuning' && PUBLIC_PART !== 'held-out') throw new Error('--public tuning|held-out');
/** The library imports of the benchmark's own statements (a public statement has its source's). */
const IMPORTS = PUBLIC_PART ? '' : 'From Coq Require Import Arith Lia List Bool ZArith.\nImport ListNotations.\nOpen Scope nat_scope.';
/**
 * Where the public statements' contexts are compiled; coqidetop and coqc find them through COQPATH. Under the
 * repository's `.tmp/`: the provers' sandbox has a private /tmp, so it is bound read-only (ARBOR_SANDBOX_READ)
 * and COQPATH passed through (ARBOR_SANDBOX_ENV), for this process's provers and arbor-shell's alike.
 */
const PUBLIC_DIR = fileURLToPath(new URL('../../.tmp/arbor-public-bench', import.meta.url));
const STATEMENTS: readonly BenchStatement[] = PUBLIC_PART ? await publicSet(PUBLIC_PART) : values['held-out'] ? HELD_OUT_STATEMENTS : HAMMER_STATEMENTS;
/**
 * A statement of either set; a public one's group (`grade`) is its source and part, and `blocks` the sections
 * and modules its `defs` leave open (the statement is stated inside them, as in its source).
 */
type BenchStatement = Omit<OwnStatement, 'grade'> & { grade: string; blocks?: readonly { kind: 'Section' | 'Module'; name: string }[] };
/** The theorem's name once its blocks are closed: a module qualifies it, a section does not. */
const closedName = (s: BenchStatement): string => [...(s.blocks ?? []).filter((b) => b.kind === 'Module').map((b) => b.name), lemmaName(s)].join('.');
/** The sentences that close what `defs` left open, innermost first. */
const closeBlocks = (s: BenchStatement): string => [...(s.blocks ?? [])].reverse().map((b) => `End ${b.name}.`).join('\n');
const CLOSED = /Closed under the global context/;
/** Each run is stopped 1 s past the budget (the allowance for stopping what runs); only an answer within the budget counts. */
const WALL_MS = BUDGET_MS + 1000;

/** The public part as benchmark statements: the context is its compiled segment, imported with the source's header. */
async function publicSet(part: Part): Promise<BenchStatement[]> {
  process.env.COQPATH = PUBLIC_DIR;
  process.env.ARBOR_SANDBOX_READ = [PUBLIC_DIR, ...(process.env.ARBOR_SANDBOX_READ ?? '').split(delimiter).filter((p) => p !== '')].join(delimiter);
  process.env.ARBOR_SANDBOX_ENV = ['COQPATH', ...(process.env.ARBOR_SANDBOX_ENV ?? '').split(',').filter((n) => n.trim() !== '')].join(',');
  const names = values.source?.split(',').map((x) => x.trim());
  const unknown = names?.filter((n) => !PUBLIC_SOURCES.some((s) => s.name === n)) ?? [];
  if (unknown.length > 0) throw new Error(`--source: no public source is named ${unknown.join(', ')}`);
  const sources = PUBLIC_SOURCES.filter((s) => names === undefined || names.includes(s.name));
  const all = await publicStatements(sources);
  log(`public: building the contexts of ${all.length} statements (${all.filter((s) => s.part === 'held-out').length} held out) in ${PUBLIC_DIR}`);
  const { failed, admitted } = await buildContexts(PUBLIC_DIR, sources);
  for (const [file, why] of failed) log(`public: ${file} stops compiling at segment ${why.index} (its statements from there on are left out): ${why.message.slice(0, 300)}`);
  for (const [file, list] of admitted) log(`public: ${file}: the reference proofs of theorems ${list.map((a) => a.index).join(', ')} do not compile under this Coq (admitted in the context, left out)`);
  // A statement counts when its context and its own reference proof (the next segment) compiled.
  const checked = (s: (typeof all)[number]): boolean => (failed.get(`${s.source}/${s.file}`)?.index ?? Infinity) > s.index + 1
    && !(admitted.get(`${s.source}/${s.file}`) ?? []).some((a) => a.index === s.index);
  log(`public: ${all.filter(checked).length} of ${all.length} statements have a context and a reference proof that compile`);
  return all.filter((s) => s.part === part && checked(s))
    .map((s) => ({ id: s.id, grade: `${s.source} ${s.part}`, defs: [...s.header, ...(s.context === undefined ? [] : [`Require Import ${s.context}.`]), ...s.locals, ...s.inline], statement: s.statement, proof: '', blocks: s.blocks }));
}

function log(s: string): void {
  process.stderr.write(`bench: ${s}\n`);
}

async function checkReferenceProofs(statements: readonly BenchStatement[]): Promise<string[]> {
  // Public statements: their reference proofs were compiled in context when the segments were built.
  if (PUBLIC_PART) return [];
  const body = statements.map((s, i) => `Module M${i}.\n${s.defs.join('\n')}\nLemma ${lemmaName(s)} : ${s.statement}.\nProof. ${s.proof} Qed.\nEnd M${i}.`).join('\n');
  const r = await runCoqc(`${IMPORTS}\n${body}\n`, { killAfterMs: 600_000 });
  return r.ok ? [] : [r.output.slice(0, 2000)];
}

const lemmaName = (s: BenchStatement): string => `bench_${s.id.replace(/[^A-Za-z0-9]/g, '_')}`;

/**
 * No statement may be a lemma of the library as it stands: `Search (statement)` finds every library
 * object whose type contains the statement (up to the names of bound variables), and `Locate` shows
 * whether a benchmark definition hides a library object of the same name (a statement about it would
 * then mean something else). Returns the statements that failed, with what was found.
 */
async function checkNotInLibrary(statements: readonly BenchStatement[]): Promise<string[]> {
  const mark = (i: number, what: string): string => `Goal True. idtac "@@${what} ${i}". Abort.`;
  const names = (defs: readonly string[]): string[] => defs.flatMap((d) => /^(?:Fixpoint|Definition|Inductive)\s+([A-Za-z_][A-Za-z0-9_']*)/.exec(d)?.[1] ?? []);
  const body = statements.map((s, i) => [
    `Module M${i}.`,
    // Locate before the definitions: what the name meant in the library.
    ...names(s.defs).map((n) => `${mark(i, `locate ${n}`)}\nLocate ${n}.`),
    ...s.defs,
    mark(i, 'search'),
    `Search (${s.statement}).`,
    mark(i, 'end'),
    `End M${i}.`,
  ].join('\n')).join('\n');
  const r = await runCoqc(`${IMPORTS}\n${body}\n`, { killAfterMs: 600_000 });
  if (!r.ok) return [`the search file did not compile: ${r.output.slice(0, 2000)}`];
  const problems: string[] = [];
  // Each marker's output runs until the next marker.
  const parts = r.output.split(/^@@/m).slice(1);
  for (const part of parts) {
    const [head = '', ...rest] = part.split('\n');
    const found = rest.join('\n').trim();
    const m = /^(locate (\S+)|search|end) (\d+)$/.exec(head.trim());
    if (!m || m[1] === 'end' || found === '') continue;
    const s = statements[Number(m[3])];
    if (m[1] === 'search') problems.push(`${s?.id}: the library has it: ${found.replace(/\s+/g, ' ').slice(0, 200)}`);
    else {
      // Earlier modules' definitions of the same name are the benchmark's own: only library objects count.
      // A library object reached only through a qualified name (`N.size`) is not hidden by a short `size`.
      const entries = found.split(/\n(?=\S)/).map((l) => l.replace(/\s+/g, ' ').trim());
      const library = entries.filter((l) => /^\S+\s+Coq\./.test(l))
        .filter((l) => { const shorter = /shorter name to refer to it in current context is (\S+?)\)/.exec(l)?.[1]; return shorter === undefined || shorter === m[2]; });
      if (library.length > 0) problems.push(`${s?.id}: its definition ${m[2]} hides ${library.map((l) => l.trim().split(/\s+/).slice(0, 2).join(' ')).join(', ')}`);
    }
  }
  return problems;
}

interface Outcome {
  solved: boolean;
  /** Wall time from the start of the request to its answer, measured from outside. */
  ms: number;
  stage?: string;
  detail?: string;
  /** Arbor: HAMMER's closing tactic. */
  closedWith?: string;
  /** The 1-minute load average when the run started. */
  load?: number;
  /** CoqHammer: coqc's start, libraries and context (the same file, proof admitted), not counted in `ms`. */
  setupMs?: number;
}

async function runArbor(shell: ShellProcess, s: BenchStatement): Promise<Outcome> {
  const created = await shell.request('NEW_CHANNEL', 0);
  const c = (created.RESPONSE as { ID: number }).ID;
  let cancelled = false;
  try {
    if (s.defs.length > 0) {
      const d = await shell.request(`${c} DEFINE ${quoteArgument(s.defs.join(' '))}`, c);
      if (d.ERR) return { solved: false, ms: 0, detail: `DEFINE: ${d.ERR}` };
    }
    const g = await shell.request(`${c} GOAL ${lemmaName(s)} ${quoteArgument(s.statement)}`, c);
    if (g.ERR) return { solved: false, ms: 0, detail: `GOAL: ${g.ERR}` };
    const load = loadavg()[0] ?? 0;
    const t0 = performance.now();
    const hammering = shell.request(`${c} HAMMER ${BUDGET_S}`, c);
    // The same wall budget as CoqHammer's run: a run still going 1 s past it is stopped and counts as unsolved.
    const wall = new AbortController();
    const h = await Promise.race([hammering, sleep(WALL_MS, undefined, { signal: wall.signal }).catch(() => undefined)]);
    wall.abort();
    const ms = performance.now() - t0;
    if (h === undefined) {
      // CANCEL kills the channel's prover group (its ATPs too) before the next run starts.
      await Promise.all([hammering, shell.request(`${c} CANCEL`, c)]);
      cancelled = true;
      return { solved: false, ms, load, detail: 'over the wall budget (cancelled)' };
    }
    if (h.ERR) return { solved: false, ms, load, detail: h.ERR.slice(0, 120) };
    if (ms > BUDGET_MS) return { solved: false, ms, load, detail: 'answered after the budget' };
    const stage = h.HAMMER_REPORT?.stages.find((x) => x.outcome === 'closed')?.stage;
    const closedWith = h.HAMMER_REPORT?.closedWith;
    const end = await shell.request(`${c} END`, c);
    if (end.ERR || end.SCRIPT === undefined) return { solved: false, ms, load, detail: `END: ${end.ERR}` };
    // The script must prove the statement as given, not some other one.
    if (!end.SCRIPT.includes(`Theorem ${lemmaName(s)} : (${s.statement}).`)) return { solved: false, ms, load, detail: 'the script states something else' };
    // The reproduction script, checked by coqc alone.
    // Arbor's script closes the blocks the document left open (docs/real-documents.md): the name is then qualified.
    const checked = await runCoqc(`${end.SCRIPT}\nPrint Assumptions ${closedName(s)}.\n`, { killAfterMs: 120_000 });
    return { solved: checked.ok && CLOSED.test(checked.output), ms, load, ...(stage ? { stage } : {}), ...(closedWith ? { closedWith } : {}) };
  } finally {
    // Answered once the channel's prover group is dead: nothing of this run is left when the next starts.
    if (!cancelled) await shell.request(`${c} RELEASE_CHANNEL`, c);
  }
}

async function runCoqHammer(s: BenchStatement): Promise<Outcome> {
  // The same context as Arbor's channel: its prelude (Arith, Lia, List, Bool, ZArith, ListNotations) comes before the
  // statement's own context there, so CoqHammer's premise search sees the same libraries.
  const file = (proof: string): string => `${arborPrelude()}\n${IMPORTS}\nFrom Hammer Require Import Hammer.\n${s.defs.join('\n')}\nLemma ${lemmaName(s)} : ${s.statement}.\nProof. ${proof}\n${closeBlocks(s)}\nPrint Assumptions ${closedName(s)}.\n`;
  // Arbor's channel has started coqidetop and compiled the context before its HAMMER is sent; coqc pays for its
  // start, the libraries and the context inside its run. That setup, measured on the same file with the proof
  // admitted just before, is not counted against CoqHammer's budget: both sides get the budget for the proof search.
  const setup = await runCoqc(file('Admitted.'), { killAfterMs: 120_000 });
  const setupMs = setup.ok ? setup.ms : 0;
  const load = loadavg()[0] ?? 0;
  const r = await runCoqc(file('hammer. Qed.'), { killAfterMs: WALL_MS + setupMs });
  const ms = Math.max(0, r.ms - setupMs);
  const inTime = ms <= BUDGET_MS;
  return { solved: inTime && r.ok && CLOSED.test(r.output), ms, load, setupMs, ...(r.ok ? { stage: 'coqhammer' } : {}), ...(!r.ok ? { detail: r.timedOut ? 'timeout' : 'failed' } : !inTime ? { detail: 'answered after the budget' } : {}) };
}

const seconds = (ms: number[]): string => ms.length === 0 ? '-' : `${(median(ms) / 1000).toFixed(1)} s, ${(ms.reduce((x, y) => x + y, 0) / ms.length / 1000).toFixed(1)} s`;

interface Result { id: string; grade: string; arbor: Outcome; coqhammer: Outcome }

const byStage = (solved: readonly Result[]): string => {
  const stages = new Map<string, number>();
  for (const r of solved) stages.set(r.arbor.stage ?? '?', (stages.get(r.arbor.stage ?? '?') ?? 0) + 1);
  return [...stages].map(([k, v]) => `${k} ${v}`).join(', ');
};

/** The figures of a run (or of several runs' results together: `--summarize`), per grade and overall. */
function summarize(results: readonly Result[], grades: readonly string[]): BenchRow[] {
  const rows: BenchRow[] = [];
  const overrun = (o: Outcome): number => Math.max(0, o.ms - BUDGET_MS);
  const loads = results.flatMap((r) => [r.arbor.load, r.coqhammer.load]).filter((l): l is number => l !== undefined);
  for (const g of grades) {
    const rs = results.filter((r) => r.grade === g);
    const a = rs.filter((r) => r.arbor.solved);
    const h = rs.filter((r) => r.coqhammer.solved);
    const need = g === 'hard' ? Math.max(h.length * 2, h.length + 1) : h.length;
    rows.push({ what: `${g}: solved by Arbor HAMMER vs CoqHammer hammer (of ${rs.length})`, value: a.length, unit: `vs ${h.length}`, target: g === 'hard' ? '>= 2x CoqHammer' : '>= CoqHammer', ok: a.length >= need,
      detail: `time per solved (median, mean): Arbor ${seconds(a.map((r) => r.arbor.ms))}, CoqHammer ${seconds(h.map((r) => r.coqhammer.ms))}; Arbor's by stage: ${byStage(a)}` });
  }
  const aAll = results.filter((r) => r.arbor.solved).length;
  const hAll = results.filter((r) => r.coqhammer.solved).length;
  rows.push({ what: `all: Arbor vs CoqHammer (of ${results.length})`, value: aAll, unit: `vs ${hAll}`, target: '> CoqHammer', ok: aAll > hAll });
  rows.push({ what: 'Arbor: the stage that solved each', value: aAll, unit: 'solved', detail: byStage(results.filter((r) => r.arbor.solved)) });
  rows.push({ what: 'Arbor: largest overrun of the budget', value: Math.max(0, ...results.map((r) => overrun(r.arbor))) / 1000, unit: 's', target: '<= 1 s', ok: results.every((r) => overrun(r.arbor) <= 1000) });
  rows.push({ what: 'CoqHammer: largest overrun of the budget', value: Math.max(0, ...results.map((r) => overrun(r.coqhammer))) / 1000, unit: 's', target: '<= 1 s (killed)' });
  rows.push({ what: 'machine load (1-min average) at the runs\' start', value: loads.length === 0 ? 0 : Math.max(...loads), unit: 'max', detail: loads.length === 0 ? '' : `min ${Math.min(...loads).toFixed(2)}, mean ${(loads.reduce((x, y) => x + y, 0) / loads.length).toFixed(2)}` });
  return rows;
}

async function main(): Promise<void> {
  const grades: string[] = values.grade ? [values.grade] : PUBLIC_PART ? [...new Set(STATEMENTS.map((s) => s.grade))] : ['easy', 'medium', 'hard'];
  if (values.summarize) {
    // Saved reports of runs that covered disjoint samples (a --spread run and its --complement), figured together.
    const files = [values.summarize, ...positionals];
    const results = (await Promise.all(files.map(async (f) => (JSON.parse(await readFile(f, 'utf8')) as { results: Result[] }).results))).flat();
    if (new Set(results.map((r) => r.id)).size !== results.length) throw new Error('--summarize: the reports share statements');
    printTable(`HAMMER vs CoqHammer, ${results.length} statements from ${files.length} report(s)`, summarize(results, grades));
    return;
  }
  const limit = values.limit ? Number(values.limit) : Infinity;
  const pick = (all: readonly BenchStatement[]): readonly BenchStatement[] => {
    if (!(limit < all.length)) return values.complement ? [] : all;
    const sample = values.spread ? Array.from({ length: limit }, (_, i) => all[Math.floor((i * all.length) / limit)] as BenchStatement) : all.slice(0, limit);
    return values.complement ? all.filter((s) => !sample.includes(s)) : sample;
  };
  // The grades take turns, so a run stopped early (its results are written after each statement) still covers each.
  const perGrade = grades.map((g) => pick(STATEMENTS.filter((s) => s.grade === g)));
  const interleaved = Array.from({ length: Math.max(...perGrade.map((l) => l.length)) }, (_, i) => perGrade.flatMap((l) => l[i] ?? [])).flat();
  const only = values.only?.split(',').map((x) => x.trim()).filter((x) => x !== '');
  const unknown = only?.filter((id) => !STATEMENTS.some((s) => s.id === id)) ?? [];
  if (unknown.length > 0) throw new Error(`--only: no statement has the id ${unknown.join(', ')}`);
  const chosen = only ? interleaved.filter((s) => only.includes(s.id)) : interleaved;
  log(`${chosen.length} statements (${STATEMENTS.length} in the set), ${BUDGET_S} s each`);
  if (values.check || values['check-only']) {
    const problems = await checkReferenceProofs(STATEMENTS);
    if (problems.length > 0) throw new Error(`a reference proof does not compile:\n${problems.join('\n')}`);
    log(`all ${STATEMENTS.length} reference proofs compile with coqc`);
    const literal = await checkNotInLibrary(STATEMENTS);
    if (literal.length > 0) throw new Error(`statements the library already has (or definitions that hide a library name):\n${literal.join('\n')}`);
    log(`no statement is in the library (Search), no definition hides a library name (Locate)`);
    if (values['check-only']) return;
  }
  // No warm pool: a prover booting in the background would overlap the next run.
  const shell = new ShellProcess(['--timeout', String(BUDGET_S), '--max-channels', '4', '--pool', '0']);
  const results: Result[] = [];
  const started = new Date();
  const run = { date: started.toISOString(), budgetS: BUDGET_S, args: process.argv.slice(2), sample: chosen.length, of: STATEMENTS.length, loadavgBefore: loadavg() };
  // The raw report goes with the benchmark (committed), rewritten after each statement.
  const save = (extra: object): Promise<string> => writeResults('hammer', { ...run, ...extra, results }, new URL('./results/', import.meta.url), started);
  try {
    for (const [i, s] of chosen.entries()) {
      // Alternate which runs first, so neither always gets the warmer caches.
      const first = i % 2 === 0;
      const a1 = first ? await runArbor(shell, s) : undefined;
      const h = await runCoqHammer(s);
      const arbor = a1 ?? await runArbor(shell, s);
      results.push({ id: s.id, grade: s.grade, arbor, coqhammer: h });
      await save({ finished: false });
      log(`${i + 1}/${chosen.length} ${s.grade} ${s.id}: Arbor ${arbor.solved ? `solved (${arbor.stage}, ${(arbor.ms / 1000).toFixed(1)} s)` : `no (${arbor.detail ?? ''})`}; CoqHammer ${h.solved ? `solved (${(h.ms / 1000).toFixed(1)} s)` : `no (${h.detail ?? ''})`}`);
    }
  } finally {
    await shell.end();
  }
  // --only: rows for the grades the run has.
  const rows = summarize(results, only ? grades.filter((g) => chosen.some((s) => s.grade === g)) : grades);
  printTable(`HAMMER vs CoqHammer, ${BUDGET_S} s each, alternately, side by side in one run`, rows);
  log(`results: ${await save({ finished: true, loadavgAfter: loadavg(), rows })}`);
}

await main();
