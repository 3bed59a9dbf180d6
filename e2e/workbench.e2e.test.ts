import { readFile, writeFile } from 'node:fs/promises';
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
let workspace: string;
let useCoq = false;
const consoleErrors: string[] = [];

const shot = (name: string) => page.screenshot({ path: join(ARTIFACTS, `${name}.png`) });
const requests = () => page.locator('[data-testid="tx-request"]').allTextContents();
const nodes = () => page.locator('[data-testid="tree-node"]');

beforeAll(async () => {
  if (!HAVE_CHROMIUM) return;
  useCoq = await coqAvailable();
  process.stderr.write(`[e2e] backend: ${useCoq ? 'real Coq' : 'TEST DOUBLE (Coq backend not available)'}\n`);
  session = await startE2eSession(useCoq, 'coq', { acceptDownloads: true });
  ({ workbench, workspace, page } = session);
  page.on('console', (m) => { if (m.type() === 'error') consoleErrors.push(m.text()); });
  page.on('pageerror', (e) => consoleErrors.push(String(e)));
}, 180_000);

afterAll(async () => {
  await session?.close();
});

describe.skipIf(!HAVE_CHROMIUM)('workbench in Chromium via the web host', () => {
  it('opens an example, runs it all, and shows the tree with statuses', async () => {
    await page.goto(`${workbench.url}&open=${encodeURIComponent(join(EXAMPLES_DIR, '02-fold-left-right.arbor'))}`);
    await page.waitForSelector('.monaco-editor .view-line');
    await expect.poll(() => page.locator('[data-testid="doc-tab"]').allTextContents()).toContain('02-fold-left-right.arbor×');
    await page.click('[data-testid="tab-transcript"]');
    await page.click('[data-testid="run-all"]');
    // The proof finishes: the root is the empty bundle, shown proved.
    await expect.poll(async () => nodes().first().getAttribute('data-status'), { timeout: 120_000 }).toBe('proved');
    await expect.poll(() => page.locator('.arbor-checked').count()).toBeGreaterThan(0);
    await page.click('[data-testid="tab-transcript"]');
    const sent = await requests();
    expect(sent.filter((t) => /APPLY|HAVE|END|NEXT|GOAL/.test(t)).length).toBe(8);
    // The finished proof's reproduction script (the last END's SCRIPT) is in the inspector.
    await expect.poll(() => page.locator('[data-testid="script"]').textContent()).toBeTruthy();
    // Saved as the file Coq checks alone.
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid="save-script"]')]);
    expect(download.suggestedFilename()).toMatch(/^fold_left_right\.v$/);
    await shot('01-run-all-finished');
  });

  it('walks history: the slider shows an earlier step with open and current nodes', async () => {
    const slider = page.locator('[data-testid="history-slider"]');
    await slider.fill('3'); // the 4th recorded step: inside the HAVE block
    await expect.poll(() => nodes().count()).toBeGreaterThan(1);
    const statuses = await nodes().evaluateAll((els) => els.map((e) => e.getAttribute('data-status')));
    expect(statuses).toContain('open');
    expect(await page.locator('[data-testid="tree-node"][data-current="goal"]').count()).toBe(1);
    await page.waitForTimeout(500); // let the step animation finish
    await shot('02-history-step');
    // Step 3 (after the induction): the goal diff shows the new hypotheses and the changed goal parts.
    await slider.fill('2');
    await expect.poll(() => page.locator('[data-testid="step-diff"]').textContent()).toContain('produced 2 goals');
    await page.waitForTimeout(500);
    await shot('02b-goal-diff');
    await slider.fill('3');
  });

  it('clicking a node shows its full context and goal and highlights its editor line', async () => {
    // Click the current goal on the canvas itself, where the painter drew it — once the last step's layout
    // animation is over: on a busy machine a box read mid-animation has moved by the time of the click.
    await expect.poll(() => page.evaluate(() => (window as unknown as { __arborTree: { view(): { animating: boolean } } }).__arborTree.view().animating)).toBe(false);
    const id = Number(await page.locator('[data-testid="tree-node"][data-current="goal"]').getAttribute('data-id'));
    const rect = await page.evaluate((nodeId) => (window as unknown as { __arborTree: { screenRect(id: number): { x: number; y: number; w: number; h: number } | null } }).__arborTree.screenRect(nodeId), id);
    expect(rect).not.toBeNull();
    await page.mouse.click(rect!.x + rect!.w / 2, rect!.y + rect!.h / 2);
    await expect.poll(() => page.locator('[data-testid="inspector"] h3').textContent()).toContain(`#${id}`);
    await expect.poll(() => page.locator('[data-testid="inspector-goal"]').textContent()).toBeTruthy();
    await expect.poll(() => page.locator('.arbor-origin-line').count()).toBeGreaterThan(0);
    const ctx = await page.locator('[data-testid="inspector"]').textContent();
    expect(ctx).toContain('Context');
    await shot('03-inspector');
    // Double-click collapses a bundle (and expands it again); then back to the live tree.
    const rootId = Number(await nodes().first().getAttribute('data-id'));
    // Fit keeps text readable and may leave the root out of view: bring it in before clicking it.
    await page.evaluate((i) => (window as unknown as { __arborTree: { centerOn(id: number): void } }).__arborTree.centerOn(i), rootId);
    const screenRect = (nodeId: number) => page.evaluate((i) => (window as unknown as { __arborTree: { screenRect(id: number): { x: number; y: number; w: number; h: number } | null } }).__arborTree.screenRect(i), nodeId);
    const before = await nodes().count();
    let r = (await screenRect(rootId))!;
    await page.mouse.dblclick(r.x + r.w / 2, r.y + r.h / 2);
    await expect.poll(() => nodes().count()).toBe(1);
    await page.waitForTimeout(450);
    await shot('03b-collapsed');
    r = (await screenRect(rootId))!;
    await page.mouse.dblclick(r.x + r.w / 2, r.y + r.h / 2);
    await expect.poll(() => nodes().count()).toBe(before);
    await page.click('[data-testid="replay-live"]');
  });

  it('editing a checked line reverts to the step before it and re-sends only the later lines', async () => {
    await page.click('[data-testid="tab-transcript"]');
    const before = (await requests()).length;
    // Line 6 is `APPLY (intros a; simpl; rewrite IH)`: append a harmless tactic.
    await page.locator('.view-line', { hasText: 'rewrite IH)' }).click();
    await page.keyboard.press('End');
    await page.keyboard.press('ArrowLeft'); // inside the closing parenthesis
    await page.keyboard.type('; auto');
    await expect.poll(async () => (await requests()).slice(before).join('\n'), { timeout: 60_000 }).toMatch(/END[\s\S]*$/);
    await expect.poll(async () => nodes().first().getAttribute('data-status'), { timeout: 120_000 }).toBe('proved');
    const after = (await requests()).slice(before);
    const cmds = after.map((t) => t.replace(/^▸ /, ''));
    expect(cmds[0]).toMatch(/^\d+ REVERT \d+$|^REVERT/);
    const resent = cmds.slice(1).filter((c) => !/REVERT/.test(c));
    expect(resent.map((c) => c.replace(/^\d+ /, ''))).toEqual(['APPLY (intros a; simpl; rewrite IH; auto)', 'END', 'APPLY (intros l; rewrite G)', 'END']);
    await shot('04-after-edit-recheck');
  });

  it('searches the tree, hovers a command for its documentation, exports PNG', async () => {
    await page.click('[data-testid="history-slider"]'); // any earlier step with several nodes
    await page.locator('[data-testid="history-slider"]').fill('3');
    await page.fill('.tree-search', 'fold_left');
    await expect.poll(() => page.locator('[data-testid="hit-count"]').textContent()).toMatch(/^[1-9]\d* hits?$/);
    await page.keyboard.press('Enter');
    await page.waitForTimeout(600);
    await shot('08-search');
    await page.fill('.tree-search', '');
    await page.click('[data-testid="replay-live"]');
    await page.locator('.view-line span', { hasText: /^HAVE$/ }).first().hover();
    await expect.poll(() => page.locator('.monaco-hover').allTextContents().then((t) => t.join(' ')), { timeout: 10_000 }).toContain('Suspend the current goal');
    await shot('09-hover-docs');
    await page.mouse.move(5, 5);
    await page.click('[data-testid="export-menu"]');
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid="export-png"]')]);
    const png = join(ARTIFACTS, 'tree-export.png');
    await download.saveAs(png);
    expect((await readFile(png)).subarray(1, 4).toString()).toBe('PNG');
  });

  it('exports the tree as SVG', async () => {
    await page.click('[data-testid="export-menu"]');
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid="export-svg"]')]);
    const path = join(ARTIFACTS, 'tree-export.svg');
    await download.saveAs(path);
    const svg = await readFile(path, 'utf8');
    expect(svg.startsWith('<svg')).toBe(true);
    expect(svg).toContain('data-status="proved"');
  });

  it('steps through a transcript file without a prover', async () => {
    const empty = { vars: [], hyps: [] };
    const lines = [
      { time: 1, channel: 0, request: 'GOAL "A /\\ B"' },
      { time: 2, response: { CHANNEL: 0, RESPONSE: { ctxt: empty, goal: 'A /\\ B' }, ERR: '', STEP: 1 } },
      { time: 3, channel: 0, request: 'APPLY split' },
      { time: 4, response: { CHANNEL: 0, RESPONSE: { ctxt: empty, goal: [{ ctxt: empty, goal: 'A' }, { ctxt: { vars: [], hyps: [{ name: 'HA', expr: 'A' }] }, goal: 'B' }] }, ERR: '', STEP: 2 } },
      { time: 5, channel: 0, request: 'HAMMER' },
      { time: 6, response: { CHANNEL: 0, RESPONSE: { ctxt: empty, goal: [{ ctxt: empty, goal: 'True' }, { ctxt: { vars: [], hyps: [{ name: 'HA', expr: 'A' }] }, goal: 'B' }] }, ERR: '', STEP: 3 } },
    ];
    const file = join(workspace, 'session.jsonl');
    await writeFile(file, `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
    await page.click('[data-testid="tab-transcript"]');
    await page.setInputFiles('[data-testid="transcript-file"]', file);
    await expect.poll(() => page.locator('[data-testid="loaded-transcript"] li').count()).toBe(6);
    await page.click('[data-testid="tx-next"]');
    await expect.poll(() => nodes().count()).toBe(1);
    await page.click('[data-testid="tx-next"]');
    await page.click('[data-testid="tx-next"]');
    await expect.poll(() => nodes().count()).toBe(3);
    await page.click('[data-testid="tx-next"]');
    await page.click('[data-testid="tx-next"]');
    await expect.poll(() => nodes().evaluateAll((els) => els.map((e) => e.getAttribute('data-status')))).toEqual(['bundle', 'proved', 'open']);
    await page.waitForTimeout(500);
    await shot('05-transcript-stepping');
  });

  it('shows a failing line\'s error inline and the goal as failed; completion offers commands', async () => {
    // Leave transcript mode (if the transcript test ran before) for the live tree.
    await page.click('.transcript-panel >> text=Close', { timeout: 2000 }).catch(() => undefined);
    await page.click('text=New');
    await page.click('.monaco-editor .view-lines');
    await page.keyboard.type('GOAL "forall n : nat, n + 0 = n');
    await page.keyboard.press('End');
    await page.keyboard.press('Enter');
    await page.keyboard.type('APPLY no_such_tactic_xyz');
    await page.keyboard.press('Enter');
    await page.keyboard.type('EN');
    await page.keyboard.press('Control+Space');
    await expect.poll(() => page.locator('.suggest-widget .monaco-list-row').allTextContents()).toEqual(expect.arrayContaining([expect.stringContaining('END')]));
    await page.keyboard.press('Escape');
    await page.keyboard.type('D');
    await page.click('[data-testid="run-all"]');
    await expect.poll(() => page.locator('.arbor-inline-error').count(), { timeout: 60_000 }).toBeGreaterThan(0);
    await expect.poll(() => page.locator('[data-testid="tree-node"]').first().getAttribute('data-status')).toBe('failed');
    await page.click('[data-testid="tab-messages"]');
    await page.waitForTimeout(300);
    await shot('06-error-inline');
  });

  it('saves an untitled buffer through the in-app dialog (web host: no native dialogs)', async () => {
    await page.click('[data-testid="save"]');
    await page.waitForSelector('[role="dialog"][aria-label="Save file"]');
    await page.fill('[aria-label="file name"]', 'my-proof.arbor');
    await page.click('[role="dialog"] button[type="submit"]');
    await expect.poll(() => readFile(join(workspace, 'my-proof.arbor'), 'utf8').catch(() => '')).toContain('APPLY no_such_tactic_xyz');
    await expect.poll(() => page.locator('[data-testid="doc-tab"]').allTextContents()).toContain('my-proof.arbor×');
  });

  it('completion offers what fits, Enter accepts it (as in VS Code), Escape keeps what was typed', async () => {
    await page.click('text=New');
    await page.click('.monaco-editor .view-lines');
    await page.keyboard.type('GOAL lemma_a "True');
    await page.keyboard.press('End');
    await page.keyboard.press('Enter');
    // Escape closes a completion list that popped up while typing; Enter then ends the line as typed.
    await page.keyboard.type('APPLY induction l');
    await page.keyboard.press('Escape');
    await page.keyboard.press('Enter');
    await page.keyboard.type('APPLY le');
    await page.keyboard.press('Control+Space');
    // The document's own theorem is offered; the words of other tabs are not.
    const rows = () => page.locator('.suggest-widget .monaco-list-row').allTextContents();
    await expect.poll(rows).toEqual(expect.arrayContaining([expect.stringContaining('lemma_a')]));
    expect((await rows()).some((r) => /length|let/.test(r))).toBe(false);
    await page.keyboard.press('Escape');
    const lines = async () => page.evaluate(() => [...document.querySelectorAll('.monaco-editor .view-line')].map((l) => (l.textContent ?? '').replace(/\u00a0/g, ' ')));
    expect((await lines()).slice(0, 3)).toEqual(['GOAL lemma_a "True"', 'APPLY induction l', 'APPLY le']);
    // Enter accepts the completion.
    await page.keyboard.type('mm');
    await page.keyboard.press('Control+Space');
    await expect.poll(rows).toEqual(expect.arrayContaining([expect.stringContaining('lemma_a')]));
    await page.keyboard.press('Enter');
    await expect.poll(async () => (await lines())[2]).toBe('APPLY lemma_a');
  });

  it('Ctrl+G goes to a line', async () => {
    await page.click('.monaco-editor .view-lines');
    await page.keyboard.press('Control+g');
    await page.waitForSelector('.quick-input-widget input');
    await page.keyboard.type('1');
    await page.keyboard.press('Enter');
    // The cursor is now at the start of line 1: what is typed lands there.
    await page.keyboard.type('// top ');
    const first = () => page.evaluate(() => (document.querySelector('.monaco-editor .view-line')?.textContent ?? '').replace(/\u00a0/g, ' '));
    await expect.poll(first).toBe('// top GOAL lemma_a "True"');
    await page.keyboard.press('Control+z');
  });

  it('keeps unsaved edits across a reload (autosave to a recovery file)', async () => {
    await page.locator('[data-testid="doc-tab"] button', { hasText: '02-fold-left-right.arbor' }).click();
    await page.click('.monaco-editor .view-lines');
    await page.keyboard.press('Control+End');
    await page.keyboard.type('\n// unsaved note');
    // Reload at once (well within 100 ms of the last key): every change is on its way to the recovery store.
    await page.reload();
    await page.waitForSelector('.monaco-editor .view-line');
    await page.locator('[data-testid="doc-tab"] button', { hasText: '02-fold-left-right.arbor' }).click();
    await expect.poll(async () => (await page.locator('.view-line').allTextContents()).join('\n').replace(/\u00a0/g, ' ')).toContain('// unsaved note');
    await shot('07-recovered-after-reload');
  });

  it('two tabs with untitled buffers keep both texts (each window has its own untitled ids)', async () => {
    const second = await (session as E2eSession).newTab();
    try {
      for (const [p, text] of [[page, '// first tab'], [second, '// second tab']] as const) {
        await p.goto(`${workbench.url}&new=1`);
        await p.waitForSelector('.monaco-editor .view-line');
        await p.click('[data-testid="new"]');
        await p.click('.monaco-editor .view-lines');
        await p.keyboard.type(text);
      }
      await second.close();
      await page.reload();
      await page.waitForSelector('.monaco-editor .view-line');
      // Both buffers come back (each window's untitled ids are its own); read each as the editor shows it.
      const tabs = page.locator('[data-testid="doc-tab"]', { hasText: 'Untitled' });
      await expect.poll(() => tabs.count()).toBeGreaterThanOrEqual(2);
      const texts: string[] = [];
      for (const uri of await tabs.evaluateAll((els) => els.map((e) => e.getAttribute('data-uri') ?? ''))) {
        await page.locator(`[data-testid="doc-tab"][data-uri="${uri}"] button`).first().click();
        await page.waitForSelector(`[data-testid="editor"][data-uri="${uri}"]`);
        // Monaco draws a new model's lines on its next animation frames.
        await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
        texts.push((await page.locator('.view-line').allTextContents()).join('\n').replace(/\u00a0/g, ' '));
      }
      expect(texts.join('\n')).toContain('// first tab');
      expect(texts.join('\n')).toContain('// second tab');
    } finally {
      if (!second.isClosed()) await second.close();
    }
  });

  it('opens an example through the in-app open dialog', async () => {
    await page.click('[data-testid="open"]');
    await page.click('[data-testid="examples"]');
    await page.locator('[data-testid="file-entry"]', { hasText: '12-nested-have.arbor' }).click();
    await expect.poll(() => page.locator('[data-testid="doc-tab"]').allTextContents()).toContain('12-nested-have.arbor×');
    await page.click('[data-testid="run-all"]');
    await expect.poll(async () => nodes().first().getAttribute('data-status'), { timeout: 120_000 }).toBe('proved');
    await page.click('[data-testid="tab-channels"]');
    // Channel 0 and this document's; the channels of documents lost in the reload were released.
    await expect.poll(() => page.locator('[data-testid="channel-row"]').allTextContents()).toEqual(expect.arrayContaining([expect.stringContaining('12-nested-have.arbor')]));
    const rows = await page.locator('[data-testid="channel-row"]').allTextContents();
    expect(rows.filter((r) => !/\.arbor(Restart|Release)$/.test(r) && !/^0coq/.test(r))).toEqual([]);
    // Each prover's memory (and CPU) is sampled from the host.
    const row = page.locator('[data-testid="channel-row"]', { hasText: '12-nested-have.arbor' });
    await expect.poll(() => row.locator('[data-testid="channel-memory"]').textContent(), { timeout: 10_000 }).toMatch(/^\d+ MB$/);
    await expect.poll(() => row.locator('[data-testid="channel-cpu"]').textContent(), { timeout: 10_000 }).toMatch(/^\d+ %$/);
    await shot('10-second-example-channels');
    // Restart: a fresh prover, the checked lines replayed, the proof still finished.
    const before = await row.locator('td').first().textContent();
    await row.locator('[data-testid="channel-restart"]').click();
    await expect.poll(async () => page.locator('[data-testid="channel-row"]', { hasText: '12-nested-have.arbor' }).locator('td').first().textContent(), { timeout: 60_000 }).not.toBe(before);
    await expect.poll(async () => nodes().first().getAttribute('data-status'), { timeout: 120_000 }).toBe('proved');
  });

  it('runs to the cursor: a mid-proof tree with OBTAIN witnesses as context chips', async () => {
    await page.click('[data-testid="open"]');
    await page.click('[data-testid="examples"]');
    await page.locator('[data-testid="file-entry"]', { hasText: '11-obtain-exists.arbor' }).click();
    await expect.poll(() => page.locator('[data-testid="doc-tab"]').allTextContents()).toContain('11-obtain-exists.arbor×');
    await page.click('[data-testid="tab-transcript"]');
    await page.locator('.view-line', { hasText: 'APPLY (exists 1; split; lia)' }).click();
    await page.click('[data-testid="run-to-cursor"]');
    // Checked through the cursor line (5), not beyond: the OBTAIN block is open, its goal proved.
    await expect.poll(async () => (await page.locator('[data-testid="tx-request"]').allTextContents()).some((t) => t.includes('exists 1')), { timeout: 60_000 }).toBe(true);
    await expect.poll(() => nodes().evaluateAll((els) => els.map((e) => e.getAttribute('data-status'))), { timeout: 60_000 }).toEqual(['bundle', 'proved', 'open']);
    const sent = await page.locator('[data-testid="tx-request"]').allTextContents();
    expect(sent.some((t) => /exists k; split; assumption/.test(t))).toBe(false);
    await page.waitForTimeout(500);
    await shot('11-run-to-cursor-obtain');
    // One line further (the block's END): the witness and both named conditions join the main goal's context.
    await page.locator('.view-line', { hasText: /^\s*END\s*$/ }).first().click();
    await page.click('[data-testid="run-to-cursor"]');
    await expect.poll(() => nodes().count(), { timeout: 60_000 }).toBe(1);
    await expect.poll(() => page.locator('[data-testid="inspector-context"]').textContent()).toMatch(/k\s*:\s*nat[\s\S]*Hlt\s*:\s*k < n[\s\S]*Hpos/);
    await page.waitForTimeout(500);
    await shot('11b-obtain-closed');
  });

  it('raised no console errors or CSP violations', () => {
    expect(consoleErrors.filter((e) => !/favicon/.test(e))).toEqual([]);
  });
});
