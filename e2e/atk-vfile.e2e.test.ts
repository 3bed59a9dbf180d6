import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WebWorkbench } from '../main/host/web-workbench.ts';
import { ARTIFACTS, HAVE_CHROMIUM, coqAvailable, startE2eSession } from './e2e-support.ts';
import type { E2eSession } from './e2e-support.ts';

/**
 * Attacks on `.v` files in the workbench (atk-vfile; real Coq, Chromium): a goal put aside with `shelve`
 * is never drawn proved; an anonymous `Goal` resting on an admitted lemma says so in the theorem list; a
 * very long or double-width theorem name stays inside the `.v file` tab.
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

describe.skipIf(!HAVE_CHROMIUM)('.v files under attack (real Coq, Chromium)', () => {
  it('draws a goal put aside with shelve as open, and the proof above it not proved', async (ctx) => {
    if (!useCoq) ctx.skip();
    const file = join(workspace, 'shelved.v');
    await writeFile(file, 'Lemma x : False /\\ True.\nProof.\n  split.\n  shelve.\n  exact I.\nAdmitted.\n');
    await page.goto(`${workbench.url}&open=${encodeURIComponent(file)}`);
    await expect.poll(() => page.locator('[data-testid="vfile-theorem"]').count(), { timeout: 180_000 }).toBe(1);
    await expect.poll(() => nodes().count()).toBeGreaterThanOrEqual(3);
    const status = await attrs('data-status');
    const action = await attrs('data-action');
    expect(status[action.indexOf('exact I')]).toBe('closed');
    expect(status[action.indexOf('split')]).not.toMatch(/proved|closed/);
    expect(action).not.toContain('shelve');
    expect(status).toContain('open');
    await page.click('text=Fit');
    await page.screenshot({ path: join(ARTIFACTS, 'a1-vfile-shelved.png') });
  }, 300_000);

  it('marks an anonymous Goal resting on an admitted lemma; long and CJK names stay inside the tab', async (ctx) => {
    if (!useCoq) ctx.skip();
    const file = join(workspace, 'names.v');
    const long = `l${'ong_name_'.repeat(40)}`;
    await writeFile(file, `Lemma adm : False. Admitted.\nGoal False. exact adm. Qed.\nLemma ${long} : True. Proof. exact I. Qed.\nLemma 全角の定理名全角の定理名全角の定理名 : True. Proof. exact I. Qed.\n`);
    await page.goto(`${workbench.url}&open=${encodeURIComponent(file)}`);
    await expect.poll(() => page.locator('[data-testid="vfile-theorem"]').count(), { timeout: 180_000 }).toBe(4);
    const items = await page.locator('[data-testid="vfile-theorem"]').allTextContents();
    expect(items[1]).toMatch(/^Goal .*rests on admitted adm \(l\. 1\)/);
    await page.screenshot({ path: join(ARTIFACTS, 'a2-vfile-names.png') });
    // Every Convert button stays inside the panel (a 361-character name pushed it 1,600 px out of view).
    const panel = (await page.locator('[data-testid="vfile-panel"]').boundingBox())!;
    for (const b of await page.locator('[data-testid="vfile-convert"]').all()) {
      const box = (await b.boundingBox())!;
      expect(box.x + box.width).toBeLessThanOrEqual(panel.x + panel.width + 1);
    }
    const steps = (await page.locator('[data-testid="vfile-steps"]').boundingBox())!;
    expect(steps.x + steps.width).toBeLessThanOrEqual(panel.x + panel.width + 1);
  }, 300_000);
});
