import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CDPSession, Page } from 'playwright-core';
import { launchChromium } from '../e2e/e2e-support.ts';
import { startWebWorkbench } from '../main/host/web-workbench.ts';
import type { BenchRow } from './bench-table.ts';
import { printTable, writeResults } from './bench-table.ts';

/**
 * The live path (BRIEF §4, issue 11): real Coq, the host's document session, the WebSocket transport,
 * the renderer's store and the canvas — not a synthetic tree. A document is opened in Chromium and run to
 * the end; the bench reads the page's own main-thread time (Chrome's `TaskDuration`) and JS heap at
 * checkpoints, so renderer time per step and memory can be compared early and late in a long proof.
 *   long:  2,000 steps on a small state (its size stays the same: one hypothesis comes and goes)
 *   wide:  a state of 5,000 open leaves, then steps that change its current leaf
 */
const bal = (n: number): string => (n === 1 ? 'P' : `(${bal(Math.floor(n / 2))} /\\ ${bal(n - Math.floor(n / 2))})`);
const toggling = (steps: number): string[] => Array.from({ length: steps }, (_, i) => (i % 2 === 0 ? 'APPLY (pose proof p as q)' : 'APPLY (clear q)'));

interface Scenario { name: string; leaves: number; lines: string[]; checkpoints: number[] }

const SCENARIOS = (quick: boolean): Scenario[] => {
  const long = quick ? 400 : 2000;
  const wide = quick ? 1000 : 5000;
  const wideSteps = quick ? 20 : 60;
  return [
    { name: `${long}-step proof`, leaves: 8, lines: [`GOAL "forall P : Prop, P -> ${bal(8)}"`, 'APPLY (intros P p; repeat split)', ...toggling(long - 2)], checkpoints: [0.1, 0.3, 0.7, 0.9].map((f) => Math.round(long * f)) },
    { name: `${wide}-leaf state`, leaves: wide, lines: [`GOAL "forall P : Prop, P -> ${bal(wide)}"`, 'APPLY (intros P p; repeat split)', ...toggling(wideSteps)], checkpoints: [0.1, 0.4, 0.6, 0.9].map((f) => 2 + Math.round(wideSteps * f)) },
  ];
};

interface Sample { step: number; taskMs: number; heapMB: number; at: number }

async function metrics(cdp: CDPSession): Promise<{ taskMs: number; heapMB: number }> {
  await cdp.send('HeapProfiler.collectGarbage');
  const { metrics: m } = await cdp.send('Performance.getMetrics') as { metrics: { name: string; value: number }[] };
  const get = (n: string): number => m.find((x) => x.name === n)?.value ?? NaN;
  return { taskMs: get('TaskDuration') * 1000, heapMB: get('JSHeapUsedSize') / 2 ** 20 };
}

const liveStep = (page: Page): Promise<number> => page.evaluate(() => (window as unknown as { __arborPerf?: { liveStep?: number } }).__arborPerf?.liveStep ?? 0);

async function runScenario(page: Page, url: string, workspace: string, sc: Scenario, log: (s: string) => void): Promise<Sample[]> {
  const file = join(workspace, `${sc.name.replace(/\W+/g, '-')}.arbor`);
  await writeFile(file, `${sc.lines.join('\n')}\n`);
  await page.goto(`${url}&open=${encodeURIComponent(file)}`);
  await page.waitForSelector('.monaco-editor .view-line');
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');
  await page.click('[data-testid="run-all"]');
  const samples: Sample[] = [];
  const t0 = Date.now();
  for (const k of sc.checkpoints) {
    await page.waitForFunction((s) => ((window as unknown as { __arborPerf?: { liveStep?: number } }).__arborPerf?.liveStep ?? 0) >= s, k, { timeout: 1_800_000, polling: 250 });
    const m = await metrics(cdp);
    samples.push({ step: await liveStep(page), ...m, at: Date.now() - t0 });
    log(`${sc.name}: step ${samples.at(-1)?.step}, page task time ${m.taskMs.toFixed(0)} ms, heap ${m.heapMB.toFixed(1)} MB`);
  }
  await cdp.detach();
  return samples;
}

export async function runLivePathBench(log: (s: string) => void = () => undefined, quick = false): Promise<{ rows: BenchRow[]; raw: unknown }> {
  const base = await mkdtemp(join(tmpdir(), 'arbor-live-'));
  const workbench = await startWebWorkbench({ backend: 'coq', workspace: base, userDir: join(base, 'user'), timeoutMs: 600_000, log });
  const browser = await launchChromium();
  const rows: BenchRow[] = [];
  const raw: Record<string, Sample[]> = {};
  try {
    for (const sc of SCENARIOS(quick)) {
      const page = await browser.newPage({ viewport: { width: 1500, height: 920 } });
      const samples = await runScenario(page, workbench.url, base, sc, log);
      raw[sc.name] = samples;
      await page.close();
      // Per-step renderer time in the first and the last window of steps (between checkpoints).
      const per = (a: Sample, b: Sample): number => (b.taskMs - a.taskMs) / Math.max(1, b.step - a.step);
      const [s0, s1, sx, sy] = samples as [Sample, Sample, Sample, Sample];
      const early = per(s0, s1), late = per(sx, sy);
      rows.push({ what: `${sc.name}: renderer time per step, steps ${s0.step}–${s1.step}`, value: early, unit: 'ms' });
      rows.push({ what: `${sc.name}: renderer time per step, steps ${sx.step}–${sy.step}`, value: late, unit: 'ms' });
      rows.push({ what: `${sc.name}: late / early time per step`, value: late / early, unit: 'x', target: 'flat (≤ 1.5)', ok: late / early <= 1.5 });
      rows.push({ what: `${sc.name}: JS heap at step ${s0.step} / ${sy.step}`, value: sy.heapMB, unit: 'MB', detail: `${s0.heapMB.toFixed(1)} MB at step ${s0.step}` });
      rows.push({ what: `${sc.name}: heap growth per 1,000 steps`, value: ((sy.heapMB - s0.heapMB) / Math.max(1, sy.step - s0.step)) * 1000, unit: 'MB', target: 'flat', ok: sy.heapMB - s0.heapMB <= Math.max(5, s0.heapMB * 0.25) });
    }
  } finally {
    await browser.close();
    await workbench.close();
    await rm(base, { recursive: true, force: true });
  }
  return { rows, raw };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const quick = process.argv.includes('--quick');
  const { rows, raw } = await runLivePathBench((s) => process.stderr.write(`bench: ${s}\n`), quick);
  printTable('live path: host → transport → store → canvas (real Coq)', rows);
  process.stderr.write(`bench: results: ${await writeResults('live-path', { date: new Date().toISOString(), rows, raw })}\n`);
}
