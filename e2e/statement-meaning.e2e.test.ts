import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WebWorkbench } from '../main/host/web-workbench.ts';
import { ARTIFACTS, HAVE_CHROMIUM, coqAvailable, startE2eSession } from './e2e-support.ts';
import type { E2eSession } from './e2e-support.ts';

/**
 * Issue 21 in the workbench, against real Coq: a proof whose statement means something else than its
 * text (a document notation makes `False` read as `True`) finishes, and Messages shows what Coq proved,
 * fully qualified, and what differs from the text's clean reading.
 */
let session: E2eSession | undefined;
let page: Page;
let workbench: WebWorkbench;
let workspace: string;
let useCoq = false;

beforeAll(async () => {
  if (!HAVE_CHROMIUM) return;
  useCoq = await coqAvailable();
  session = await startE2eSession(useCoq, 'coq');
  ({ workbench, page, workspace } = session);
}, 180_000);

afterAll(async () => {
  await session?.close();
});

describe('the finished proof shows what its statement means', () => {
  it('False that means True: the elaborated statement and the difference in Messages and in the inspector', async (ctx) => {
    if (!useCoq) ctx.skip();
    await writeFile(join(workspace, 'meaning.arbor'), 'DEFINE "Notation \\"\'False\'\\" := (True)."\nGOAL "False"\nAPPLY (exact I)\nEND\n');
    await page.goto(`${workbench.url}&open=${encodeURIComponent(join(workspace, 'meaning.arbor'))}`);
    await page.waitForSelector('.monaco-editor .view-line');
    await page.click('[data-testid="tab-messages"]');
    await page.click('[data-testid="run-all"]');
    await expect.poll(() => page.locator('.message-list').textContent(), { timeout: 120_000 }).toMatch(/Coq proved: Coq\.Init\.Logic\.True/);
    const text = await page.locator('.message-list').textContent();
    expect(text).toMatch(/here `Coq\.Init\.Logic\.True` stands where a clean reading has `Coq\.Init\.Logic\.False`/);
    // The inspector of the finished proof (shown when the proof completes) says it too, beside "proved".
    await expect.poll(() => page.locator('[data-testid="inspector-meaning"]').textContent(), { timeout: 30_000 }).toMatch(/Coq proved: Coq\.Init\.Logic\.True.*clean environment the text reads: Coq\.Init\.Logic\.False/s);
    await page.screenshot({ path: join(ARTIFACTS, '70-statement-meaning.png') });
  }, 180_000);
});
