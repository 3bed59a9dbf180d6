import { copyFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WebWorkbench } from '../main/host/web-workbench.ts';
import { ARTIFACTS, HAVE_CHROMIUM, coqAvailable, startE2eSession } from './e2e-support.ts';
import type { E2eSession } from './e2e-support.ts';

/**
 * `.v` files in the workbench (real Coq, Chromium): a goal given up with `admit` is drawn given up, never
 * proved; a large standard-library file (Lists/List.v, 3,399 lines) shows its progress while it is read, and
 * Cancel stops it keeping the theorems read so far.
 */
let session: E2eSession | undefined;
let page: Page;
let workbench: WebWorkbench;
let workspace: string;
let useCoq = false;

const nodes = () => page.locator('[data-testid="tree-node"]');
const attrs = (name: string) => nodes().evaluateAll((els, a) => els.map((e) => e.getAttribute(a) ?? ''), name);

beforeAll(async () => {
  if (!HAVE_CHROMIUM) return;
  useCoq = await coqAvailable();
  if (!useCoq) return;
  session = await startE2eSession(true, 'coq');
  ({ workbench, page, workspace } = session);
}, 180_000);

afterAll(async () => {
  await session?.close();
});

describe.skipIf(!HAVE_CHROMIUM)('.v files: given-up goals and progress (real Coq, Chromium)', () => {
  it('draws the goal admit gave up as given up, and the goal above it too; the goal exact I closed stays closed', async (ctx) => {
    if (!useCoq) ctx.skip();
    const file = join(workspace, 'gave_up.v');
    await writeFile(file, 'Lemma l : True /\\ (1 = 1 /\\ False).\nProof.\n  split.\n  - exact I.\n  - split.\n    + reflexivity.\n    + admit.\nAdmitted.\n');
    await page.goto(`${workbench.url}&open=${encodeURIComponent(file)}`);
    await expect.poll(() => page.locator('[data-testid="vfile-theorem"]').count(), { timeout: 180_000 }).toBe(1);
    await expect.poll(() => nodes().count()).toBeGreaterThan(4);
    const byAction = new Map((await attrs('data-action')).map((a, i) => [a, i]));
    const status = await attrs('data-status');
    expect(status[byAction.get('admit')!]).toBe('given-up');
    expect(status[byAction.get('exact I')!]).toBe('closed');
    expect(status[byAction.get('reflexivity')!]).toBe('closed');
    // The root (split) rests on the given-up goal: not drawn proved or closed.
    expect(status[byAction.get('split')!]).toBe('given-up');
    expect(status).not.toContain('proved');
    await page.click('text=Fit');
    await expect.poll(() => page.locator('[data-testid="tree-legend"]').textContent()).toMatch(/given up/);
    await page.screenshot({ path: join(ARTIFACTS, '85-vfile-given-up.png') });
  }, 300_000);

  it('lists a sentence Arbor skipped (never run) and marks each later theorem as read without it', async (ctx) => {
    if (!useCoq) ctx.skip();
    const file = join(workspace, 'skips.v');
    await writeFile(file, 'Lemma before : True.\nProof. exact I. Qed.\nSet Printing Width 60.\nPrint "+".\nLemma after : 1 + 1 = 2.\nProof. reflexivity. Qed.\n');
    await page.goto(`${workbench.url}&open=${encodeURIComponent(file)}`);
    await expect.poll(() => page.locator('[data-testid="vfile-theorem"]').count(), { timeout: 180_000 }).toBe(2);
    expect(await page.locator('[data-testid="vfile-stopped"]').count()).toBe(0);
    await page.locator('[data-testid="vfile-skipped"] summary').click();
    expect(await page.locator('[data-testid="vfile-skipped"]').textContent()).toMatch(/1 sentence not run.*line 3: Set Printing Width 60\. — option not allowed: Printing Width 60/s);
    expect(await page.locator('[data-testid="vfile-theorem"]').allTextContents()).toEqual([expect.not.stringMatching(/read without/), expect.stringMatching(/^after .*read without l\. 3/)]);
    await page.screenshot({ path: join(ARTIFACTS, '88-vfile-skipped.png') });
  }, 300_000);

  it('shows the progress of Lists/List.v while it is read; Cancel stops it and keeps the theorems read', async (ctx) => {
    if (!useCoq) ctx.skip();
    const file = join(workspace, 'List.v');
    await copyFile('/usr/lib/ocaml/coq/theories/Lists/List.v', file);
    await page.goto(`${workbench.url}&open=${encodeURIComponent(file)}`);
    const text = page.locator('[data-testid="vfile-progress-text"]');
    await expect.poll(async () => Number(/· (\d+) theorems? read/.exec((await text.textContent()) ?? '')?.[1] ?? 0), { timeout: 240_000 }).toBeGreaterThanOrEqual(5);
    expect(await text.textContent()).toMatch(/^sentence \d+ · line \d+ of 3399 · \d+ theorems read \(.+\)$/);
    expect(Number(await page.locator('[data-testid="vfile-progress"] progress').getAttribute('max'))).toBe(3399);
    await page.screenshot({ path: join(ARTIFACTS, '86-vfile-progress.png') });
    await page.click('[data-testid="vfile-cancel"]');
    await expect.poll(() => page.locator('[data-testid="vfile-stopped"]').textContent(), { timeout: 120_000 }).toMatch(/^Cancelled at line \d+: the theorems read before it are shown$/);
    expect(await page.locator('[data-testid="vfile-progress"]').count()).toBe(0);
    expect(await page.locator('[data-testid="vfile-theorem"]').count()).toBeGreaterThanOrEqual(5);
    const stoppedAt = Number(/line (\d+)/.exec((await page.locator('[data-testid="vfile-stopped"]').textContent()) ?? '')?.[1]);
    expect(stoppedAt).toBeLessThan(3399);
    await page.screenshot({ path: join(ARTIFACTS, '87-vfile-cancelled.png') });
  }, 400_000);
});
