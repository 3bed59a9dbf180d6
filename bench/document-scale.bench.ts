import { mkdir, writeFile } from 'node:fs/promises';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { ShellProcess } from '../main/cli/shell-process.ts';
import { runProcess } from '../main/process/process-manager.ts';
import type { BenchRow } from './bench-table.ts';
import { printTable, writeResults } from './bench-table.ts';
import { fiftyLemmaDocument } from './fifty-lemmas.ts';

/**
 * Issue 24 item 4: a 50-lemma document checked by `arbor-shell` (after start-up: the prover is up with its
 * prelude), every END finishing its proof (Qed, the assumption judgement, the statement's meaning), against
 * `coqc` on the script Arbor itself prints for the same document — side by side in one run. Both sides run
 * `ROUNDS` times, alternating, and the ratio compares medians: on a shared 2-core machine one `coqc` run
 * alone varies by ±30 %.
 */
const TMP = fileURLToPath(new URL('../.tmp/document-scale/', import.meta.url));
const ROUNDS = Math.max(1, Number(process.env.ARBOR_BENCH_ROUNDS ?? 5));

/** One arbor-shell run of the document after start-up: its time, where it went, and the script it prints. */
async function arborRun(lines: readonly string[]): Promise<{ ms: number; byKind: Record<string, number>; ends: number; script: string }> {
  const shell = new ShellProcess(['--pool', '0']);
  const byKind: Record<string, number> = {};
  let ends = 0;
  try {
    // Start-up: the channel's prover is up and has run its prelude once a look-up answers.
    const up = await shell.request('CHECK 0');
    if (up.ERR) throw new Error(`start-up: ${up.ERR}`);
    const t0 = performance.now();
    for (const line of lines) {
      const t = performance.now();
      const r = await shell.request(line);
      if (r.ERR) throw new Error(`${line}: ${r.ERR}`);
      if (line === 'END') ends++;
      const kind = line.split(' ')[0] as string;
      byKind[kind] = (byKind[kind] ?? 0) + performance.now() - t;
    }
    const ms = performance.now() - t0;
    const s = await shell.request('SCRIPT');
    return { ms, byKind, ends, script: String(s.RESPONSE) };
  } finally {
    await shell.end();
  }
}

/** One `coqc` run of the script (start-up and prelude included, as a user's `coqc` pays them). */
async function coqcRun(file: string): Promise<number> {
  const t1 = performance.now();
  const coqc = await runProcess({ program: 'coqc', args: [file], timeoutMs: 600_000, cwd: TMP, sandbox: false });
  const ms = performance.now() - t1;
  if (coqc.exitCode !== 0) throw new Error(`coqc refused Arbor's script: ${coqc.stderr || coqc.stdout}`);
  return ms;
}

const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
};

export async function runDocumentScaleBench(): Promise<{ rows: BenchRow[]; raw: unknown }> {
  const lines = fiftyLemmaDocument();
  await mkdir(TMP, { recursive: true });
  const file = `${TMP}fifty.v`;
  const arbor: Awaited<ReturnType<typeof arborRun>>[] = [];
  const coqc: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const run = await arborRun(lines);
    arbor.push(run);
    await writeFile(file, run.script);
    coqc.push(await coqcRun(file));
  }
  const arborMs = median(arbor.map((r) => r.ms));
  const coqcMs = median(coqc);
  const ratio = arborMs / coqcMs;
  const byKind: Record<string, number> = {};
  for (const kind of Object.keys(arbor[0]?.byKind ?? {})) byKind[kind] = median(arbor.map((r) => r.byKind[kind] ?? 0));
  const each = (xs: readonly number[]): string => xs.map((x) => Math.round(x)).join(' / ');
  const rows: BenchRow[] = [
    { what: `arbor-shell: ${lines.length} requests, ${arbor[0]?.ends ?? 0} lemmas finished (after start-up), median of ${ROUNDS}`, value: Math.round(arborMs), unit: 'ms', detail: `runs ${each(arbor.map((r) => r.ms))}` },
    { what: 'arbor-shell by command (medians)', value: Math.round(arborMs), unit: 'ms', detail: Object.entries(byKind).map(([k, ms]) => `${k} ${Math.round(ms)}`).join(', ') },
    { what: `coqc on the same script (whole run), median of ${ROUNDS}`, value: Math.round(coqcMs), unit: 'ms', detail: `runs ${each(coqc)}` },
    { what: 'arbor-shell / coqc (medians)', value: Number(ratio.toFixed(2)), unit: '×', target: '≤ 1.2', ok: ratio <= 1.2 },
    { what: 'arbor-shell / coqc (fastest runs)', value: Number((Math.min(...arbor.map((r) => r.ms)) / Math.min(...coqc)).toFixed(2)), unit: '×' },
  ];
  return { rows, raw: { rounds: ROUNDS, arbor: arbor.map((r) => ({ ms: r.ms, byKind: r.byKind })), coqc, arborMs, coqcMs, ratio, requests: lines.length } };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { rows, raw } = await runDocumentScaleBench();
  printTable(`document scale: 50 lemmas, arbor-shell vs coqc (${ROUNDS} alternating rounds, one run)`, rows);
  process.stderr.write(`bench: results: ${await writeResults('document-scale', { date: new Date().toISOString(), rows, raw })}\n`);
}
