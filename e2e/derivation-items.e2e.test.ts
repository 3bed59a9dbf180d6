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
const pick = (value: string) => page.selectOption('[data-testid="derivation-item"]', value);

beforeAll(async () => {
  if (!HAVE_CHROMIUM) return;
  useCoq = await coqAvailable();
  if (!useCoq) return;
  session = await startE2eSession(useCoq, 'coq');
  ({ workbench, page } = session);
}, 180_000);

afterAll(async () => {
  await session?.close();
});

/** A document of a declaration and four lemmas: the derivation of any of them, not only the last. */
describe.skipIf(!HAVE_CHROMIUM)('the derivation of every item of a document, in Chromium', () => {
  it('shows the lemma picked in the outline, steps through it with the slider, and says why a declaration has none', async (ctx) => {
    if (!useCoq) ctx.skip();
    await page.goto(`${workbench.url}&open=${encodeURIComponent(join(EXAMPLES_DIR, '18-list-library.arbor'))}`);
    await page.waitForSelector('.monaco-editor .view-line');
    await page.click('[data-testid="run-all"]');
    await expect.poll(async () => nodes().first().getAttribute('data-status'), { timeout: 180_000 }).toBe('proved');

    await page.click('[data-testid="view-derivation"]');
    // The outline lists the DEFINE and the four lemmas, all finished. The last lemma's goals close before its END
    // (the kernel's Qed and the judges) is done, so its mark is waited for, not read once.
    const labels = async (): Promise<string[]> => (await page.locator('[data-testid="derivation-item-option"]').allTextContents()).map((l) => l.replace(/ · .*/, ''));
    await expect.poll(labels, { timeout: 60_000 }).toEqual([
      expect.stringMatching(/^1\. DEFINE /), '2. length_snoc ✓', '3. rev_snoc ✓', '4. rev_rev ✓', '5. length_rev_snoc ✓',
    ]);
    // Following the proof: the last lemma's derivation.
    await expect.poll(() => attrs('data-action')).toContain('APPLY (intros A l x; rewrite rev_snoc; simpl; rewrite rev_length; reflexivity)');

    // An earlier lemma: its induction, both cases and how each closed.
    await pick('3');
    await expect.poll(() => attrs('data-action')).toContain('APPLY (intros A l; induction l as [|y l IH])');
    // Picking it selects its statement, and the editor marks the lemma's GOAL line (line 10).
    await expect.poll(() => page.locator('[data-testid="inspector-goal"]').textContent()).toContain('rev (rev l) = l');
    await expect.poll(() => page.locator('[data-testid="origin-line"]').textContent()).toBe('line 10');
    expect(await nodes().count()).toBeGreaterThanOrEqual(3);
    expect(new Set(await attrs('data-status'))).toEqual(new Set(['closed']));
    await page.click('text=Fit');
    await page.screenshot({ path: join(ARTIFACTS, '44-derivation-earlier-lemma.png') });

    // The slider steps through that lemma: at its second step the cases are still open, one current.
    await page.locator('[data-testid="history-slider"]').fill('1');
    await expect.poll(async () => (await attrs('data-status')).includes('open')).toBe(true);
    expect((await attrs('data-current')).filter((c) => c === 'goal')).toHaveLength(1);
    await expect.poll(() => page.locator('[data-testid="replay-position"]').textContent()).toMatch(/ · 2\/5$/);
    await page.screenshot({ path: join(ARTIFACTS, '45-derivation-earlier-lemma-history.png') });

    // The first lemma, then the declaration (no derivation, and the view says so).
    await pick('1');
    await expect.poll(() => attrs('data-action')).toEqual(['APPLY (intros A l x; unfold snoc; rewrite app_length; simpl; lia)']);
    await pick('0');
    await expect.poll(() => page.locator('[data-testid="tree-empty"]').textContent()).toMatch(/declaration/);
    // The cursor picks the item too: a click into the first lemma's proof line shows its derivation.
    await pick('follow');
    await page.locator('.view-line', { hasText: 'app_length; simpl; lia' }).click();
    await expect.poll(() => attrs('data-action')).toEqual(['APPLY (intros A l x; unfold snoc; rewrite app_length; simpl; lia)']);
    await expect.poll(() => page.locator('[data-testid="replay-live"]').count()).toBe(1);
    await page.click('[data-testid="replay-live"]');
    await expect.poll(() => attrs('data-action')).toContain('APPLY (intros A l x; rewrite rev_snoc; simpl; rewrite rev_length; reflexivity)');
  }, 300_000);
});
