import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXAMPLES_DIR } from '../main/host/renderer-build.ts';
import type { WebWorkbench } from '../main/host/web-workbench.ts';
import { ARTIFACTS, HAVE_CHROMIUM, coqAvailable, startE2eSession } from './e2e-support.ts';
import type { E2eSession } from './e2e-support.ts';

/**
 * The compact derivation (issue 23: a whole proof readable on one screen), the exported Replay page
 * (steps the derivation as it was, opens readable, zooms) and an agent's transcript with failures replayed
 * as a debugger shows it — in Chromium, on real Coq, at 1600×1000.
 */
let session: E2eSession | undefined;
let page: Page;
let workbench: WebWorkbench;
let useCoq = false;

const nodes = () => page.locator('[data-testid="tree-node"]');
const attrs = (name: string) => nodes().evaluateAll((els, a) => els.map((e) => e.getAttribute(a) ?? ''), name);
type TreeWindow = { __arborTree: { view(): { k: number; animating: boolean; minFontPx: number | null } } };
const view = () => page.evaluate(() => (window as unknown as TreeWindow).__arborTree.view());
/** Until the view stops moving (Fit animates for 450 ms, a step's change for 380 ms). */
async function settled(): Promise<{ k: number; minFontPx: number | null }> {
  let last = -1;
  for (;;) {
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    const v = await view();
    if (!v.animating && v.k === last) return v;
    last = v.k;
  }
}

beforeAll(async () => {
  if (!HAVE_CHROMIUM) return;
  useCoq = await coqAvailable();
  if (!useCoq) return;
  session = await startE2eSession(useCoq, 'coq', { viewport: { width: 1600, height: 1000 } });
  ({ workbench, page } = session);
}, 180_000);

afterAll(async () => {
  await session?.close();
});

describe.skipIf(!HAVE_CHROMIUM)('the derivation on one screen, the replay page, an agent transcript with failures', () => {
  it('lays the square-root-of-two proof out compactly, titled by what is new, readable after Fit', async (ctx) => {
    if (!useCoq) ctx.skip();
    await page.goto(`${workbench.url}&open=${encodeURIComponent(join(EXAMPLES_DIR, '03-sqrt2.arbor'))}`);
    await page.waitForSelector('.monaco-editor .view-line');
    await page.click('[data-testid="run-all"]');
    await expect.poll(async () => nodes().first().getAttribute('data-status'), { timeout: 240_000 }).toBe('proved');
    await page.click('[data-testid="view-derivation"]');
    await expect.poll(() => nodes().count(), { timeout: 30_000 }).toBe(22);
    await page.click('[data-testid="tree-fit"]');
    const v = await settled();
    const pane = await page.locator('[data-testid="tree-canvas"]').boundingBox();
    process.stderr.write(`[treeview] sqrt2 in the workbench pane ${pane?.width}×${pane?.height}: fit scale ${v.k.toFixed(2)}, smallest text ${v.minFontPx} px\n`);
    // Fit never goes below readable text.
    expect(v.minFontPx ?? 0).toBeGreaterThanOrEqual(10);
    await page.screenshot({ path: join(ARTIFACTS, '80-sqrt2-derivation-fit.png') });
    await page.click('[data-testid="legend-more"]');
    await expect(page.locator('[data-testid="legend-details"]').textContent()).resolves.toMatch(/bundle.*closed/s);
    await page.screenshot({ path: join(ARTIFACTS, '81-sqrt2-legend.png') });
    await page.click('[data-testid="legend-more"]');
  }, 400_000);

  it('exports a replay page that steps the derivation as it was, opens readable, and zooms', async (ctx) => {
    if (!useCoq) ctx.skip();
    const download = page.waitForEvent('download');
    await page.click('[data-testid="export-menu"]');
    await page.click('[data-testid="export-replay"]');
    const file = join(ARTIFACTS, '82-sqrt2-replay.html');
    await (await download).saveAs(file);
    const replay = await page.context().newPage();
    try {
      await replay.setViewportSize({ width: 1600, height: 1000 });
      await replay.goto(`file://${file}`);
      const count = Number((await replay.locator('#pos').textContent())?.split('/ ')[1]);
      expect(count).toBeGreaterThan(20);
      const boxes = () => replay.locator('#stage svg g[data-id]').count();
      // Opens readable: never fitted below 10/11 (11 px text at 10 px).
      const scale = async () => Number(await replay.locator('#stage').getAttribute('data-scale'));
      expect(await scale()).toBeGreaterThanOrEqual(10 / 11 - 1e-9);
      // Step 1 is the theorem alone; a few steps in, the derivation so far; at the end, all 22 goals.
      expect(await boxes()).toBe(1);
      for (let i = 0; i < 4; i++) await replay.keyboard.press('ArrowRight');
      const early = await boxes();
      expect(early).toBeGreaterThan(1);
      expect(early).toBeLessThan(22);
      await replay.screenshot({ path: join(ARTIFACTS, '83-replay-page-step5.png') });
      await replay.locator('#slider').fill(String(count - 1));
      await expect.poll(boxes).toBe(22);
      await replay.screenshot({ path: join(ARTIFACTS, '84-replay-page-last.png') });
      const before = await scale();
      await replay.click('#zoom-in');
      expect(await scale()).toBeGreaterThan(before);
      await replay.mouse.move(600, 500);
      await replay.mouse.wheel(0, 600);
      await expect.poll(scale).toBeLessThan(before);
      await replay.screenshot({ path: join(ARTIFACTS, '85-replay-page-zoomed-out.png') });
    } finally {
      await replay.close();
    }
  }, 200_000);

  it('replays a real agent transcript: every request a stop, failures red with their error, a REVERTed branch kept, filters', async (ctx) => {
    if (!useCoq) ctx.skip();
    await page.click('[data-testid="tab-transcript"]');
    await page.setInputFiles('[data-testid="transcript-file"]', join(import.meta.dirname, '../fixtures/transcripts/agent-failures.jsonl'));
    await page.click('[data-testid="view-derivation"]');
    const position = () => page.locator('[data-testid="replay-position"]').textContent();
    // 27 requests, every one a stop (failures too).
    await expect.poll(position).toMatch(/· [0-9]+\/27$/);
    await page.check('[data-testid="replay-failures-only"]');
    await expect.poll(position).toMatch(/· 1\/3$/);
    await expect.poll(() => page.locator('[data-testid="replay-stop"]').getAttribute('data-failed')).toBe('true');
    expect(await page.locator('[data-testid="replay-stop-error"]').textContent()).toMatch(/no subterm/i);
    await expect.poll(async () => (await attrs('data-status')).filter((s) => s === 'failed').length).toBe(1);
    await settled();
    await page.screenshot({ path: join(ARTIFACTS, '86-transcript-first-failure.png') });
    await page.click('[data-testid="replay-forward"]');
    await page.click('[data-testid="replay-forward"]');
    await expect.poll(position).toMatch(/· 3\/3$/);
    await expect.poll(async () => (await attrs('data-status')).filter((s) => s === 'failed').length).toBe(3);
    await settled();
    await page.screenshot({ path: join(ARTIFACTS, '87-transcript-three-failures.png') });
    // Every request again; at the end the REVERTed destruct branch stands beside the induction that replaced it.
    await page.uncheck('[data-testid="replay-failures-only"]');
    await page.locator('[data-testid="history-slider"]').fill('26');
    await expect.poll(position).toMatch(/· 27\/27$/);
    await expect.poll(async () => (await attrs('data-status')).includes('abandoned')).toBe(true);
    expect(await attrs('data-action')).toContain('APPLY destruct l as [|x l]');
    expect(await attrs('data-action')).toContain('APPLY induction l as [|x l IH]');
    await settled();
    await page.screenshot({ path: join(ARTIFACTS, '88-transcript-reverted-branch.png') });
  }, 200_000);
});
