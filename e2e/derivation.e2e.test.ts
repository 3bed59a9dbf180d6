import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXAMPLES_DIR } from '../main/host/renderer-build.ts';
import type { WebWorkbench } from '../main/host/web-workbench.ts';
import { ARTIFACTS, HAVE_CHROMIUM, coqAvailable, startE2eSession } from './e2e-support.ts';
import type { E2eSession } from './e2e-support.ts';

let session: E2eSession | undefined;
let page: Page;
let workbench: WebWorkbench;
let useCoq = false;

const nodes = () => page.locator('[data-testid="tree-node"]');
const attrs = (name: string) => nodes().evaluateAll((els, a) => els.map((e) => e.getAttribute(a) ?? ''), name);

beforeAll(async () => {
  if (!HAVE_CHROMIUM) return;
  useCoq = await coqAvailable();
  session = await startE2eSession(useCoq, 'coq');
  ({ workbench, page } = session);
}, 180_000);

afterAll(async () => {
  await session?.close();
});

describe.skipIf(!HAVE_CHROMIUM)('the derivation view in Chromium', () => {
  it('a finished proof reads as its whole derivation, not one node', async () => {
    await page.goto(`${workbench.url}&open=${encodeURIComponent(join(EXAMPLES_DIR, '02-fold-left-right.arbor'))}`);
    await page.waitForSelector('.monaco-editor .view-line');
    await page.click('[data-testid="run-all"]');
    // The state view of a finished proof: the empty bundle, shown proved.
    await expect.poll(async () => nodes().first().getAttribute('data-status'), { timeout: 120_000 }).toBe('proved');
    expect(await nodes().count()).toBe(1);

    await page.click('[data-testid="view-derivation"]');
    // Every goal that existed: the theorem, the HAVE's lemma and its two induction cases, the main goal after it…
    await expect.poll(() => nodes().count()).toBeGreaterThanOrEqual(6);
    const actions = await attrs('data-action');
    expect(actions[0]).toMatch(/^HAVE G /);
    expect(actions).toContain('APPLY induction l as [|x l IH]');
    // The base case was closed by NEXT's hammer, and the box says with what (its HAMMER_REPORT).
    expect(actions.some((a) => /^NEXT \(.+\)$/.test(a)), actions.join(' | ')).toBe(true);
    // …and all of them closed.
    expect(new Set(await attrs('data-status'))).toEqual(new Set(['closed']));
    await page.click('text=Fit');
    await page.screenshot({ path: join(ARTIFACTS, '40-derivation-finished.png') });

    // Back in history (inside the HAVE block): the derivation so far, with open goals and the current one.
    await page.locator('[data-testid="history-slider"]').fill('3');
    await expect.poll(async () => (await attrs('data-status')).includes('open')).toBe(true);
    expect((await attrs('data-current')).filter((c) => c === 'goal')).toHaveLength(1);
    await page.screenshot({ path: join(ARTIFACTS, '41-derivation-history.png') });

    await page.click('[data-testid="view-state"]');
    await page.click('[data-testid="replay-live"]');
    await expect.poll(() => nodes().count()).toBe(1);

    // Replay: Play walks the history from the first step; the state view changes as it goes.
    await page.click('[data-testid="replay-play"]');
    await expect.poll(() => page.locator('[data-testid="replay-position"]').textContent(), { timeout: 20_000 }).toMatch(/^step [0-9]+ · /);
    await page.click('[data-testid="replay-play"]');

    // The standalone replay page: every step inline, replayed without Arbor (from file://).
    await page.click('[data-testid="view-derivation"]');
    const download = page.waitForEvent('download');
    await page.click('[data-testid="export-menu"]');
    await page.click('[data-testid="export-replay"]');
    const file = join(ARTIFACTS, '42-replay.html');
    await (await download).saveAs(file);
    const replay = await page.context().newPage();
    await replay.goto(`file://${file}`);
    await expect.poll(() => replay.locator('#pos').textContent()).toMatch(/^1 \/ ([5-9]|[1-9][0-9]+)$/);
    expect(await replay.locator('#label').textContent()).toMatch(/^step 1: GOAL /);
    await replay.keyboard.press('ArrowRight');
    await replay.keyboard.press('ArrowRight');
    await expect.poll(() => replay.locator('#label').textContent()).toMatch(/^step 3: /);
    await replay.screenshot({ path: join(ARTIFACTS, '43-replay-page.png') });
    await replay.close();
    await page.click('[data-testid="view-state"]');
    await expect.poll(() => nodes().count()).toBe(1);
  });
});
