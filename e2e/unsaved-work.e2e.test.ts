import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RecoveryEntry } from '../shared/api/api-contract.ts';
import type { WebWorkbench } from '../main/host/web-workbench.ts';
import { ARTIFACTS, HAVE_CHROMIUM, coqAvailable, startE2eSession } from './e2e-support.ts';
import type { E2eSession } from './e2e-support.ts';

/**
 * Issue 21: nothing typed is lost. Closing a tab with unsaved changes asks first; a reload brings the
 * window's tabs back (and checks them again); two windows never restore (or overwrite) each other's buffers.
 */
let session: E2eSession | undefined;
let page: Page;
let workbench: WebWorkbench;
let workspace: string;
let userDir: string;

beforeAll(async () => {
  if (!HAVE_CHROMIUM) return;
  session = await startE2eSession(await coqAvailable());
  ({ workbench, workspace, userDir, page } = session);
  await writeFile(join(workspace, 'saved.arbor'), 'GOAL "True"\nEND\n');
}, 180_000);

afterAll(async () => {
  await session?.close();
});

/** What the recovery store keeps now, read from its files. */
async function recovery(): Promise<RecoveryEntry[]> {
  const dir = join(userDir, 'recovery');
  const names = await readdir(dir).catch(() => [] as string[]);
  const out: RecoveryEntry[] = [];
  for (const n of names.filter((x) => x.endsWith('.json'))) out.push(JSON.parse(await readFile(join(dir, n), 'utf8')) as RecoveryEntry);
  return out;
}
const recoveredTexts = async (): Promise<string[]> => (await recovery()).map((e) => e.text).sort();
/** The editor's text as shown (Monaco renders spaces as no-break spaces). */
const shownText = async (p: Page): Promise<string> => (await p.locator('.monaco-editor .view-line').allTextContents()).join('\n').replace(/\u00a0/g, ' ');
const tabTitles = (p: Page): Promise<string[]> => p.locator('[data-testid="doc-tab"] button:not(.close)').allTextContents();

async function typeInEditor(p: Page, text: string): Promise<void> {
  await p.click('.monaco-editor .view-lines');
  await p.keyboard.press('Control+End');
  await p.keyboard.type(text);
}

describe.skipIf(!HAVE_CHROMIUM)('unsaved work in Chromium', () => {
  it('closing a tab with unsaved changes asks; Cancel keeps the tab and its recovery; Don\'t save drops both', async () => {
    await page.goto(`${workbench.url}&new`);
    await page.waitForSelector('.monaco-editor .view-line');
    await typeInEditor(page, 'GOAL "1 = 1"');
    await expect.poll(recoveredTexts).toEqual(['GOAL "1 = 1"']);
    expect(await tabTitles(page)).toEqual([expect.stringMatching(/^● Untitled/)]);

    await page.locator('[data-testid="doc-tab"] button.close').click();
    const dialog = page.locator('[data-testid="close-dialog"]');
    await dialog.waitFor();
    expect(await dialog.textContent()).toMatch(/Save changes to Untitled \d+\?/);
    await page.screenshot({ path: join(ARTIFACTS, '60-close-unsaved-dialog.png') });
    // Asking does not close anything: the tab and its recovery are still there.
    expect(await recoveredTexts()).toEqual(['GOAL "1 = 1"']);

    await page.click('[data-testid="close-cancel"]');
    await expect.poll(() => dialog.count()).toBe(0);
    expect(await tabTitles(page)).toEqual([expect.stringMatching(/^● Untitled/)]);
    expect(await recoveredTexts()).toEqual(['GOAL "1 = 1"']);

    // Escape is Cancel too.
    await page.locator('[data-testid="doc-tab"] button.close').click();
    await dialog.waitFor();
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog.count()).toBe(0);
    expect(await tabTitles(page)).toHaveLength(1);

    await page.locator('[data-testid="doc-tab"] button.close').click();
    await page.click('[data-testid="close-discard"]');
    await expect.poll(() => tabTitles(page)).toEqual([]);
    await expect.poll(recoveredTexts).toEqual([]);
  }, 120_000);

  it('a reload brings back the window\'s tabs, unsaved text included, and checks them again', async () => {
    await page.goto(`${workbench.url}&open=${encodeURIComponent(join(workspace, 'saved.arbor'))}`);
    await page.waitForSelector('.monaco-editor .view-line');
    await page.click('[data-testid="run-all"]');
    await expect.poll(() => page.locator('.arbor-checked').count(), { timeout: 120_000 }).toBeGreaterThan(0);
    await page.click('[data-testid="new"]');
    await typeInEditor(page, 'GOAL "2 = 2"');
    await expect.poll(recoveredTexts).toEqual(['GOAL "2 = 2"']);
    const windowBefore = await page.evaluate(() => sessionStorage.getItem('arbor.window'));

    await page.reload();
    await page.waitForSelector('.monaco-editor .view-line');
    await expect.poll(() => tabTitles(page)).toEqual(['saved.arbor', expect.stringMatching(/^● Untitled/)]);
    expect(await page.evaluate(() => sessionStorage.getItem('arbor.window'))).toBe(windowBefore);
    // The saved file was checked before the reload: it is checked again.
    await page.locator('[data-testid="doc-tab"] button:not(.close)', { hasText: 'saved.arbor' }).click();
    await expect.poll(() => page.locator('.arbor-checked').count(), { timeout: 120_000 }).toBeGreaterThan(0);
    await page.locator('[data-testid="doc-tab"] button:not(.close)', { hasText: 'Untitled' }).click();
    await expect.poll(() => shownText(page)).toContain('GOAL "2 = 2"');
    await page.screenshot({ path: join(ARTIFACTS, '61-reload-restores-tabs.png') });
  }, 240_000);

  it('two windows keep their own recoveries and never restore each other\'s', async () => {
    const other = await session?.newTab() as Page;
    await other.goto(`${workbench.url}&new`);
    await other.waitForSelector('.monaco-editor .view-line');
    // The first window's unsaved buffer stays with it.
    expect(await tabTitles(other)).toEqual([expect.stringMatching(/^Untitled/)]);
    expect(await other.evaluate(() => sessionStorage.getItem('arbor.window'))).not.toBe(await page.evaluate(() => sessionStorage.getItem('arbor.window')));
    await typeInEditor(other, 'GOAL "3 = 3"');
    await expect.poll(recoveredTexts).toEqual(['GOAL "2 = 2"', 'GOAL "3 = 3"']);
    expect(new Set((await recovery()).map((e) => e.window)).size).toBe(2);

    // Each reload restores its own window's buffer only.
    await page.reload();
    await page.waitForSelector('.monaco-editor .view-line');
    await expect.poll(() => tabTitles(page)).toEqual(['saved.arbor', expect.stringMatching(/^● Untitled/)]);
    await other.reload();
    await other.waitForSelector('.monaco-editor .view-line');
    await expect.poll(() => tabTitles(other)).toEqual([expect.stringMatching(/^● Untitled/)]);
    await other.locator('[data-testid="doc-tab"] button:not(.close)').click();
    const otherText = await shownText(other);
    expect(otherText).toContain('GOAL "3 = 3"');
    expect(otherText).not.toContain('2 = 2');
    expect(await recoveredTexts()).toEqual(['GOAL "2 = 2"', 'GOAL "3 = 3"']);
    await other.close();
  }, 240_000);
});
