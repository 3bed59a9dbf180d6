import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { ShellProcess } from '../main/cli/shell-process.ts';
import { runProcess } from '../main/process/process-manager.ts';
import { cpuMs, descendants, listProcesses } from '../main/process/process-tree.ts';
import { CoqideTopClient } from '../main/provers/coq/coqidetop-client.ts';
import { splitSentences } from '../main/provers/coq/coq-sentence.ts';
import { environmentPrelude, sessionOnlyPrelude } from '../main/provers/coq/environments.ts';
import type { BenchRow } from './bench-table.ts';
import { printTable, writeResults } from './bench-table.ts';
import { fiftyLemmaDocument } from './fifty-lemmas.ts';
import { runConverted } from '../main/provers/coq/conformance-run.ts';
import { vToDocument } from '../main/provers/coq/v-to-document.ts';
import { workbenchRun } from './workbench-document-run.ts';

/**
 * Issue 24 item 4: a 50-lemma document checked two ways — opened in the workbench (the host's document
 * route, workbench-document-run.ts) and through `arbor-shell` (an agent's route: one JSON request per line,
 * each awaited) — after start-up (the prover is up with its prelude), every END finishing its proof (Qed,
 * the assumption judgement, the statement's meaning), against `coqc` on the script Arbor itself prints for
 * the same document — side by side in one run. Both sides run
 * `ROUNDS` times, alternating, and the ratio compares medians: on a shared 2-core machine one `coqc` run
 * alone varies by ±30 %.
 */
const TMP = fileURLToPath(new URL('../.tmp/document-scale/', import.meta.url));
const ROUNDS = Math.max(1, Number(process.env.ARBOR_BENCH_ROUNDS ?? 5));

/**
 * CPU time so far of the shell's provers (each `coqidetop` below it, by pid) and of its main thread. A
 * channel's requests run one after another on one single-threaded `coqidetop`, so that prover's CPU time
 * is a floor under the run's wall time, whatever Arbor itself costs.
 */
function cpuNow(shell: ShellProcess): { provers: Map<number, number>; shell: number } {
  const root = shell.child.pid as number;
  const provers = new Map<number, number>();
  for (const p of descendants(root, listProcesses())) if (/^coqidetop/.test(p.name)) provers.set(p.pid, cpuMs(p.pid) ?? 0);
  return { provers, shell: cpuMs(root) ?? 0 };
}

/**
 * CPU spent between two readings: the busiest prover's (the channel's), all provers', and the shell's main thread.
 * A prover that exited during the run is missing from the second reading (a restarted one counts from its
 * start): the figure is then a lower bound.
 */
function cpuSpent(before: ReturnType<typeof cpuNow>, after: ReturnType<typeof cpuNow>): { prover: number; provers: number; shell: number } {
  const spent = [...after.provers].map(([pid, ms]) => ms - (before.provers.get(pid) ?? 0));
  return { prover: Math.max(0, ...spent), provers: spent.reduce((a, b) => a + b, 0), shell: after.shell - before.shell };
}

/**
 * The same script's sentences through one `coqidetop` with nothing of Arbor: the prelude first (not
 * counted, as Arbor's runs start after it), then the document's sentences — `execute`: added, then run at
 * one final `Goal` (what `coqc` does, inside `coqidetop`); `step`: each added and its goals asked at once
 * (the least a tree of every step needs). Its CPU time: what the prover costs before any judgement.
 */
async function proverAlone(script: string, environment: string | undefined, mode: 'execute' | 'step'): Promise<number> {
  const sentences = splitSentences(script);
  const prelude = splitSentences(environmentPrelude(environment)).length;
  const client = await CoqideTopClient.start();
  try {
    for (const s of sessionOnlyPrelude(environment)) await client.add(s);
    for (const s of sentences.slice(0, prelude)) await client.add(s);
    await client.goals();
    const pid = client.proverPid as number;
    const t0 = cpuMs(pid) ?? 0;
    for (const s of sentences.slice(prelude)) {
      if (mode === 'step') await client.addAndGoals(s);
      else await client.add(s);
    }
    await client.goals();
    return (cpuMs(pid) ?? 0) - t0;
  } finally {
    await client.dispose();
  }
}

/** One arbor-shell run of the document after start-up: its time, where it went, and the script it prints. */
async function arborRun(lines: readonly string[]): Promise<{ ms: number; byKind: Record<string, number>; ends: number; script: string; cpu: ReturnType<typeof cpuSpent> }> {
  const shell = new ShellProcess(['--pool', '0']);
  const byKind: Record<string, number> = {};
  let ends = 0;
  try {
    // Start-up: the channel's prover is up and has run its prelude once a look-up answers.
    const up = await shell.request('CHECK 0');
    if (up.ERR) throw new Error(`start-up: ${up.ERR}`);
    const c0 = cpuNow(shell);
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
    const cpu = cpuSpent(c0, cpuNow(shell));
    const s = await shell.request('SCRIPT');
    return { ms, byKind, ends, script: String(s.RESPONSE), cpu };
  } finally {
    await shell.end();
  }
}

/**
 * Material nobody here wrote: Coq's own `Bool.v` (116 theorems, 81 declarations; LGPL, read from the installed
 * sources at run time), converted into an Arbor document as the conformance suite does (PRELUDE bare, DEFINE,
 * GOAL, its reference proofs as APPLY lines, END), through `arbor-shell` after start-up.
 */
const PUBLIC = '/usr/lib/ocaml/coq/theories/Bool/Bool.v';

async function publicRun(): Promise<{ ms: number; proved: number; refused: number; requests: number; script: string; cpu: ReturnType<typeof cpuSpent>; documentLines: string[] }> {
  const items = vToDocument(await readFile(PUBLIC, 'utf8'));
  const shell = new ShellProcess(['--timeout', '10', '--pool', '0']);
  try {
    const ch = ((await shell.request('NEW_CHANNEL', 0)).RESPONSE as { ID: number }).ID;
    const say = (line: string): ReturnType<ShellProcess['request']> => shell.request(`${ch} ${line}`, ch);
    if ((await say('PRELUDE bare')).ERR !== '') throw new Error('PRELUDE bare refused');
    const up = await say('CHECK 0');
    if (up.ERR) throw new Error(`start-up: ${up.ERR}`);
    let requests = 0;
    // The document a user would keep: every line the shell took (a refused declaration would stop a document's check).
    const documentLines = ['PRELUDE bare'];
    const c0 = cpuNow(shell);
    const t0 = performance.now();
    const outcomes = await runConverted(items, async (line) => {
      requests++;
      const r = await say(line);
      if (r.ERR === '' || !line.startsWith('DEFINE ')) documentLines.push(line);
      return r;
    });
    const ms = performance.now() - t0;
    const cpu = cpuSpent(c0, cpuNow(shell));
    const script = String((await say('SCRIPT')).RESPONSE);
    return { ms, proved: outcomes.filter((o) => o.result === 'proved').length, refused: outcomes.filter((o) => o.result === 'refused').length, requests, script, cpu, documentLines };
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
  const workbench: Awaited<ReturnType<typeof workbenchRun>>[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const run = await arborRun(lines);
    arbor.push(run);
    await writeFile(file, run.script);
    coqc.push(await coqcRun(file));
    workbench.push(await workbenchRun(lines, 1));
  }
  // The public document, the same way (fewer rounds: it is larger).
  const pub: Awaited<ReturnType<typeof publicRun>>[] = [];
  const pubCoqc: number[] = [];
  const alone: { execute: number; step: number }[] = [];
  const pubWorkbench: Awaited<ReturnType<typeof workbenchRun>>[] = [];
  const publicFile = `${TMP}bool.v`;
  for (let round = 0; round < Math.max(1, Math.ceil(ROUNDS / 2)); round++) {
    const run = await publicRun();
    pub.push(run);
    await writeFile(publicFile, run.script);
    pubCoqc.push(await coqcRun(publicFile));
    pubWorkbench.push(await workbenchRun(run.documentLines, 2));
    alone.push({ execute: await proverAlone(run.script, 'bare', 'execute'), step: await proverAlone(run.script, 'bare', 'step') });
  }
  const pubMs = median(pub.map((r) => r.ms));
  const pubProver = median(pub.map((r) => r.cpu.prover));
  const fiftyProver = median(arbor.map((r) => r.cpu.prover));
  const pubCoqcMs = median(pubCoqc);
  const arborMs = median(arbor.map((r) => r.ms));
  const coqcMs = median(coqc);
  const ratio = arborMs / coqcMs;
  const byKind: Record<string, number> = {};
  for (const kind of Object.keys(arbor[0]?.byKind ?? {})) byKind[kind] = median(arbor.map((r) => r.byKind[kind] ?? 0));
  const each = (xs: readonly number[]): string => xs.map((x) => Math.round(x)).join(' / ');
  const wb = median(workbench.map((r) => r.ms));
  const wbCold = median(workbench.map((r) => r.coldMs));
  const pubWb = median(pubWorkbench.map((r) => r.ms));
  const pubWbCold = median(pubWorkbench.map((r) => r.coldMs));
  const kib = (r: { bytes: number; events: number }): string => `${r.events} events, ${Math.round(r.bytes / 1024)} KiB`;
  const rows: BenchRow[] = [
    { what: `workbench: the document opened and run (${workbench[0]?.checked ?? 0} lines), after start-up, median of ${ROUNDS}`, value: Math.round(wb), unit: 'ms', detail: `runs ${each(workbench.map((r) => r.ms))}; events sent ${kib(workbench[0] ?? { events: 0, bytes: 0 })}` },
    { what: 'workbench / coqc (medians)', value: Number((wb / coqcMs).toFixed(2)), unit: '×', target: '≤ 1.2', ok: wb / coqcMs <= 1.2 },
    { what: 'workbench: lemma 1\'s proof edited, the document run again (every later lemma re-checked) / coqc (medians)', value: Number((median(workbench.map((r) => r.editFirstMs ?? NaN)) / coqcMs).toFixed(2)), unit: '×', detail: `runs ${each(workbench.map((r) => r.editFirstMs ?? NaN))} ms` },
    { what: 'workbench: the last lemma\'s proof edited, run again (only it re-checked) / coqc (medians)', value: Number((median(workbench.map((r) => r.editLastMs ?? NaN)) / coqcMs).toFixed(2)), unit: '×', detail: `runs ${each(workbench.map((r) => r.editLastMs ?? NaN))} ms` },
    { what: 'workbench from a cold start (prover start-up and prelude included, as coqc) / coqc', value: Number((wbCold / coqcMs).toFixed(2)), unit: '×', detail: `runs ${each(workbench.map((r) => r.coldMs))} ms` },
    { what: `arbor-shell: ${lines.length} requests, ${arbor[0]?.ends ?? 0} lemmas finished (after start-up), median of ${ROUNDS}`, value: Math.round(arborMs), unit: 'ms', detail: `runs ${each(arbor.map((r) => r.ms))}` },
    { what: 'arbor-shell by command (medians)', value: Math.round(arborMs), unit: 'ms', detail: Object.entries(byKind).map(([k, ms]) => `${k} ${Math.round(ms)}`).join(', ') },
    { what: `coqc on the same script (whole run), median of ${ROUNDS}`, value: Math.round(coqcMs), unit: 'ms', detail: `runs ${each(coqc)}` },
    { what: 'arbor-shell / coqc (medians)', value: Number(ratio.toFixed(2)), unit: '×', target: '≤ 1.2', ok: ratio <= 1.2 },
    { what: 'arbor-shell / coqc (fastest runs)', value: Number((Math.min(...arbor.map((r) => r.ms)) / Math.min(...coqc)).toFixed(2)), unit: '×' },
    { what: "the channel's coqidetop: CPU during the run (median)", value: Math.round(fiftyProver), unit: 'ms', detail: `runs ${each(arbor.map((r) => r.cpu.prover))}; all provers ${each(arbor.map((r) => r.cpu.provers))}; arbor-shell's main thread ${each(arbor.map((r) => r.cpu.shell))}` },
    { what: "  that prover's CPU alone / coqc's wall time (a floor under the first ratio)", value: Number((fiftyProver / coqcMs).toFixed(2)), unit: '×' },
    { what: `public: Coq's Bool.v as a document (${pub[0]?.requests ?? 0} requests, ${pub[0]?.proved ?? 0} theorems proved, ${pub[0]?.refused ?? 0} refused), median of ${pub.length}`, value: Math.round(pubMs), unit: 'ms', detail: `runs ${each(pub.map((r) => r.ms))}` },
    { what: `public: coqc on its SCRIPT, median of ${pub.length}`, value: Math.round(pubCoqcMs), unit: 'ms', detail: `runs ${each(pubCoqc)}` },
    { what: `public: workbench, the document opened and run (${pubWorkbench[0]?.checked ?? 0} lines), after start-up`, value: Math.round(pubWb), unit: 'ms', detail: `runs ${each(pubWorkbench.map((r) => r.ms))}; events sent ${kib(pubWorkbench[0] ?? { events: 0, bytes: 0 })}` },
    { what: 'public: workbench / coqc (medians)', value: Number((pubWb / pubCoqcMs).toFixed(2)), unit: '×', target: '≤ 1.2', ok: pubWb / pubCoqcMs <= 1.2 },
    { what: 'public: workbench from a cold start / coqc', value: Number((pubWbCold / pubCoqcMs).toFixed(2)), unit: '×', detail: `runs ${each(pubWorkbench.map((r) => r.coldMs))} ms` },
    { what: 'public: arbor-shell / coqc (medians)', value: Number((pubMs / pubCoqcMs).toFixed(2)), unit: '×', target: '≤ 1.2', ok: pubMs / pubCoqcMs <= 1.2 },
    { what: "public: the channel's coqidetop: CPU during the run (median)", value: Math.round(pubProver), unit: 'ms', detail: `runs ${each(pub.map((r) => r.cpu.prover))}; all provers ${each(pub.map((r) => r.cpu.provers))}; arbor-shell's main thread ${each(pub.map((r) => r.cpu.shell))}` },
    { what: "public:   that prover's CPU alone / coqc's wall time (a floor under the ratio above)", value: Number((pubProver / pubCoqcMs).toFixed(2)), unit: '×' },
    { what: 'public: the SCRIPT in one coqidetop, no Arbor: CPU to execute it (median)', value: Math.round(median(alone.map((a) => a.execute))), unit: 'ms', detail: `runs ${each(alone.map((a) => a.execute))}` },
    { what: 'public: the same, the goals asked after every sentence (median)', value: Math.round(median(alone.map((a) => a.step))), unit: 'ms', detail: `runs ${each(alone.map((a) => a.step))}` },
  ];
  return { rows, raw: { rounds: ROUNDS, workbench, publicWorkbench: pubWorkbench, arbor: arbor.map((r) => ({ ms: r.ms, byKind: r.byKind, cpu: r.cpu })), coqc, arborMs, coqcMs, ratio, requests: lines.length, public: { file: PUBLIC, runs: pub.map((r) => ({ ms: r.ms, proved: r.proved, refused: r.refused, requests: r.requests, cpu: r.cpu })), coqc: pubCoqc, proverAlone: alone } } };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { rows, raw } = await runDocumentScaleBench();
  printTable(`document scale: 50 lemmas, arbor-shell vs coqc (${ROUNDS} alternating rounds, one run)`, rows);
  process.stderr.write(`bench: results: ${await writeResults('document-scale', { date: new Date().toISOString(), rows, raw })}\n`);
}
