import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WebWorkbench } from '../main/host/web-workbench.ts';
import { ARTIFACTS, HAVE_CHROMIUM, coqAvailable, startE2eSession } from './e2e-support.ts';
import type { E2eSession } from './e2e-support.ts';

/**
 * A new user's walk (someone who did not build the workbench), on lemmas of Coq's standard library
 * (theories/Lists/List.v: map_length, map_app) restated, a function of the document's own, a shipped
 * example and a real agent transcript. Pins what the walk found: goals follow clicks and arrow keys in
 * every lemma, an error appears once and goes when its line is edited, a failed goal's wrapped error sits
 * below its chips in the derivation (it overlapped them), Save as proposes an example's own name (it
 * proposed `proof.arbor`), a transcript's failures are stops with their error.
 */
const DOC = [
  '// From Coq\'s stdlib theories/Lists/List.v, restated.',
  'DEFINE "Fixpoint total (l : list nat) : nat := match l with nil => 0 | x :: r => x + total r end."',
  'GOAL map_length\' "forall (A B : Type) (f : A -> B) (l : list A), length (map f l) = length l"',
  '    APPLY (intros A B f l; induction l as [|a l IHl])',
  '    APPLY reflexivity',
  '    NEXT',
  '    APPLY (simpl; rewrite IHl; reflexivity)',
  '    END',
  'GOAL map_app\' "forall (A B : Type) (f : A -> B) (l m : list A), map f (l ++ m) = map f l ++ map f m"',
  '    APPLY (intros A B f l m; induction l as [|a l IHl])',
  '    APPLY reflexivity',
  '    NEXT',
  '    APPLY (simpl; rewrite IHl; f_equal)',
  '    END',
  'GOAL total_app "forall l m, total (l ++ m) = total l + total m"',
  '    APPLY (intros l m; induction l as [|x l IH])',
  '    APPLY reflexivity',
  '    NEXT',
  '    APPLY (simpl; rewrite IH; lia)',
  '    END',
];

let session: E2eSession | undefined;
let page: Page;
let workbench: WebWorkbench;
let workspace: string;
let useCoq = false;

const shot = (name: string) => page.screenshot({ path: join(ARTIFACTS, `atk-${name}.png`) });
const problems = (kind: 'error' | 'proved') => page.locator(`[data-testid="problem"][data-kind="${kind}"]`);
const viewLine = (text: string) => page.locator('.monaco-editor .view-line', { hasText: text });
const goalsLine = () => page.locator('[data-testid="goals-panel"]').getAttribute('data-line');

beforeAll(async () => {
  if (!HAVE_CHROMIUM) return;
  useCoq = await coqAvailable();
  if (!useCoq) return;
  session = await startE2eSession(useCoq, 'coq');
  ({ workbench, workspace, page } = session);
}, 180_000);

afterAll(async () => {
  await session?.close();
});

describe.skipIf(!HAVE_CHROMIUM)('a new user\'s walk (real Coq, Chromium)', () => {
  it('proof developer: goals at clicks and arrow keys in every lemma, one error that goes when edited, drawn below its chips', async (ctx) => {
    if (!useCoq) ctx.skip();
    await writeFile(join(workspace, 'lists.arbor'), `${DOC.join('\n')}\n`);
    await page.goto(`${workbench.url}&open=${encodeURIComponent(join(workspace, 'lists.arbor'))}`);
    await page.waitForSelector('.monaco-editor .view-line');
    await page.click('[data-testid="tab-messages"]');
    await page.click('[data-testid="run-all"]');
    await expect.poll(() => problems('proved').allTextContents(), { timeout: 240_000 }).toEqual([
      "✓ line 8 map_length': proved", "✓ line 14 map_app': proved", '✓ line 20 total_app: proved',
    ]);
    // A line of the second lemma: its own IHl, not the first lemma's.
    await viewLine('f_equal)').click();
    await expect.poll(goalsLine).toBe('13');
    await expect.poll(() => page.locator('[data-testid="cursor-before"] [data-testid="cursor-hyp"]', { hasText: 'IHl' }).textContent())
      .toBe('IHl : map f (l ++ m) = map f l ++ map f m');
    // Arrow keys move the goals with the cursor, into the next lemma.
    // (A wrapped line takes one ↓ per screen row, as in VS Code.)
    const seen: string[] = [];
    for (let i = 0; i < 6 && !seen.includes('16'); i++) {
      await page.keyboard.press('ArrowDown');
      // The goals panel follows the editor's cursor line (Monaco marks its number active, a frame or more
      // after the key on a busy machine): both are read together until they agree.
      const activeLine = async (): Promise<string> => (await page.locator('.monaco-editor .line-numbers.active-line-number').first().textContent())?.trim() ?? '';
      let cursorLine = '';
      await expect.poll(async () => {
        cursorLine = await activeLine();
        return cursorLine !== '' && cursorLine === (await goalsLine());
      }).toBe(true);
      seen.push(cursorLine);
    }
    expect(seen).toContain('14');
    await expect.poll(goalsLine).toBe('16');
    await expect.poll(() => page.locator('[data-testid="cursor-after"]').textContent()).toContain('2 goals');
    await page.keyboard.press('ArrowUp');
    await expect.poll(goalsLine).toBe('15');

    // Break the third lemma's step case: one error, on its line, the failed goal red in the derivation.
    await page.click('[data-testid="view-derivation"]');
    await viewLine('rewrite IH; lia').click();
    await page.keyboard.press('End');
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.type(' bogus');
    await page.keyboard.press('Escape');
    await page.click('[data-testid="run-all"]');
    await expect.poll(() => problems('error').count(), { timeout: 120_000 }).toBe(1);
    expect(await problems('error').getAttribute('data-line')).toBe('19');
    const failed = page.locator('[data-testid="tree-node"][data-status="failed"]');
    await expect.poll(() => failed.count(), { timeout: 30_000 }).toBe(1);
    await viewLine('lia bogus').click();
    await expect.poll(() => page.locator('[data-testid="cursor-error"]').count()).toBe(1);
    await page.click('[data-testid="tree-fit"]');
    await expect.poll(() => page.evaluate(() => (window as unknown as { __arborTree?: { view(): { animating: boolean } } }).__arborTree?.view().animating ?? false)).toBe(false);
    await shot('after-failed-note');
    // Fixing the line takes the error away before any re-check.
    await viewLine('lia bogus').click();
    await page.keyboard.press('End');
    for (let i = 0; i < 7; i++) await page.keyboard.press('Backspace');
    await page.keyboard.type(')');
    await expect.poll(() => viewLine('rewrite IH; lia)').count(), { timeout: 15_000 }).toBe(1);
    await expect.poll(() => problems('error').count(), { timeout: 10_000 }).toBe(0);
    await page.click('[data-testid="run-all"]');
    await expect.poll(() => problems('proved').count(), { timeout: 120_000 }).toBe(3);
  }, 500_000);

  it('Save as proposes an example copy\'s own name, never proof.arbor', async (ctx) => {
    if (!useCoq) ctx.skip();
    await page.click('text=Open…');
    await page.click('[data-testid="examples"]');
    await page.locator('[data-testid="file-entry"]', { hasText: '03-sqrt2.arbor' }).click();
    await expect.poll(() => page.locator('[data-testid="doc-tab"]').allTextContents()).toContainEqual(expect.stringContaining('03-sqrt2.arbor'));
    await page.click('text=Save');
    await expect.poll(() => page.locator('input[aria-label="file name"]').inputValue()).toBe('03-sqrt2.arbor');
    await shot('after-save-as-name');
    await page.keyboard.press('Escape');
    await page.locator('.dialog-backdrop').click({ position: { x: 5, y: 5 } }).catch(() => undefined);
  }, 120_000);

  it('agent debugger: every request of a real transcript is a stop, failures with their error', async (ctx) => {
    if (!useCoq) ctx.skip();
    await page.click('[data-testid="tab-transcript"]');
    await page.setInputFiles('[data-testid="transcript-file"]', join(import.meta.dirname, '../fixtures/transcripts/agent-failures.jsonl'));
    await page.click('[data-testid="view-derivation"]');
    const position = () => page.locator('[data-testid="replay-position"]').textContent();
    await expect.poll(position).toMatch(/· 1\/27$/);
    await page.locator('[data-testid="history-slider"]').fill('2');
    await expect.poll(position).toMatch(/· 3\/27$/);
    expect(await page.locator('[data-testid="replay-stop-error"]').textContent()).toMatch(/no subterm matching/i);
    await expect.poll(() => page.locator('[data-testid="tree-node"][data-status="failed"]').count()).toBe(1);
    expect(await page.locator('[data-testid="tx-request"]').count()).toBe(27);
    await shot('agent-failure-step3');
  }, 120_000);
});
