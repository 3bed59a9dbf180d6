import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WebWorkbench } from '../main/host/web-workbench.ts';
import { ARTIFACTS, HAVE_CHROMIUM, startE2eSession } from './e2e-support.ts';
import type { E2eSession } from './e2e-support.ts';

let session: E2eSession | undefined;
let page: Page;
let workbench: WebWorkbench;
let workspace: string;

// The default eq prelude's loop axioms: b1 (x \ (x * y) = y) and lid (e * x = x); a middle-term split first.
const PROOF = 'GOAL "c \\ (c * (e * d)) = d"\nAPPLY trans "e * d"\n';
const editorText = async () => (await page.locator('.monaco-editor .view-lines').textContent() ?? '').replace(/\u00a0/g, ' ');

beforeAll(async () => {
  if (!HAVE_CHROMIUM) return;
  session = await startE2eSession(false, 'eq');
  ({ workbench, workspace, page } = session);
  await writeFile(join(workspace, 'loop.arbor'), PROOF);
}, 180_000);

afterAll(async () => {
  await session?.close();
});

// The eq backend is in-process (no external prover), so this always runs the real engine.
describe.skipIf(!HAVE_CHROMIUM)('equational proof in the workbench (eq backend)', () => {
  it('shows the middle-term split as a bundle, the goal as term trees, and accepts an eq-advisor rewrite', async () => {
    await page.goto(`${workbench.url}&open=${encodeURIComponent(join(workspace, 'loop.arbor'))}`);
    await page.waitForSelector('.monaco-editor .view-line');
    await page.click('[data-testid="run-all"]');
    const nodes = page.locator('[data-testid="tree-node"]');
    await expect.poll(() => nodes.allTextContents(), { timeout: 30_000 }).toContain('bundle of 2');
    expect(await nodes.allTextContents()).toEqual(expect.arrayContaining(['c \\ (c * (e * d)) = e * d', 'e * d = d']));

    // The current goal's two sides as term trees with side.path positions; a click places the cursor.
    await expect.poll(() => page.locator('[data-testid="inspector-goal"]').textContent()).toBe('c \\ (c * (e * d)) = e * d');
    const positions = await page.locator('[data-testid="eq-node"]').evaluateAll((els) => els.map((e) => `${e.getAttribute('data-position')}:${e.querySelector('.eq-sym')?.textContent}`));
    expect(positions).toEqual(['1:\\', '1.1:c', '1.2:*', '1.2.1:c', '1.2.2:*', '1.2.2.1:e', '1.2.2.2:d', '2:*', '2.1:e', '2.2:d']);
    await page.locator('[data-testid="eq-node"][data-position="1.2.2"]').click();
    await expect.poll(() => page.locator('[data-testid="eq-cursor"]').textContent()).toContain('RULE name@1.2.2');

    // The eq-advisor's ranked rewrites, checked on scratch copies, with their distance estimates.
    await page.click('[data-testid="tab-suggestions"]');
    await page.click('[data-testid="suggest"]');
    const advised = page.locator('[data-testid="suggestion"]', { has: page.locator('[data-testid="suggestion-source"]', { hasText: 'eq-advisor' }) });
    await expect.poll(() => advised.count(), { timeout: 60_000 }).toBeGreaterThan(1);
    const best = advised.first();
    expect(await best.locator('[data-testid="suggestion-line"]').textContent()).toBe('RULE b1');
    expect(await best.locator('[data-testid="suggestion-label"]').getAttribute('data-label')).toBe('closes_goal');
    expect(await best.locator('[data-testid="suggestion-estimate"]').textContent()).toBe('d ≈ 0.00');
    await page.waitForTimeout(300);
    await page.screenshot({ path: join(ARTIFACTS, '32-equational.png') });

    await best.locator('[data-testid="accept"]').click();
    await expect.poll(editorText, { timeout: 30_000 }).toContain('RULE b1');
    await expect.poll(() => page.locator('[data-testid="history-entry"][data-outcome="accepted"]').count()).toBe(1);
  }, 120_000);
});
