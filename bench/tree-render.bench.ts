import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { startWebWorkbench } from '../main/host/web-workbench.ts';
import { UnavailableEngine } from '../main/host/unavailable-engine.ts';
import { join } from 'node:path';
import { ARTIFACTS, launchChromium } from '../e2e/e2e-support.ts';
import { measureDerivationReadability, measureTreeRendering } from '../e2e/tree-perf.ts';
import type { BenchRow } from './bench-table.ts';
import { printTable, writeResults } from './bench-table.ts';

/**
 * The tree in Chromium. Readability (issue 12): for derivations of 10 to 10,000 goals at 1280×720, the
 * smallest font on screen after Fit and draw times while panning. Speed (BRIEF §4): first paint of a
 * 10,000-node tree (layout included) ≤ 500 ms, and
 * per-frame draw time while panning/zooming ≤ 16.7 ms at every zoom level, for 10,000 and 50,000 nodes.
 */
export async function runTreeRenderBench(log: (s: string) => void = () => undefined): Promise<{ rows: BenchRow[]; raw: unknown }> {
  const workbench = await startWebWorkbench({
    backend: 'coq', workspace: process.cwd(), userDir: `${process.env.TMPDIR ?? '/tmp'}/arbor-bench-user`,
    // Performance mode draws a synthetic tree: no prover needed.
    createEngine: () => new UnavailableEngine('coq', 'not needed for the rendering benchmark'),
    log,
  });
  const browser = await launchChromium();
  const rows: BenchRow[] = [];
  const raw: Record<string, unknown> = {};
  try {
    // Readability (issue 12): derivations of 10 … 10,000 goals at 1280×720, after Fit, then panning.
    const readable: unknown[] = [];
    for (const size of [10, 100, 1_000, 10_000]) {
      const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
      const r = await measureDerivationReadability(page, workbench.url, size, join(ARTIFACTS, `bench-derivation-${size}-fit.png`));
      readable.push(r);
      log(`derivation ${size}: ${r.shown} shown, fit scale ${r.fitScale.toFixed(2)}, smallest font ${r.minFontPx?.toFixed(1) ?? '-'} px`);
      rows.push({ what: `derivation of ${size} goals: smallest font after Fit (${r.shown} nodes shown, scale ${r.fitScale.toFixed(2)})`, value: r.minFontPx ?? 0, unit: 'px', target: '≥ 9 px', ok: (r.minFontPx ?? 0) >= 9 });
      rows.push({ what: `derivation of ${size} goals: panning after Fit, draw p95`, value: r.panP95, unit: 'ms', target: '≤ 16.7 ms', ok: r.panP95 <= 16.7, detail: `${r.frames} frames, p50 ${r.panP50.toFixed(1)} ms, max ${r.panMax.toFixed(1)} ms, rAF interval p95 ${r.intervalP95.toFixed(1)} ms` });
      await page.close();
    }
    raw.derivations = readable;
    for (const size of [10_000, 50_000]) {
      const page = await browser.newPage({ viewport: { width: 1500, height: 920 } });
      const r = await measureTreeRendering(page, workbench.url, size, join(ARTIFACTS, `bench-${size}`));
      const rss = rendererRssMB(process.pid);
      raw[String(size)] = r;
      log(`${size}: first paint ${r.firstPaintMs.toFixed(0)} ms`);
      rows.push({ what: `${r.nodes} nodes: first paint (layout ${r.layoutMs.toFixed(0)} ms incl.)`, value: r.firstPaintMs, unit: 'ms', ...(size === 10_000 ? { target: '≤ 500 ms', ok: r.firstPaintMs <= 500 } : {}) });
      for (const p of r.phases) {
        rows.push({ what: `${r.nodes} nodes: ${p.name}, draw p95`, value: p.p95, unit: 'ms', target: '≤ 16.7 ms', ok: p.p95 <= 16.7, detail: `${p.frames} frames, max ${p.max.toFixed(1)} ms, rAF interval p95 ${p.intervalP95.toFixed(1)} ms` });
      }
      rows.push({ what: `${r.nodes} nodes: JS heap`, value: r.heapMB, unit: 'MB' });
      await page.close();
      if (rss !== undefined) rows.push({ what: `${r.nodes} nodes: renderer process RSS`, value: rss, unit: 'MB', ...(size === 10_000 ? { target: '≤ 300 MB', ok: rss <= 300 } : {}) });
    }
  } finally {
    await browser.close();
    await workbench.close();
  }
  return { rows, raw };
}

/** The largest Chromium renderer process below `rootPid` (the page's), in MB, from /proc (Linux only). */
function rendererRssMB(rootPid: number): number | undefined {
  if (process.platform !== 'linux') return undefined;
  let best: number | undefined;
  const visit = (pid: number): void => {
    let children: string[];
    try {
      children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean);
    } catch {
      return;
    }
    for (const c of children) {
      try {
        const cmd = readFileSync(`/proc/${c}/cmdline`, 'utf8');
        if (cmd.includes('--type=renderer')) {
          const kb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${c}/status`, 'utf8'))?.[1] ?? 0);
          best = Math.max(best ?? 0, kb / 1024);
        }
      } catch {
        // the process went away
      }
      visit(Number(c));
    }
  };
  visit(rootPid);
  return best;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { rows, raw } = await runTreeRenderBench((s) => process.stderr.write(`bench: ${s}\n`));
  printTable('tree in Chromium: derivation readability at 1280×720; bundle tree canvas, culling, level of detail', rows);
  process.stderr.write(`bench: results: ${await writeResults('tree-render', { date: new Date().toISOString(), loadavg: loadavg(), rows, raw })}\n`);
}
