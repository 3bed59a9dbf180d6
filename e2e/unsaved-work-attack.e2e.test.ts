import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page, WebSocketRoute } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RecoveryEntry } from '../shared/api/api-contract.ts';
import type { WebWorkbench } from '../main/host/web-workbench.ts';
import { HAVE_CHROMIUM, coqAvailable, startE2eSession } from './e2e-support.ts';
import type { E2eSession } from './e2e-support.ts';

/**
 * Issue 21 attack, in Chromium: typing while a save is on its way, and closing tabs in the middle of
 * things. Nothing typed may be lost: what is not on disk stays dirty and in the recovery store.
 */
let session: E2eSession | undefined;
let page: Page;
let workbench: WebWorkbench;
let workspace: string;
let userDir: string;
/** Held `files.write` calls (the page's frames to the host), released by the test. */
const held: (() => void)[] = [];
let holdWrites = false;

beforeAll(async () => {
  if (!HAVE_CHROMIUM) return;
  session = await startE2eSession(await coqAvailable());
  ({ workbench, workspace, userDir, page } = session);
  // A proxy on the page's API socket that can hold the page's file writes (a slow disk, a busy host).
  await page.routeWebSocket(/\/api/, (ws: WebSocketRoute) => {
    const server = ws.connectToServer();
    ws.onMessage((message) => {
      const text = typeof message === 'string' ? message : message.toString();
      if (holdWrites && text.includes('"files.write"')) held.push(() => server.send(message));
      else server.send(message);
    });
    server.onMessage((message) => ws.send(message));
  });
}, 180_000);

afterAll(async () => {
  await session?.close();
});

async function recovery(): Promise<RecoveryEntry[]> {
  const dir = join(userDir, 'recovery');
  const names = await readdir(dir).catch(() => [] as string[]);
  const out: RecoveryEntry[] = [];
  for (const n of names.filter((x) => x.endsWith('.json'))) out.push(JSON.parse(await readFile(join(dir, n), 'utf8')) as RecoveryEntry);
  return out;
}
const tabTitles = (p: Page): Promise<string[]> => p.locator('[data-testid="doc-tab"] button:not(.close)').allTextContents();

async function typeInEditor(p: Page, text: string): Promise<void> {
  await p.click('.monaco-editor .view-lines');
  await p.keyboard.press('Control+End');
  await p.keyboard.type(text);
}

describe.skipIf(!HAVE_CHROMIUM)('unsaved work under attack (Chromium)', () => {
  it('text typed while its save is on the way stays unsaved (dirty, in recovery); closing then asks', async () => {
    const file = join(workspace, 'typing.arbor');
    await writeFile(file, 'GOAL "True"\n');
    await page.goto(`${workbench.url}&open=${encodeURIComponent(file)}`);
    await page.waitForSelector('.monaco-editor .view-line');
    await typeInEditor(page, 'END');
    await expect.poll(() => tabTitles(page)).toEqual(['● typing.arbor']);

    holdWrites = true;
    await page.keyboard.press('Control+s');
    await expect.poll(() => held.length).toBe(1);
    // The user goes on typing while the write is on its way.
    await page.keyboard.type(' (* typed during the save *)');
    await expect.poll(async () => (await recovery()).map((e) => e.text).join()).toContain('typed during the save');
    holdWrites = false;
    held.shift()?.();
    await expect.poll(() => readFile(file, 'utf8')).toBe('GOAL "True"\nEND');
    // What is on disk is saved; what came after is not, and is kept.
    await expect.poll(() => tabTitles(page)).toEqual(['● typing.arbor']);
    expect((await recovery()).map((e) => e.text).join()).toContain('typed during the save');
    await page.locator('[data-testid="doc-tab"] button.close').click();
    await page.locator('[data-testid="close-dialog"]').waitFor();
    await page.click('[data-testid="close-cancel"]');
  }, 180_000);

  it('Don\'t save on a file saved before keeps the file as saved and drops only the recovery', async () => {
    const file = join(workspace, 'kept.arbor');
    await writeFile(file, 'GOAL "True"\nEND\n');
    await page.goto(`${workbench.url}&open=${encodeURIComponent(file)}`);
    await page.waitForSelector('.monaco-editor .view-line');
    await expect.poll(() => tabTitles(page)).toContain('kept.arbor');
    await page.locator('[data-testid="doc-tab"] button:not(.close)', { hasText: 'kept.arbor' }).click();
    await typeInEditor(page, '(* draft *)');
    await expect.poll(async () => (await recovery()).some((e) => e.text.includes('(* draft *)'))).toBe(true);
    const tab = page.locator('[data-testid="doc-tab"]', { hasText: 'kept.arbor' });
    await tab.locator('button.close').click();
    await page.click('[data-testid="close-discard"]');
    await expect.poll(() => tabTitles(page)).not.toContain('● kept.arbor');
    await expect.poll(async () => (await recovery()).some((e) => e.text.includes('(* draft *)'))).toBe(false);
    expect(await readFile(file, 'utf8')).toBe('GOAL "True"\nEND\n');
  }, 120_000);

  it('closing a tab while its document is being checked stops its channel and loses nothing else', async () => {
    const file = join(workspace, 'busy.arbor');
    await writeFile(file, 'GOAL "forall n : nat, n + 0 = n"\nAPPLY (intros n; lia)\nEND\nGOAL "True"\nEND\n');
    await page.goto(`${workbench.url}&open=${encodeURIComponent(file)}`);
    await page.waitForSelector('.monaco-editor .view-line');
    await page.locator('[data-testid="doc-tab"] button:not(.close)', { hasText: 'busy.arbor' }).click();
    await page.click('[data-testid="run-all"]');
    await page.locator('[data-testid="doc-tab"]', { hasText: 'busy.arbor' }).locator('button.close').click();
    await expect.poll(() => tabTitles(page)).not.toContain('busy.arbor');
    // The page still works: a new document checks.
    await page.click('[data-testid="new"]');
    await typeInEditor(page, 'GOAL "1 = 1"\nAPPLY reflexivity\nEND\n');
    await page.click('[data-testid="run-all"]');
    await expect.poll(() => page.locator('.arbor-checked').count(), { timeout: 120_000 }).toBeGreaterThan(0);
    expect(await readFile(file, 'utf8')).toContain('GOAL "True"');
  }, 180_000);

  it('Save as over an existing file asks before replacing it', async () => {
    const file = join(workspace, 'existing.arbor');
    await writeFile(file, 'GOAL "precious"\n');
    // A window of its own: the main page's earlier untitled buffers are not in the way.
    const page = await session?.newTab() as Page;
    await page.goto(`${workbench.url}&new`);
    await page.waitForSelector('.monaco-editor .view-line');
    await typeInEditor(page, 'GOAL "other"');
    await page.keyboard.press('Control+Shift+S');
    const name = page.locator('input[aria-label="file name"]');
    await name.waitFor();
    await name.fill('existing.arbor');
    await page.click('[data-testid="save-as-submit"]');
    // Asked, not written.
    await page.locator('[data-testid="save-as-replace"]').waitFor();
    expect(await readFile(file, 'utf8')).toBe('GOAL "precious"\n');
    // A yes replaces it.
    await page.click('[data-testid="save-as-submit"]');
    await expect.poll(() => readFile(file, 'utf8')).toBe('GOAL "other"');
    await expect.poll(() => tabTitles(page)).toContain('existing.arbor');
    await page.close();
  }, 120_000);

  it('a reload in the middle of a run brings the tab back, and it checks again', async () => {
    const file = join(workspace, 'reloaded.arbor');
    await writeFile(file, 'GOAL "forall n : nat, n * 1 = n"\nAPPLY (intros n; lia)\nEND\nGOAL "True"\nEND\n');
    await page.goto(`${workbench.url}&open=${encodeURIComponent(file)}`);
    await page.waitForSelector('.monaco-editor .view-line');
    await page.locator('[data-testid="doc-tab"] button:not(.close)', { hasText: 'reloaded.arbor' }).click();
    await page.click('[data-testid="run-all"]');
    await page.reload();
    await page.waitForSelector('.monaco-editor .view-line');
    await expect.poll(() => tabTitles(page)).toContain('reloaded.arbor');
    await page.locator('[data-testid="doc-tab"] button:not(.close)', { hasText: 'reloaded.arbor' }).click();
    await page.click('[data-testid="run-all"]');
    await expect.poll(() => page.locator('.arbor-checked').count(), { timeout: 120_000 }).toBeGreaterThan(0);
    expect(await readFile(file, 'utf8')).toContain('GOAL "True"');
  }, 180_000);
});

