import { readFile, writeFile } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { startWebWorkbench } from '../main/host/web-workbench.ts';
import { UnavailableEngine } from '../main/host/unavailable-engine.ts';
import { ARTIFACTS, launchChromium } from '../e2e/e2e-support.ts';
import type { TreeView } from '../shared/proof-tree/proof-tree.ts';
import { compactLayout } from '../shared/tree-layout/compact-layout.ts';
import { layoutTree } from '../shared/tree-layout/layout-tree.ts';
import { replayHtml } from '../shared/tree-layout/replay-html.ts';
import { treeToSvg } from '../shared/tree-layout/tree-svg.ts';
import type { BenchRow } from './bench-table.ts';
import { printTable, writeResults } from './bench-table.ts';

/**
 * Issue 23: does a whole proof fit one screen? Two real derivations recorded on Coq
 * (bench/derivations: the seed's square root of two, 22 goals; a 40-goal case split) at 1600×1000, laid
 * out as before (left-to-right columns, `?layout=columns`) and compactly (now). Measured in Chromium:
 * - the tree as a whole window (the exported replay page, which fits with a minimum scale): its scale
 *   after opening and the smallest text then (the 11 px chips and footers, × scale), and whether it is whole;
 * - the workbench's tree pane in a 1600×1000 window (editor and inspector beside it): after Fit, the
 *   smallest text the canvas drew and whether the whole tree is on screen.
 * Target: whole, with no label under 10 px.
 */
const DERIVATIONS = [{ name: 'sqrt2', what: 'square root of two (22 goals)' }, { name: 'bool-cases-40', what: '40-goal case split' }];
type TreeWindow = { __arborTree: { view(): { k: number; animating: boolean; minFontPx: number | null; whole: boolean; pane: { w: number; h: number } } } };

async function settledView(page: Page) {
  let last = -1;
  for (;;) {
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    const v = await page.evaluate(() => (window as unknown as TreeWindow).__arborTree.view());
    if (!v.animating && v.k === last) return v;
    last = v.k;
  }
}

export async function runTreeFitBench(log: (s: string) => void = () => undefined): Promise<{ rows: BenchRow[]; raw: unknown }> {
  const workbench = await startWebWorkbench({
    backend: 'coq', workspace: process.cwd(), userDir: `${process.env.TMPDIR ?? '/tmp'}/arbor-bench-user`,
    createEngine: () => new UnavailableEngine('coq', 'not needed: the trees are recorded'), log,
  });
  const browser = await launchChromium();
  const rows: BenchRow[] = [];
  const raw: unknown[] = [];
  try {
    for (const d of DERIVATIONS) {
      const tree = (JSON.parse(await readFile(join(import.meta.dirname, 'derivations', `${d.name}.json`), 'utf8')) as { tree: TreeView }).tree;
      for (const layout of ['columns', 'compact'] as const) {
        const when = layout === 'columns' ? 'before (columns)' : 'after (compact)';
        // The whole window: the replay page of the finished derivation.
        const laid = layout === 'compact' ? compactLayout(tree) : layoutTree(tree);
        const file = join(ARTIFACTS, `bench-fit-${d.name}-${layout}.html`);
        await writeFile(file, replayHtml(d.what, [{ step: 1, label: d.what, svg: treeToSvg(laid), derivation: treeToSvg(laid) }]));
        const page = await browser.newPage({ viewport: { width: 1600, height: 1000 } });
        await page.goto(`file://${file}`);
        const scale = Number(await page.locator('#stage').getAttribute('data-scale'));
        const { fits, wholeScale } = await page.evaluate(() => {
          const stage = document.getElementById('stage') as HTMLElement;
          const svg = stage.querySelector('svg') as SVGSVGElement;
          const w = Number(svg.getAttribute('width')), h = Number(svg.getAttribute('height'));
          return {
            fits: stage.scrollWidth <= stage.clientWidth + 1 && stage.scrollHeight <= stage.clientHeight + 1,
            // What a fit without a minimum scale (the page before) would shrink it to.
            wholeScale: Math.min(1.25, (stage.clientWidth - 24) / w, (stage.clientHeight - 24) / h),
          };
        });
        await page.screenshot({ path: join(ARTIFACTS, `bench-fit-${d.name}-${layout}-page.png`) });
        await page.close();
        const pagePx = 11 * scale;
        log(`${d.name} ${layout}: window ${laid.width.toFixed(0)}×${laid.height.toFixed(0)} world, scale ${scale.toFixed(2)}, smallest ${pagePx.toFixed(1)} px, whole ${fits}`);
        rows.push({ what: `${d.what}, 1600×1000 window, ${when}: smallest text if fitted whole (no minimum scale)`, value: 11 * wholeScale, unit: 'px', target: '≥ 10 px', ok: 11 * wholeScale >= 10 - 1e-6 });
        rows.push({ what: `${d.what}, 1600×1000 window, ${when}: smallest text after fit (${fits ? 'whole' : 'NOT whole: scrolls'}, layout ${laid.width.toFixed(0)}×${laid.height.toFixed(0)})`, value: pagePx, unit: 'px', target: 'whole, ≥ 10 px', ok: fits && pagePx >= 10 - 1e-6 });
        // The workbench's tree pane in a 1600×1000 window.
        const wb = await browser.newPage({ viewport: { width: 1600, height: 1000 } });
        await wb.addInitScript((t) => { (window as unknown as { __arborGivenTree: unknown }).__arborGivenTree = t; }, tree);
        await wb.goto(`${workbench.url}&synthetic=1&shape=given${layout === 'columns' ? '&layout=columns' : ''}`);
        await wb.waitForFunction(() => (window as unknown as { __arborPerf?: { firstPaintMs?: number } }).__arborPerf?.firstPaintMs !== undefined, undefined, { timeout: 60_000 });
        await wb.click('[data-testid="tree-fit"]');
        const v = await settledView(wb);
        await wb.screenshot({ path: join(ARTIFACTS, `bench-fit-${d.name}-${layout}-workbench.png`) });
        // Maximise: the tree pane over the whole window, then Fit.
        await wb.click('[data-testid="tree-maximize"]');
        await wb.click('[data-testid="tree-fit"]');
        const m = await settledView(wb);
        await wb.screenshot({ path: join(ARTIFACTS, `bench-fit-${d.name}-${layout}-maximized.png`) });
        await wb.close();
        log(`${d.name} ${layout}: maximised pane ${m.pane.w.toFixed(0)}×${m.pane.h.toFixed(0)}, k ${m.k.toFixed(2)}, smallest ${m.minFontPx} px, whole ${m.whole}`);
        rows.push({ what: `${d.what}, workbench tree maximised in 1600×1000, ${when}: smallest text after Fit (${m.whole ? 'whole' : 'NOT whole'})`, value: m.minFontPx ?? 0, unit: 'px', target: 'whole, ≥ 10 px', ok: m.whole && (m.minFontPx ?? 0) >= 10 - 1e-6 });
        log(`${d.name} ${layout}: pane ${v.pane.w.toFixed(0)}×${v.pane.h.toFixed(0)}, k ${v.k.toFixed(2)}, smallest ${v.minFontPx} px, whole ${v.whole}`);
        rows.push({ what: `${d.what}, workbench pane ${v.pane.w.toFixed(0)}×${v.pane.h.toFixed(0)} in 1600×1000, ${when}: smallest text after Fit (${v.whole ? 'whole' : 'NOT whole: Fit keeps text readable and shows the top/current goal'})`, value: v.minFontPx ?? 0, unit: 'px', target: 'whole, ≥ 10 px', ok: v.whole && (v.minFontPx ?? 0) >= 10 - 1e-6 });
        raw.push({ derivation: d.name, layout, world: { w: laid.width, h: laid.height }, page: { scale, px: pagePx, whole: fits, wholeScale }, pane: v });
      }
    }
  } finally {
    await browser.close();
    await workbench.close();
  }
  return { rows, raw };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { rows, raw } = await runTreeFitBench((s) => process.stderr.write(`bench: ${s}\n`));
  printTable('a whole derivation on one screen at 1600×1000 (Chromium): before (columns) and after (compact layout)', rows);
  process.stderr.write(`bench: results: ${await writeResults('tree-fit', { date: new Date().toISOString(), loadavg: loadavg(), rows, raw })}\n`);
}
