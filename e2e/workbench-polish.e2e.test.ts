import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WebWorkbench } from '../main/host/web-workbench.ts';
import { ARTIFACTS, HAVE_CHROMIUM, coqAvailable, startE2eSession } from './e2e-support.ts';
import type { E2eSession } from './e2e-support.ts';
import { cutControls } from './toolbar-checks.ts';

/**
 * Leftovers of a new user's walk: the toolbars at usual window sizes (nothing cut without a tooltip and an
 * ellipsis, no button wrapping), a loaded transcript never hiding the document once it is run or edited,
 * and a wrapped hypothesis drawn as one chip. Lemmas restated from Coq's stdlib (theories/Lists/List.v).
 */
const DOC = [
  'GOAL map_involutive_long_name_for_the_outline "forall (A : Type) (f : A -> A) (l : list A), (forall x : A, f (f x) = x) /\\ (forall x y : A, f x = f y -> x = y) -> map f (map f l) = l"',
  '    APPLY (intros A f l Hinvolutive; induction l as [|a l IHl])',
  '    APPLY reflexivity',
  '    NEXT',
  '    APPLY (simpl; rewrite (proj1 Hinvolutive), IHl; reflexivity)',
  '    END',
];

let session: E2eSession | undefined;
let page: Page;
let workbench: WebWorkbench;
let workspace: string;
let useCoq = false;

const shot = (name: string) => page.screenshot({ path: join(ARTIFACTS, `polish-${name}.png`) });
const proved = () => page.locator('[data-testid="problem"][data-kind="proved"]');

beforeAll(async () => {
  if (!HAVE_CHROMIUM) return;
  useCoq = await coqAvailable();
  if (!useCoq) return;
  session = await startE2eSession(useCoq, 'coq', { viewport: { width: 1280, height: 720 } });
  ({ workbench, workspace, page } = session);
}, 180_000);

afterAll(async () => {
  await session?.close();
});

describe.skipIf(!HAVE_CHROMIUM)('workbench leftovers (real Coq, Chromium)', () => {
  it('toolbars at 1280×720 and 1600×1000: nothing cut without a tooltip, no button wraps', async (ctx) => {
    if (!useCoq) ctx.skip();
    await writeFile(join(workspace, 'involutive.arbor'), `${DOC.join('\n')}\n`);
    await page.goto(`${workbench.url}&open=${encodeURIComponent(join(workspace, 'involutive.arbor'))}`);
    await page.waitForSelector('.monaco-editor .view-line');
    await page.click('[data-testid="tab-messages"]');
    await page.click('[data-testid="run-all"]');
    await expect.poll(() => proved().count(), { timeout: 240_000 }).toBe(1);
    await page.click('[data-testid="view-derivation"]');
    await page.locator('.tree-search').fill('Hinvolutive');
    await expect.poll(() => page.locator('[data-testid="derivation-item"]').count()).toBe(1);
    await page.click('[data-testid="tree-fit"]');
    await shot('toolbar-1280x720');
    expect(await cutControls(page)).toEqual([]);
    await page.setViewportSize({ width: 1600, height: 1000 });
    await page.click('[data-testid="tree-fit"]');
    await shot('toolbar-1600x1000');
    expect(await cutControls(page)).toEqual([]);
  }, 400_000);

  it('a wrapped hypothesis is one chip (derivation at full size)', async (ctx) => {
    if (!useCoq) ctx.skip();
    await page.locator('.tree-search').fill('');
    await page.click('[data-testid="tree-maximize"]');
    await page.click('[data-testid="tree-fit"]');
    await shot('wrapped-chip');
    await page.click('[data-testid="tree-maximize"]');
  }, 60_000);

  it('a loaded transcript says so, and running or editing the document returns to live', async (ctx) => {
    if (!useCoq) ctx.skip();
    const load = async (): Promise<void> => {
      await page.click('[data-testid="tab-transcript"]');
      await page.setInputFiles('[data-testid="transcript-file"]', join(import.meta.dirname, '../fixtures/transcripts/agent-failures.jsonl'));
      await expect.poll(() => page.locator('[data-testid="source-banner"]').textContent()).toMatch(/Showing the transcript agent-failures\.jsonl, not the document/);
    };
    await load();
    await shot('transcript-banner');
    expect(await cutControls(page)).toEqual([]);
    await page.click('[data-testid="run-all"]');
    await expect.poll(() => page.locator('[data-testid="source-banner"]').count()).toBe(0);
    await expect.poll(() => page.locator('[data-testid="tree-node"][data-action*="Hinvolutive"]').count()).toBeGreaterThan(0);
    // Editing the document does the same.
    await load();
    await page.locator('.monaco-editor .view-line', { hasText: 'NEXT' }).click();
    await page.keyboard.press('End');
    await page.keyboard.type(' ');
    await expect.poll(() => page.locator('[data-testid="source-banner"]').count()).toBe(0);
    // And the banner's own button.
    await load();
    await page.click('[data-testid="back-to-live"]');
    await expect.poll(() => page.locator('[data-testid="source-banner"]').count()).toBe(0);
  }, 300_000);

  it('.v mode: the Goals panel shows the goals before and after the tactic at the step, and at a clicked line', async (ctx) => {
    if (!useCoq) ctx.skip();
    const file = join(workspace, 'swap.v');
    await writeFile(file, ['Lemma and_swap : forall A B : Prop, A /\\ B -> B /\\ A.', 'Proof.', '  intros A B H.', '  destruct H as [HA HB].', '  split.', '  - exact HB.', '  - exact HA.', 'Qed.', ''].join('\n'));
    await page.goto(`${workbench.url}&open=${encodeURIComponent(file)}`);
    await expect.poll(() => page.locator('[data-testid="vfile-theorem"]').count(), { timeout: 180_000 }).toBe(1);
    await page.locator('[data-testid="vfile-theorem"]').click();
    // Step 2 is `destruct H as [HA HB]`: before it H : A /\ B, after it HA and HB.
    await page.locator('[data-testid="vfile-slider"]').fill('2');
    await expect.poll(() => page.locator('[data-testid="vfile-command"]').textContent()).toMatch(/destruct H/);
    const hyps = (where: string) => page.locator(`[data-testid="${where}"] [data-testid="cursor-hyp"]`).allTextContents();
    await expect.poll(() => hyps('cursor-before')).toContainEqual(expect.stringMatching(/^H : A \/\\ B$/));
    expect(await hyps('cursor-after')).toEqual(expect.arrayContaining(['HA : A', 'HB : B']));
    expect(await page.locator('[data-testid="goals-panel"]').getAttribute('data-line')).toBe('4');
    await shot('vfile-goals');
    // A click on a line of the source puts the cursor there: the goals of `exact HB` (line 6).
    await page.locator('[data-testid="vfile-line"][data-line="6"]').click();
    await expect.poll(() => page.locator('[data-testid="goals-panel"]').getAttribute('data-line')).toBe('6');
    expect(await page.locator('[data-testid="cursor-before-goal"]').textContent()).toBe('B');
    expect(await hyps('cursor-before')).toEqual(expect.arrayContaining(['HA : A', 'HB : B']));
  }, 300_000);
});
