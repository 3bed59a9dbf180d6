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

beforeAll(async () => {
  if (!HAVE_CHROMIUM) return;
  useCoq = await coqAvailable();
  session = await startE2eSession(useCoq, 'coq');
  ({ workbench, page } = session);
}, 180_000);

afterAll(async () => {
  await session?.close();
});

const editorText = () => page.evaluate(() => [...document.querySelectorAll('.monaco-editor .view-line')].map((l) => l.textContent ?? '').join('\n'));

describe.skipIf(!HAVE_CHROMIUM)('proof documents in Chromium (real Coq)', () => {
  it('checks a multi-lemma document, searches its lemmas, hovers names and inserts a result', async () => {
    if (!useCoq) return;
    await page.goto(`${workbench.url}&open=${encodeURIComponent(join(EXAMPLES_DIR, '18-list-library.arbor'))}`);
    await page.waitForSelector('.monaco-editor .view-line');
    await page.click('[data-testid="run-all"]');
    // Checked to the end: every lemma proved, each using the ones before it.
    await expect.poll(async () => page.locator('[data-testid="tree-node"]').first().getAttribute('data-status'), { timeout: 180_000 }).toBe('proved');
    expect(await page.locator('.line-error').count()).toBe(0);

    // The search tab finds the document's own lemma beside the library's.
    await page.click('[data-testid="tab-search"]');
    await page.fill('[data-testid="search-input"]', 'length (snoc _ _)');
    await page.keyboard.press('Enter');
    const rows = page.locator('[data-testid="search-result"]');
    await expect.poll(() => rows.allTextContents(), { timeout: 60_000 }).toEqual(expect.arrayContaining([expect.stringMatching(/^Insertlength_snoc.*this document$/)]));
    await page.screenshot({ path: join(ARTIFACTS, '50-search-document-lemmas.png') });

    // Hovering a lemma name shows its statement, from the prover.
    const at = await page.evaluate(() => {
      // The middle of `rev_snoc` in the line `GOAL length_rev_snoc …` … `rewrite rev_snoc`: a screen point over the word.
      for (const line of document.querySelectorAll('.monaco-editor .view-line')) {
        // Monaco renders spaces as no-break spaces, and splits a line's text into token spans.
        if (!/rewrite\s+rev_snoc/.test((line.textContent ?? '').replace(/\u00a0/g, ' '))) continue;
        const walker = document.createTreeWalker(line, NodeFilter.SHOW_TEXT);
        for (let n = walker.nextNode(); n; n = walker.nextNode()) {
          const i = (n.textContent ?? '').indexOf('rev_snoc');
          if (i < 0) continue;
          const range = document.createRange();
          range.setStart(n, i + 3);
          range.setEnd(n, i + 5);
          const r = range.getBoundingClientRect();
          return { x: r.x + r.width / 2, y: r.y + r.height / 2 };
        }
      }
      return undefined;
    });
    expect(at).toBeDefined();
    await page.mouse.move((at?.x ?? 0) - 40, at?.y ?? 0);
    await page.mouse.move(at?.x ?? 0, at?.y ?? 0, { steps: 4 });
    await expect.poll(async () => page.locator('.monaco-hover').allTextContents(), { timeout: 30_000 })
      .toEqual(expect.arrayContaining([expect.stringContaining('rev_snoc : forall')]));
    await page.screenshot({ path: join(ARTIFACTS, '51-hover-document-lemma.png') });
    // Insert puts the name at the editor's cursor (on a new line after the first).
    await page.click('.monaco-editor .view-line >> nth=0');
    await page.keyboard.press('End');
    await page.keyboard.press('Enter');
    await rows.filter({ hasText: 'length_snoc' }).locator('button').click();
    await expect.poll(editorText).toMatch(/\nlength_snoc/);

  }, 300_000);
});
