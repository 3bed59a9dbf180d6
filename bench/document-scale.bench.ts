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
 * `coqc` on the script Arbor itself prints for the same document — one run, side by side.
 */
const TMP = fileURLToPath(new URL('../.tmp/document-scale/', import.meta.url));

export async function runDocumentScaleBench(): Promise<{ rows: BenchRow[]; raw: unknown }> {
  const lines = fiftyLemmaDocument();
  const shell = new ShellProcess(['--pool', '0']);
  let arborMs: number;
  let script: string;
  let ends = 0;
  /** Where the time went: milliseconds per command kind. */
  const byKind: Record<string, number> = {};
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
    arborMs = performance.now() - t0;
    const s = await shell.request('SCRIPT');
    script = String(s.RESPONSE);
  } finally {
    await shell.end();
  }
  await mkdir(TMP, { recursive: true });
  const file = `${TMP}fifty.v`;
  await writeFile(file, script);
  const t1 = performance.now();
  const coqc = await runProcess({ program: 'coqc', args: [file], timeoutMs: 600_000, cwd: TMP, sandbox: false });
  const coqcMs = performance.now() - t1;
  if (coqc.exitCode !== 0) throw new Error(`coqc refused Arbor's script: ${coqc.stderr || coqc.stdout}`);
  const ratio = arborMs / coqcMs;
  const rows: BenchRow[] = [
    { what: `arbor-shell: ${lines.length} requests, ${ends} lemmas finished (after start-up)`, value: Math.round(arborMs), unit: 'ms' },
    { what: 'arbor-shell by command', value: Math.round(arborMs), unit: 'ms', detail: Object.entries(byKind).map(([k, ms]) => `${k} ${Math.round(ms)}`).join(', ') },
    { what: 'coqc on the same script (whole run)', value: Math.round(coqcMs), unit: 'ms' },
    { what: 'arbor-shell / coqc', value: Number(ratio.toFixed(2)), unit: '×', target: '≤ 1.2', ok: ratio <= 1.2 },
  ];
  return { rows, raw: { arborMs, coqcMs, ratio, requests: lines.length, ends, byKind } };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { rows, raw } = await runDocumentScaleBench();
  printTable('document scale: 50 lemmas, arbor-shell vs coqc (one run)', rows);
  process.stderr.write(`bench: results: ${await writeResults('document-scale', { date: new Date().toISOString(), rows, raw })}\n`);
}
