import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WebWorkbench } from '../main/host/web-workbench.ts';
import { ARTIFACTS, HAVE_CHROMIUM, startE2eSession } from './e2e-support.ts';
import type { E2eSession } from './e2e-support.ts';

let session: E2eSession | undefined;
let page: Page;
let workbench: WebWorkbench;

// Over the TEST DOUBLE prover, whose `APPLY sleep` runs until cancelled: a long command on demand.
beforeAll(async () => {
  if (!HAVE_CHROMIUM) return;
  session = await startE2eSession(false);
  ({ workbench, page } = session);
}, 180_000);

afterAll(async () => {
  await session?.close();
});

describe.skipIf(!HAVE_CHROMIUM)('long commands', () => {
  it('show progress and can be cancelled; the checked lines are replayed on a fresh channel', async () => {
    await page.goto(`${workbench.url}&new`); // an empty buffer instead of the start-up example
    await page.waitForSelector('.monaco-editor .view-line');
    await page.click('.monaco-editor .view-lines');
    await page.keyboard.type('GOAL "A /\\ B');
    await page.keyboard.press('End');
    await page.keyboard.press('Enter');
    await page.keyboard.type('APPLY split');
    await page.keyboard.press('Enter');
    await page.keyboard.type('APPLY sleep');
    await page.click('[data-testid="run-all"]');
    // Wait until the sleeping line 3 runs (lines 1 and 2 may show progress first on a busy machine).
    await expect.poll(() => page.locator('[data-testid="progress"]').textContent(), { timeout: 30_000 }).toMatch(/line 3 /);
    await page.waitForTimeout(700); // past the step animation
    await page.screenshot({ path: join(ARTIFACTS, '12-long-command-progress.png') });
    await page.click('[data-testid="cancel"]');
    await expect.poll(() => page.locator('.message').allTextContents().then((m) => m.join('\n')), { timeout: 20_000 }).toContain('Cancelled');
    await expect.poll(() => page.locator('[data-testid="progress"]').count(), { timeout: 20_000 }).toBe(0);
    // Lines 1–2 are checked again (on the new channel), line 3 is not.
    await expect.poll(() => page.locator('[data-testid="tree-node"]').count(), { timeout: 20_000 }).toBe(3);
    await page.click('[data-testid="tab-channels"]');
    const rows = await page.locator('[data-testid="channel-row"]').allTextContents();
    expect(rows.some((r) => /^2coq/.test(r) && r.includes('Untitled 1'))).toBe(true);
    expect(rows.some((r) => /^1coq/.test(r))).toBe(false);
  });
});
