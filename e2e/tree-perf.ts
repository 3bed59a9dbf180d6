import type { Page } from 'playwright-core';

export interface RenderFigures {
  nodes: number;
  layoutMs: number;
  firstPaintMs: number;
  /** Draw time per frame while panning/zooming, per zoom level. */
  phases: { name: string; frames: number; p50: number; p95: number; max: number; intervalP95: number }[];
  heapMB: number;
}

const pct = (xs: number[], p: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor(p * s.length))]! : 0;
};

type PerfWindow = { __arborPerf?: { layoutMs?: number; firstPaintMs?: number; nodes?: number; drawTimes?: number[] } };

/** Two animation frames: whatever the last input caused has been drawn. */
const nextFrame = (page: Page) => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
const clearDrawTimes = (page: Page) => page.evaluate(() => { const d = (window as unknown as PerfWindow).__arborPerf?.drawTimes; if (d) d.length = 0; });
const drawTimes = (page: Page) => page.evaluate(() => [...((window as unknown as PerfWindow).__arborPerf?.drawTimes ?? [])]);
// Frame-to-frame intervals while interacting: long frames (rasterisation, GC, layout) show up here
// even when they are not in our draw call.
// A string, not a function: tsx/esbuild would wrap named inner functions in a helper the page lacks.
const startFrameIntervals = (page: Page) => page.evaluate(`(() => {
  window.__frames = [];
  window.__framesOn = true;
  let last = performance.now();
  const tick = (t) => { window.__frames.push(t - last); last = t; if (window.__framesOn) requestAnimationFrame(tick); };
  requestAnimationFrame(tick);
})()`);
const stopFrameIntervals = (page: Page) => page.evaluate(() => {
  const w = window as unknown as { __frames?: number[]; __framesOn?: boolean };
  w.__framesOn = false;
  return (w.__frames ?? []).slice(1);
});

/**
 * Loads the renderer's performance mode with a synthetic tree of `size` nodes and measures first paint
 * (layout included) and per-frame draw times while panning and zooming at three zoom levels.
 */
export async function measureTreeRendering(page: Page, baseUrl: string, size: number, screenshotPrefix: string): Promise<RenderFigures> {
  await page.goto(`${baseUrl}${baseUrl.includes('?') ? '&' : '?'}synthetic=${size}`);
  await page.waitForFunction(() => (window as unknown as PerfWindow).__arborPerf?.firstPaintMs !== undefined, undefined, { timeout: 60_000 });
  const first = await page.evaluate(() => ({ ...(window as unknown as PerfWindow).__arborPerf }));
  const canvas = page.locator('[data-testid="tree-canvas"]');
  const box = (await canvas.boundingBox())!;
  const cx = box.x + box.width / 2, cy = box.y + box.height / 2;
  const clear = () => clearDrawTimes(page);
  const collect = () => drawTimes(page);
  const frame = () => nextFrame(page);
  const pan = async (): Promise<void> => {
    await page.mouse.move(cx, cy);
    await page.mouse.down();
    for (let i = 1; i <= 30; i++) {
      await page.mouse.move(cx + Math.sin(i / 5) * 120, cy + i * 6);
      await frame();
    }
    await page.mouse.up();
  };
  const zoom = async (dy: number, steps: number): Promise<void> => {
    await page.mouse.move(cx, cy);
    for (let i = 0; i < steps; i++) {
      await page.mouse.wheel(0, dy);
      await frame();
    }
  };
  const phases: RenderFigures['phases'] = [];
  const startIntervals = () => startFrameIntervals(page);
  const stopIntervals = () => stopFrameIntervals(page);
  const phase = async (name: string, run: () => Promise<void>): Promise<void> => {
    await frame();
    await clear();
    await startIntervals();
    await run();
    await frame();
    const intervals = await stopIntervals();
    const times = await collect();
    phases.push({ name, frames: times.length, p50: pct(times, 0.5), p95: pct(times, 0.95), max: Math.max(0, ...times), intervalP95: pct(intervals, 0.95) });
  };
  await phase('zoomed out (fit): pan + zoom', async () => { await pan(); await zoom(-40, 6); await zoom(40, 6); });
  // Into the thick of the tree (a node in the middle of the layout order), not into empty space.
  const focus = (k: number) => page.evaluate(`window.__arborTree.focus(0.5, ${k})`);
  await focus(0.15);
  await phase('mid zoom (boxes): pan + zoom', async () => { await pan(); await zoom(-60, 4); await zoom(60, 4); });
  await focus(1);
  await phase('zoomed in (full text): pan + zoom', async () => { await pan(); await zoom(60, 4); await zoom(-60, 4); });
  await page.screenshot({ path: `${screenshotPrefix}-zoomed-in.png` });
  await focus(0.15);
  await frame();
  await page.screenshot({ path: `${screenshotPrefix}-mid-zoom.png` });
  const heap = await page.evaluate(() => (performance as unknown as { memory?: { usedJSHeapSize: number } }).memory?.usedJSHeapSize ?? 0);
  return { nodes: first.nodes ?? 0, layoutMs: first.layoutMs ?? 0, firstPaintMs: first.firstPaintMs ?? 0, phases, heapMB: heap / 2 ** 20 };
}

export interface ReadabilityFigures {
  /** Goals in the derivation, and nodes drawn after it opened (summaries stand for the rest). */
  goals: number;
  shown: number;
  /** The view's scale after Fit, and the smallest text on screen then, in CSS px (null: no text drawn). */
  fitScale: number;
  minFontPx: number | null;
  /** Draw time per frame and frame-to-frame interval while panning at the fitted view. */
  panP50: number;
  panP95: number;
  panMax: number;
  intervalP95: number;
  frames: number;
}

/**
 * Loads a synthetic derivation of `size` goals (`?synthetic=N&shape=derivation`), presses Fit, reads the
 * smallest font on screen, then pans for 60 frames and reports the draw times.
 */
export async function measureDerivationReadability(page: Page, baseUrl: string, size: number, screenshot?: string): Promise<ReadabilityFigures> {
  await page.goto(`${baseUrl}${baseUrl.includes('?') ? '&' : '?'}synthetic=${size}&shape=derivation`);
  await page.waitForFunction(() => (window as unknown as PerfWindow).__arborPerf?.firstPaintMs !== undefined, undefined, { timeout: 60_000 });
  const frame = () => nextFrame(page);
  await page.click('[data-testid="tree-fit"]');
  await page.waitForFunction(() => !(window as unknown as { __arborTree: { view(): { animating: boolean } } }).__arborTree.view().animating);
  // The toolbar's Fit animates the view for 450 ms: wait until the scale stops changing.
  let last = -1;
  for (;;) {
    await frame();
    const k = await page.evaluate(() => (window as unknown as { __arborTree: { view(): { k: number } } }).__arborTree.view().k);
    if (k === last) break;
    last = k;
  }
  const v = await page.evaluate(() => (window as unknown as { __arborTree: { view(): { k: number; minFontPx: number | null } } }).__arborTree.view());
  const shown = Number(/(\d[\d,]*)/.exec((await page.locator('.node-count').textContent()) ?? '')?.[1]?.replace(/,/g, '') ?? 0);
  if (screenshot) await page.screenshot({ path: screenshot });
  const canvas = page.locator('[data-testid="tree-canvas"]');
  const box = (await canvas.boundingBox())!;
  const cx = box.x + box.width / 2, cy = box.y + box.height / 2;
  await clearDrawTimes(page);
  await startFrameIntervals(page);
  await page.mouse.move(cx, cy);
  await page.mouse.down();
  for (let i = 1; i <= 60; i++) {
    await page.mouse.move(cx + Math.sin(i / 6) * 200, cy + Math.cos(i / 6) * 120);
    await frame();
  }
  await page.mouse.up();
  await frame();
  const intervals = await stopFrameIntervals(page);
  const times = await drawTimes(page);
  return {
    goals: size, shown, fitScale: v.k, minFontPx: v.minFontPx,
    panP50: pct(times, 0.5), panP95: pct(times, 0.95), panMax: Math.max(0, ...times), intervalP95: pct(intervals, 0.95), frames: times.length,
  };
}
