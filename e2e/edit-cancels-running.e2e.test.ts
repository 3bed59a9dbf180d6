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

describe.skipIf(!HAVE_CHROMIUM)('an edit above a running command', () => {
  it('stops it at once and re-checks from the edit', async () => {
    await page.goto(`${workbench.url}&new`);
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
    // Edit line 2 (above the running line 3): `APPLY split` becomes `APPLY split ` — same meaning, new text.
    await page.click('.monaco-editor .view-line >> nth=1');
    await page.keyboard.press('End');
    await page.keyboard.type(' ');
    // The sleeping command (which never ends by itself) is stopped, and the new text re-checked up to it again.
    await expect.poll(() => page.locator('.message').allTextContents().then((m) => m.join('\n')), { timeout: 30_000 }).toContain('Edited at line 2, above the running line 3');
    await expect.poll(() => page.locator('[data-testid="tree-node"]').count(), { timeout: 30_000 }).toBe(3);
    await page.screenshot({ path: join(ARTIFACTS, '13-edit-above-running.png') });
    // …and the run goes on to line 3 again, as far as it was going.
    await page.waitForSelector('[data-testid="progress"]', { timeout: 30_000 });
    await page.click('[data-testid="cancel"]');
  });
});
