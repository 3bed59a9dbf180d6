/**
 * `npm run bench:aim`: Arbor's eq prover against E prover on AIM problems, side by side in one run.
 * Each problem gets the same wall-clock limit for both; they run alternately (never concurrently),
 * so neither competes with the other for the two cores. Only proofs the independent checker
 * accepts count for Arbor. Results go to bench/results/aim-*.json and a table on stdout.
 *
 *   npm run bench:aim -- [--problems FILE] [--preamble FILE] [--sample N] [--seed S] [--limit SECONDS] [--no-e-in-arbor]
 *                        [--advisor HOST:PORT]  (AIMLEAP-style search with that advisor first, -abslimit 100 -maxdepth 10)
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { parseArticle } from '../main/provers/eq/article.ts';
import { runEprover } from '../main/provers/eq/eprover.ts';
import { parseEquation } from '../main/provers/eq/parse-term.ts';
import { solveProblem } from '../main/provers/eq/solve-problem.ts';
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
    out: { type: 'string' },
    advisor: { type: 'string' },
  },
});

/** Deterministic PRNG (mulberry32) so `--sample N --seed S` picks the same problems every time. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

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

function progress(done: number, total: number, arbor: number, e: number): void {
  const width = 30;
  const filled = Math.round((done / total) * width);
  process.stderr.write(`\r[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${total}  Arbor ${arbor}  E ${e}   `);
}

async function main(): Promise<void> {
  const limit = Number(values.limit);
  const { preamble, lines: all } = loadProblems();
  let lines = all;
  if (values.sample) {
    const n = Number(values.sample);
    const rand = rng(Number(values.seed));
    const idx = all.map((_, i) => i);
    for (let i = idx.length - 1; i > 0; i--) {
      const j = Math.floor(rand() * (i + 1));
      [idx[i], idx[j]] = [idx[j] as number, idx[i] as number];
    }
    lines = idx.slice(0, n).sort((a, b) => a - b).map((i) => all[i] as string);
  }
  const rows: { name: string; arbor: boolean; arborMs: number; arborBy?: string; proofSteps?: number; e: boolean; eMs: number; note?: string }[] = [];
  let arborSolved = 0;
  let eSolved = 0;
  progress(0, lines.length, 0, 0);
  for (const line of lines) {
    // Arbor first, then E, one after the other.
    const r = await solveProblem(preamble, line, limit * 1000, { useE: !values['no-e-in-arbor'], ...(values.advisor ? { advisor: values.advisor } : {}) });
    const arborOk = r.solved && r.ms <= limit * 1000 + 500;
    if (arborOk) arborSolved++;
    const bank = new TermBank();
    const article = parseArticle(bank, `${preamble}\n${line}\n`);
    const th = article.theorems[0];
    if (!th) continue;
    const goal = parseEquation(bank, th.statement, { names: 'constants' });
    const e = await runEprover(problemToTptp(bank, article.equations, goal), limit);
    const eOk = e.status === 'proved';
    if (eOk) eSolved++;
    rows.push({ name: r.name, arbor: arborOk, arborMs: r.ms, ...(r.by ? { arborBy: r.by } : {}), ...(r.proofSteps ? { proofSteps: r.proofSteps } : {}), e: eOk, eMs: e.ms, ...(r.solved || !r.messages.length ? {} : { note: r.messages.join('; ').slice(0, 200) }) });
    progress(rows.length, lines.length, arborSolved, eSolved);
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
    arbor: { solved: arborSolved, byCompletion, byEproverReplay: byE, eInsidePortfolio: !values['no-e-in-arbor'], medianMs: median(rows.filter((r) => r.arbor).map((r) => r.arborMs)) },
    eprover: { solved: eSolved, args: '--auto --cpu-limit=<limit>', medianMs: median(rows.filter((r) => r.e).map((r) => r.eMs)) },
    onlyArbor: rows.filter((r) => r.arbor && !r.e).length,
    onlyE: rows.filter((r) => !r.arbor && r.e).length,
    aimleapPublished: 'AIMLEAP settings: -abslimit 100 -constdist 8.0 -maxdepth 10 (no advisor) ≈ 5 % (data README); Waldmeister 65.5 %, 3SIL 70.2 % at 60 s (Piepenbrock et al., IJCAR 2022)',
    rows,
  };
  const outDir = join(repoRoot, 'bench/results');
  mkdirSync(outDir, { recursive: true });
  const out = values.out ?? join(outDir, `aim-${summary.date.replace(/[:.]/g, '-')}.json`);
  writeFileSync(out, JSON.stringify(summary, null, 2));
  const pct = (n: number): string => `${((100 * n) / Math.max(1, rows.length)).toFixed(1)} %`;
  console.log(`AIM benchmark: ${rows.length} problems, ${limit} s each (wall clock), run alternately`);
  console.log('prover                          solved   share    median ms');
  console.log(`Arbor eq (checked proofs)       ${String(arborSolved).padStart(6)}   ${pct(arborSolved).padStart(7)}  ${summary.arbor.medianMs}`);
  console.log(`  of which own completion       ${String(byCompletion).padStart(6)}`);
  console.log(`  of which E proof replayed     ${String(byE).padStart(6)}`);
  console.log(`E prover 2.6 --auto             ${String(eSolved).padStart(6)}   ${pct(eSolved).padStart(7)}  ${summary.eprover.medianMs}`);
  console.log(`only Arbor: ${summary.onlyArbor}, only E: ${summary.onlyE}`);
  console.log(summary.aimleapPublished);
  console.log(`results: ${out}`);
}

function median(xs: number[]): number {
  if (!xs.length) return 0;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] as number;
}

await main();
