import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WebWorkbench } from '../main/host/web-workbench.ts';
import { ARTIFACTS, HAVE_CHROMIUM, startE2eSession } from './e2e-support.ts';
import type { E2eSession } from './e2e-support.ts';
import { measureTreeRendering } from './tree-perf.ts';

let session: E2eSession | undefined;
let page: Page;
let workbench: WebWorkbench;

beforeAll(async () => {
  if (!HAVE_CHROMIUM) return;
  session = await startE2eSession(false);
  ({ workbench, page } = session);
}, 180_000);

afterAll(async () => {
  await session?.close();
});

// Targets (BRIEF §4): first paint ≤ 500 ms for 10k nodes, frames ≤ 16.7 ms for 10k and 50k. Times depend on
// the machine's load, so they are measured by `npm run bench:tree`, never asserted here: this test checks
// that large trees load, paint and keep drawing frames while panned and zoomed at every level.
describe.skipIf(!HAVE_CHROMIUM)('large trees in Chromium', () => {
  it('10,000 nodes: paints, then draws frames while panned and zoomed at every zoom level', async () => {
    const r = await measureTreeRendering(page, workbench.url, 10_000, join(ARTIFACTS, '10-synthetic-10k'));
    process.stderr.write(`[perf] 10k: ${JSON.stringify(r)}\n`);
    expect(r.nodes).toBeGreaterThanOrEqual(9_999);
    expect(r.firstPaintMs).toBeGreaterThan(0);
    for (const p of r.phases) expect(p.frames, p.name).toBeGreaterThan(0);
  });

  it('50,000 nodes: paints and keeps drawing while panned and zoomed (culling and level of detail)', async () => {
    const r = await measureTreeRendering(page, workbench.url, 50_000, join(ARTIFACTS, '11-synthetic-50k'));
    await page.click('text=Fit');
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    await page.screenshot({ path: join(ARTIFACTS, '11-synthetic-50k-fit.png') });
    process.stderr.write(`[perf] 50k: ${JSON.stringify(r)}\n`);
    expect(r.nodes).toBeGreaterThanOrEqual(49_999);
    for (const p of r.phases) expect(p.frames, p.name).toBeGreaterThan(0);
  });
});
