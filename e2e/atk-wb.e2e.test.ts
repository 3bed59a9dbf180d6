import { copyFile, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WebWorkbench } from '../main/host/web-workbench.ts';
import { ARTIFACTS, HAVE_CHROMIUM, coqAvailable, startE2eSession } from './e2e-support.ts';
import type { E2eSession } from './e2e-support.ts';
import { cutControls } from './toolbar-checks.ts';

/**
 * An unlucky new user attacks the workbench leftovers (atk-wb): a small window and a very long document
 * name, a transcript shown while the user types, an Admitted proof in .v mode, a proof under a section's
 * `Hypothesis H : False`. Real Coq, Chromium.
 */
const LONG = 'a_document_whose_name_is_far_longer_than_any_tab_or_toolbar_could_ever_show_in_one_piece';
const DOC = [
  'DEFINE "Section Cheat. Variable n : nat. Hypothesis H : False."',
  'GOAL anything_at_all_under_a_false_section_hypothesis "forall m : nat, m + n = 42"',
  '    APPLY (intros m; destruct H)',
  '    END',
  'GOAL honest "forall l : list nat, rev (rev l) = l"',
  '    APPLY (intros l; apply List.rev_involutive)',
  '    END',
];

let session: E2eSession | undefined;
let page: Page;
let workbench: WebWorkbench;
let workspace: string;
let useCoq = false;

const shot = (name: string) => page.screenshot({ path: join(ARTIFACTS, `atk-wb-${name}.png`) });
const proved = () => page.locator('[data-testid="problem"][data-kind="proved"]');

beforeAll(async () => {
  if (!HAVE_CHROMIUM) return;
  useCoq = await coqAvailable();
  if (!useCoq) return;
  session = await startE2eSession(useCoq, 'coq', { viewport: { width: 1024, height: 640 } });
  ({ workbench, workspace, page } = session);
}, 180_000);

afterAll(async () => {
  await session?.close();
});

describe.skipIf(!HAVE_CHROMIUM)('workbench leftovers under attack (real Coq, Chromium)', () => {
  it('1024×640 with a very long document name; a conditional proof says so', async (ctx) => {
    if (!useCoq) ctx.skip();
    const file = join(workspace, `${LONG}.arbor`);
    await writeFile(file, `${DOC.join('\n')}\n`);
    await page.goto(`${workbench.url}&open=${encodeURIComponent(file)}`);
    await page.waitForSelector('.monaco-editor .view-line');
    await page.click('[data-testid="tab-messages"]');
    await page.click('[data-testid="run-all"]');
    await expect.poll(() => proved().count(), { timeout: 240_000 }).toBe(2);
    const lines = await proved().allTextContents();
    expect(lines.find((l) => l.includes('anything_at_all'))).toMatch(/◐.*proved, assuming the section's hypothesis H : False and its variable n : nat/);
    expect(lines.find((l) => l.includes('honest'))).toMatch(/✓.*honest.*: proved$/);
    await page.click('[data-testid="view-derivation"]');
    // The outline never marks the conditional proof with a plain ✓.
    const items = await page.locator('[data-testid="derivation-item-option"]').allTextContents();
    expect(items.find((t) => t.includes('anything_at_all'))).toMatch(/◐ proved under section hypotheses/);
    expect(items.find((t) => t.includes('honest'))).toMatch(/honest ✓/);
    await page.click('[data-testid="tree-fit"]');
    await shot('toolbar-1024x640');
    expect(await cutControls(page)).toEqual([]);
  }, 400_000);

  it('a transcript with a very long name: the banner keeps Back to live in its bar; typing meanwhile loses nothing', async (ctx) => {
    if (!useCoq) ctx.skip();
    const file = join(workspace, `${LONG}.arbor`);
    const tx = join(workspace, `${LONG}_${LONG}.jsonl`);
    await copyFile(join(import.meta.dirname, '../fixtures/transcripts/agent-failures.jsonl'), tx);
    await page.click('[data-testid="tab-transcript"]');
    await page.setInputFiles('[data-testid="transcript-file"]', tx);
    await expect.poll(() => page.locator('[data-testid="source-banner"]').count()).toBe(1);
    await shot('long-transcript-banner');
    expect(await cutControls(page)).toEqual([]);
    const back = await page.locator('[data-testid="back-to-live"]').boundingBox();
    const bar = await page.locator('[data-testid="source-banner"]').boundingBox();
    expect(back && bar && back.x + back.width <= bar.x + bar.width + 1).toBe(true);
    // Typing while the transcript is shown: every character lands in the document.
    await page.locator('.monaco-editor .view-line', { hasText: 'rev_involutive' }).click();
    await page.keyboard.press('End');
    await page.keyboard.type(' (* typed while a transcript was shown *)');
    await expect.poll(() => page.locator('[data-testid="source-banner"]').count()).toBe(0);
    await shot('typed-over-transcript');
    // What was typed is in the document (saved to disk: the editor's wrapped lines are not its text).
    await page.keyboard.press('Control+S');
    await expect.poll(() => readFile(file, 'utf8')).toContain('APPLY (intros l; apply List.rev_involutive) (* typed while a transcript was shown *)');
  }, 300_000);

  it('.v mode: an Admitted proof is never shown as complete, a comment line shows the step above', async (ctx) => {
    if (!useCoq) ctx.skip();
    const file = join(workspace, 'half.v');
    await writeFile(file, ['Lemma half : forall A B : Prop, A -> A /\\ B.', 'Proof.', '  intros A B HA.', '  split.', '  { exact HA. }', '  (* the second goal is given up *)', '  admit.', 'Admitted.', ''].join('\n'));
    await page.goto(`${workbench.url}&open=${encodeURIComponent(file)}`);
    await expect.poll(() => page.locator('[data-testid="vfile-theorem"]').count(), { timeout: 180_000 }).toBe(1);
    await page.locator('[data-testid="vfile-theorem"]').click();
    await page.locator('[data-testid="vfile-line"][data-line="8"]').click();
    await expect.poll(() => page.locator('[data-testid="cursor-after-not-proved"]').textContent()).toMatch(/Admitted: it is not proved/);
    expect(await page.locator('[data-testid="cursor-after-done"]').count()).toBe(0);
    await shot('vfile-admitted');
    // The comment line: the goals of `exact HA` above it (line 5), the second goal B still open after it.
    await page.locator('[data-testid="vfile-line"][data-line="6"]').click();
    await expect.poll(() => page.locator('[data-testid="goals-panel"]').getAttribute('data-line')).toBe('5');
    expect(await page.locator('[data-testid="cursor-after-goal"]').textContent()).toBe('B');
  }, 300_000);

  it('several tabs: a transcript shown while its document tab is closed, then Back to live and typing in another tab', async (ctx) => {
    if (!useCoq) ctx.skip();
    const two = join(workspace, 'two.arbor');
    await writeFile(two, 'GOAL two "2 = 2"\n    APPLY reflexivity\n    END\n');
    await page.goto(`${workbench.url}&open=${encodeURIComponent(two)}`);
    await page.waitForSelector('.monaco-editor .view-line');
    await page.click('[data-testid="new"], button:has-text("New")');
    await expect.poll(() => page.locator('[data-testid="doc-tab"]').count()).toBeGreaterThanOrEqual(2);
    const errorsBefore = await page.locator('.message.error, [data-level="error"]').count();
    await page.click('[data-testid="tab-transcript"]');
    await page.setInputFiles('[data-testid="transcript-file"]', join(import.meta.dirname, '../fixtures/transcripts/agent-failures.jsonl'));
    await expect.poll(() => page.locator('[data-testid="source-banner"]').count()).toBe(1);
    // Another tab: the transcript is still what the tree shows, and it still says so.
    await page.locator('[data-testid="doc-tab"][data-uri^="untitled:"] button').first().click();
    expect(await page.locator('[data-testid="source-banner"]').count()).toBe(1);
    // Close that tab (it is clean, so nothing asks): the banner stays true, Back to live works.
    await page.locator('[data-testid="doc-tab"][data-uri^="untitled:"] button.close').click();
    await expect.poll(() => page.locator('[data-testid="doc-tab"][data-uri^="untitled:"]').count()).toBe(0);
    await shot('tab-closed-under-transcript');
    await page.click('[data-testid="back-to-live"]');
    await expect.poll(() => page.locator('[data-testid="source-banner"]').count()).toBe(0);
    // Typing in the remaining document while the transcript is shown again: kept, and the tree is live.
    await page.locator(`[data-testid="doc-tab"][data-uri$="two.arbor"] button`).first().click();
    await page.locator('[data-testid="tx-next"]').click();
    await page.click('[data-testid="tab-transcript"]');
    await page.locator('[data-testid="transcript-panel-show"], button:has-text("Show transcript tree")').first().click();
    await expect.poll(() => page.locator('[data-testid="source-banner"]').count()).toBe(1);
    await page.locator('.monaco-editor .view-line', { hasText: 'APPLY reflexivity' }).click();
    await page.keyboard.press('End');
    await page.keyboard.type(' (* kept *)');
    await expect.poll(() => page.locator('[data-testid="source-banner"]').count()).toBe(0);
    await page.keyboard.press('Control+S');
    await expect.poll(() => readFile(two, 'utf8')).toContain('APPLY reflexivity (* kept *)');
    await shot('two-tabs-live');
    expect(await page.locator('.message.error, [data-level="error"]').count()).toBe(errorsBefore);
  }, 300_000);

  it('.v mode on a public file with comments: a click inside a comment shows the step above it, never the one below', async (ctx) => {
    if (!useCoq) ctx.skip();
    const file = join(workspace, 'lesson4_proof_techniques.v');
    await copyFile(join(import.meta.dirname, '../fixtures/public/stepchowfun-proofs/lesson4_proof_techniques.v'), file);
    await page.goto(`${workbench.url}&open=${encodeURIComponent(file)}`);
    await expect.poll(() => page.locator('[data-testid="vfile-theorem"]').count(), { timeout: 240_000 }).toBeGreaterThan(3);
    // The file states this goal twice (lines 125 and 179): the second.
    const at = () => page.locator('[data-testid="goals-panel"]').getAttribute('data-line');
    // An aborted proof whose last line is a comment: the comment (128) shows the goals after `intros.` (127).
    await page.locator('[data-testid="vfile-theorem"]', { hasText: 'l. 125–' }).click();
    await page.locator('[data-testid="vfile-line"][data-line="128"]').click();
    await expect.poll(at).toBe('127');
    expect(await page.locator('[data-testid="cursor-after-goal"]').textContent()).toBe('n + 0 = n');
    // A tactic with a trailing comment (line 62), after a comment above the theorem (57).
    await page.locator('[data-testid="vfile-theorem"]', { hasText: 'l. 59–' }).click();
    await page.locator('[data-testid="vfile-line"][data-line="62"]').click();
    await expect.poll(at).toBe('62');
    expect(await page.locator('[data-testid="cursor-before-goal"]').textContent()).toBe('n1 = n2');
    await shot('vfile-public-bullets');
  }, 400_000);

  // lesson4 has `Print "+".` at line 133, which coqc accepts: a read-only run prints it and goes on, so the
  // later theorems (commutativity, bullets at 212) are shown.
  it('.v mode goes past `Print "+".` in a public file', async (ctx) => {
    if (!useCoq) ctx.skip();
    expect(await page.locator('[data-testid="vfile-stopped"]').count()).toBe(0);
    expect(await page.locator('[data-testid="vfile-theorem"]', { hasText: 'commutativity' }).count()).toBe(1);
  }, 60_000);
});
