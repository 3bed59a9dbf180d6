import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { parseCases } from '../../shared/fidelity/fidelity-cases.ts';
import { summarise } from '../../shared/fidelity/fidelity-metrics.ts';
import type { FidelityReport } from '../../shared/fidelity/fidelity-types.ts';
import { checkFidelity } from '../../main/fidelity/check-fidelity.ts';
import { createProgressBar } from '../../main/fidelity/progress-bar.ts';
import { casesPath, verifyGroundTruth } from './verify-ground-truth.ts';

/**
 * `npm run bench:fidelity`: check the ground truth of the case set with Coq, run every case through all
 * tiers, print accuracy per ground-truth class, precision of `equivalent` (must be 100 %), recall and
 * time per case, and write the JSON into bench/results/fidelity-<time>.json.
 * Flags: --skip-verify, --timeout SECONDS, --only id1,id2.
 */
async function main(): Promise<number> {
  const args = process.argv.slice(2);
  const flag = (name: string): string | undefined => { const i = args.indexOf(name); return i >= 0 ? args[i + 1] : undefined; };
  const timeoutMs = flag('--timeout') ? Math.round(Number(flag('--timeout')) * 1000) : undefined;
  const only = flag('--only')?.split(',');
  let groundTruthFailures: string[] = [];
  if (!args.includes('--skip-verify')) {
    process.stderr.write('checking ground truth with Coq…\n');
    groundTruthFailures = await verifyGroundTruth(casesPath, (s) => process.stderr.write(`  ${s}\n`));
  }
  const cases = parseCases(await readFile(casesPath, 'utf8')).filter((c) => !only || only.includes(c.id));
  const bar = createProgressBar(cases.length);
  const reports: FidelityReport[] = [];
  const started = Date.now();
  for (const c of cases) {
    reports.push(await checkFidelity({ id: c.id, canonical: c.canonical, candidate: c.candidate, ...(c.context ? { context: c.context } : {}), ...(timeoutMs ? { timeoutMs } : {}) }));
    bar.tick(`${c.id}: ${reports[reports.length - 1]?.verdict}`);
  }
  bar.done();
  const totals = summarise(reports, cases.map((c) => c.truth));
  const acc = totals.accuracy;
  const pct = (x: number | null | undefined): string => (x === null || x === undefined ? 'n/a' : `${(x * 100).toFixed(1)} %`);
  const rows: string[] = [];
  rows.push('| truth | cases | correct | accuracy |', '|---|---|---|---|');
  for (const [k, v] of Object.entries(acc?.perTruth ?? {})) rows.push(`| ${k} | ${v.cases} | ${v.correct} | ${pct(v.accuracy)} |`);
  rows.push('');
  rows.push(`overall accuracy ${pct(acc?.overall)} · precision(equivalent) ${pct(acc?.precisionEquivalent)} · recall(equivalent) ${pct(acc?.recallEquivalent)} · precision(not_equivalent) ${pct(acc?.precisionNotEquivalent)} · recall(not_equivalent) ${pct(acc?.recallNotEquivalent)}`);
  rows.push(`time/case: mean ${(totals.msMean / 1000).toFixed(2)} s, median ${(totals.msMedian / 1000).toFixed(2)} s, total ${((Date.now() - started) / 1000).toFixed(1)} s`);
  rows.push(`verdicts: ${Object.entries(totals.byVerdict).map(([k, v]) => `${k} ${v}`).join(', ')} · deciding tier: ${Object.entries(totals.byTier).map(([k, v]) => `${k} ${v}`).join(', ')}`);
  if (acc && acc.wrong.length > 0) rows.push(`WRONG: ${acc.wrong.join('; ')}`);
  if (groundTruthFailures.length > 0) rows.push(`ground truth NOT confirmed by Coq: ${groundTruthFailures.join(', ')}`);
  console.log(rows.join('\n'));
  const outDir = fileURLToPath(new URL('../results/', import.meta.url));
  await mkdir(outDir, { recursive: true });
  const out = `${outDir}fidelity-${new Date().toISOString().replace(/[:.]/gu, '-')}.json`;
  const perCase = reports.map((r, i) => ({ id: r.id, truth: cases[i]?.truth, category: cases[i]?.extra.category, verdict: r.verdict, tier: r.tier, reason: r.reason, ms: Math.round(r.ms), normalised: r.normalised, evidence: r.evidence }));
  await writeFile(out, `${JSON.stringify({ date: new Date().toISOString(), cases: perCase, totals, groundTruthFailures }, null, 2)}\n`);
  console.log(`results: ${out}`);
  return acc?.precisionEquivalent === 1 || acc?.precisionEquivalent === null ? 0 : 1;
}

process.exitCode = await main();
