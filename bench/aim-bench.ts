/**
 * `npm run bench:aim`: Arbor's eq prover against E prover on AIM problems, side by side in one run.
 * Each problem gets the same wall-clock limit for both; they run alternately (never concurrently),
 * so neither competes with the other for the two cores. Only proofs the independent checker
 * accepts count for Arbor. Results go to bench/results/aim-*.json and a table on stdout.
 *
 * Arbor's portfolio (default `--mode parallel`: E in a child process beside own completion) keeps its
 * own completion running after E's proof, so the same run also reports own-completion-only results
 * (time to its own checked proof); the portfolio counts the first checked proof of either.
 *
 *   npm run bench:aim -- [--problems FILE] [--preamble FILE] [--sample N] [--seed S] [--limit SECONDS] [--no-e-in-arbor]
 *                        [--mode parallel|sequential]
 *                        [--advisor HOST:PORT]  (AIMLEAP-style search with that advisor first, -abslimit 100 -maxdepth 10)
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { parseArticle } from '../main/provers/eq/article.ts';
import { runEprover } from '../main/provers/eq/eprover.ts';
import { parseEquation } from '../main/provers/eq/parse-term.ts';
import { loadavg } from 'node:os';
import { parseAdvisorAddress } from '../main/provers/eq/hammer.ts';
import { solveProblem } from '../main/provers/eq/solve-problem.ts';
import { sampleLines } from './aim/sample.ts';
import { TermBank } from '../main/provers/eq/term.ts';
import { problemToTptp } from '../main/provers/eq/tptp.ts';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const dataDir = resolve(repoRoot, '../shared/data/aim');

const { values } = parseArgs({
  options: {
    problems: { type: 'string' },
    preamble: { type: 'string' },
    sample: { type: 'string' },
    seed: { type: 'string', default: '1' },
    limit: { type: 'string', default: '10' },
    'no-e-in-arbor': { type: 'boolean', default: false },
    // Skip the plain-E baseline (for long runs that only measure Arbor, e.g. the 60 s target).
    'no-baseline': { type: 'boolean', default: false },
    out: { type: 'string' },
    advisor: { type: 'string' },
    mode: { type: 'string', default: 'parallel' },
  },
});

function loadProblems(): { preamble: string; lines: string[] } {
  const problemsFile = values.problems ?? join(dataDir, 'dev.txt');
  const preambleFile = values.preamble ?? join(dataDir, 'preamble.txt');
  if (!existsSync(problemsFile) || !existsSync(preambleFile)) {
    process.stderr.write(`AIM data not found (${problemsFile}, ${preambleFile}); see ../shared/data/aim/README.md\n`);
    process.exit(2);
  }
  const preamble = readFileSync(preambleFile, 'utf8');
  const lines = readFileSync(problemsFile, 'utf8').split(/\r?\n/).filter((l) => /^(Theorem|Lemma|Corollary)\s/.test(l.trim()));
  return { preamble, lines };
}

function progress(done: number, total: number, arbor: number, e: number, own = 0): void {
  const width = 30;
  const filled = Math.round((done / total) * width);
  process.stderr.write(`\r[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${total}  Arbor ${arbor} (own ${own})  E ${e}   `);
}

async function main(): Promise<void> {
  const limit = Number(values.limit);
  const { preamble, lines: all } = loadProblems();
  const lines = values.sample ? sampleLines(all, Number(values.sample), Number(values.seed)) : all;
  const mode = values.mode === 'sequential' ? 'sequential' : 'parallel';
  const advisor = values.advisor ? parseAdvisorAddress(values.advisor) : undefined;
  if (values.advisor && !advisor) {
    process.stderr.write('--advisor expects HOST:PORT\n');
    process.exit(2);
  }
  const rows: { name: string; arbor: boolean; arborMs: number; arborBy?: string; proofSteps?: number; own: boolean; ownMs?: number; ownConfig?: string; eInside?: string; e: boolean; eMs: number; note?: string }[] = [];
  let arborSolved = 0;
  let ownSolved = 0;
  let eSolved = 0;
  const loadStart = loadavg()[0] ?? 0;
  progress(0, lines.length, 0, 0);
  for (const line of lines) {
    // Arbor first, then E, one after the other.
    const r = await solveProblem(preamble, line, limit * 1000, { useE: !values['no-e-in-arbor'], mode, ownToEnd: true, ...(advisor ? { advisor } : {}) });
    const arborOk = r.solved && r.ms <= limit * 1000 + 500;
    if (arborOk) arborSolved++;
    const ownOk = r.own?.solved === true && r.own.ms <= limit * 1000 + 500;
    if (ownOk) ownSolved++;
    const bank = new TermBank();
    const article = parseArticle(bank, `${preamble}\n${line}\n`);
    const th = article.theorems[0];
    if (!th) continue;
    const goal = parseEquation(bank, th.statement, { names: 'constants' });
    const e = values['no-baseline'] ? { status: 'skipped', ms: 0 } : await runEprover(problemToTptp(bank, article.equations, goal), limit);
    const eOk = e.status === 'proved';
    if (eOk) eSolved++;
    rows.push({ name: r.name, arbor: arborOk, arborMs: r.ms, ...(r.by ? { arborBy: r.by } : {}), ...(r.proofSteps ? { proofSteps: r.proofSteps } : {}), own: ownOk, ...(r.own ? { ownMs: r.own.ms } : {}), ...(r.own?.config ? { ownConfig: r.own.config } : {}), ...(r.e ? { eInside: `${r.e.status}${r.e.replayed ? '+replayed' : ''}` } : {}), e: eOk, eMs: e.ms, ...(r.solved || !r.messages.length ? {} : { note: r.messages.join('; ').slice(0, 200) }) });
    progress(rows.length, lines.length, arborSolved, eSolved, ownSolved);
  }
  process.stderr.write('\n');
  const byCompletion = rows.filter((r) => r.arbor && r.arborBy === 'completion').length;
  const byE = rows.filter((r) => r.arbor && r.arborBy === 'eprover').length;
  const summary = {
    date: new Date().toISOString(),
    problems: rows.length,
    limitSeconds: limit,
    sample: values.sample ? Number(values.sample) : undefined,
    seed: values.sample ? Number(values.seed) : undefined,
    arbor: { solved: arborSolved, mode, byCompletion, byEproverReplay: byE, eInsidePortfolio: !values['no-e-in-arbor'], medianMs: median(rows.filter((r) => r.arbor).map((r) => r.arborMs)) },
    ownCompletionOnly: { solved: ownSolved, medianMs: median(rows.filter((r) => r.own).map((r) => r.ownMs ?? 0)), note: 'own completion alone, measured inside the same portfolio run (it keeps running after E wins); in parallel mode it has one core while E has the other' },
    loadAverage: { start: loadStart, end: loadavg()[0] ?? 0 },
    eprover: { solved: eSolved, args: '--auto --cpu-limit=<limit>', medianMs: median(rows.filter((r) => r.e).map((r) => r.eMs)) },
    onlyArbor: rows.filter((r) => r.arbor && !r.e).length,
    onlyE: rows.filter((r) => !r.arbor && r.e).length,
    onlyOwn: rows.filter((r) => r.own && !r.e).length,
    onlyEvsOwn: rows.filter((r) => !r.own && r.e).length,
    aimleapPublished: 'AIMLEAP settings: -abslimit 100 -constdist 8.0 -maxdepth 10 (no advisor) ≈ 5 % (data README); Waldmeister 65.5 %, 3SIL 70.2 % at 60 s (Piepenbrock et al., IJCAR 2022)',
    rows,
  };
  const outDir = join(repoRoot, 'bench/results');
  mkdirSync(outDir, { recursive: true });
  const out = values.out ?? join(outDir, `aim-${summary.date.replace(/[:.]/g, '-')}.json`);
  writeFileSync(out, JSON.stringify(summary, null, 2));
  const pct = (n: number): string => `${((100 * n) / Math.max(1, rows.length)).toFixed(1)} %`;
  console.log(`AIM benchmark: ${rows.length} problems, ${limit} s each (wall clock), Arbor and E run alternately`);
  console.log('prover                          solved   share    median ms');
  console.log(`Arbor eq (checked proofs)       ${String(arborSolved).padStart(6)}   ${pct(arborSolved).padStart(7)}  ${summary.arbor.medianMs}`);
  console.log(`  first proof by own completion ${String(byCompletion).padStart(6)}`);
  console.log(`  first proof by E (replayed)   ${String(byE).padStart(6)}`);
  console.log(`Arbor own completion only       ${String(ownSolved).padStart(6)}   ${pct(ownSolved).padStart(7)}  ${summary.ownCompletionOnly.medianMs}`);
  if (values['no-baseline']) console.log('E prover 2.6 --auto             (baseline skipped: --no-baseline)');
  else console.log(`E prover 2.6 --auto             ${String(eSolved).padStart(6)}   ${pct(eSolved).padStart(7)}  ${summary.eprover.medianMs}`);
  console.log(`only Arbor: ${summary.onlyArbor}, only E: ${summary.onlyE}; own-only vs E: only own ${summary.onlyOwn}, only E ${summary.onlyEvsOwn}`);
  console.log(`Arbor mode: ${mode}; load average ${summary.loadAverage.start.toFixed(1)} → ${summary.loadAverage.end.toFixed(1)} (2 cores; other work on the machine slows both sides alike)`);
  console.log(summary.aimleapPublished);
  console.log(`results: ${out}`);
}

function median(xs: number[]): number {
  if (!xs.length) return 0;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] as number;
}

await main();
