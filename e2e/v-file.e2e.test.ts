import { execFile } from 'node:child_process';
import { copyFile, mkdir, writeFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WebWorkbench } from '../main/host/web-workbench.ts';
import { ARTIFACTS, HAVE_CHROMIUM, coqAvailable, hostLog, startE2eSession } from './e2e-support.ts';
import type { E2eSession } from './e2e-support.ts';

/**
 * Issue 24: a public `.v` file (CoqHammer's sqrt2_irrational.v: bullets, braces, nested asserts) opened
 * in the workbench shows each theorem's proof as a derivation to step through, from the file's own
 * sentences run by real Coq; ▶ Convert opens a theorem as an Arbor document that checks.
 */
const FIXTURE = fileURLToPath(new URL('../fixtures/public/coqhammer/sqrt2_irrational.v', import.meta.url));
let session: E2eSession | undefined;
let page: Page;
let workbench: WebWorkbench;
let workspace: string;
let useCoq = false;

const nodes = () => page.locator('[data-testid="tree-node"]');
/** Fit, then wait until the zoom's animation has come to rest (two reads in a row agree). */
async function fit(): Promise<void> {
  await page.click('text=Fit');
  let last = '';
  await expect.poll(async () => {
    const now = await page.evaluate(() => JSON.stringify((document.querySelector('[data-testid="tree-canvas"]') as unknown as { __zoom?: unknown }).__zoom ?? null));
    const same = now === last;
    last = now;
    return same;
  }, { interval: 250 }).toBe(true);
}
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

describe.skipIf(!HAVE_CHROMIUM)('a .v file as derivations (real Coq, Chromium)', () => {
  it('opens, steps through thm_irrational, and converts lem_main into a document that checks', async (ctx) => {
    if (!useCoq) ctx.skip();
    const file = join(workspace, 'sqrt2_irrational.v');
    await copyFile(FIXTURE, file);
    await page.goto(`${workbench.url}&open=${encodeURIComponent(file)}`);
    const theorems = page.locator('[data-testid="vfile-theorem"]');
    await expect.poll(() => theorems.count(), { timeout: 180_000 }).toBe(3);
    expect(await theorems.allTextContents()).toEqual([
      expect.stringMatching(/^lem_0 .*Qed/), expect.stringMatching(/^lem_main .*Qed/), expect.stringMatching(/^thm_irrational .*Qed/),
    ]);
    // The whole proof of thm_irrational: every goal closed, the nested asserts drawn as branches.
    await theorems.nth(2).click();
    await expect.poll(() => nodes().count()).toBeGreaterThan(20);
    expect(new Set(await attrs('data-status'))).toEqual(new Set(['closed']));
    const actions = await attrs('data-action');
    expect(actions.filter((a) => a.startsWith('assert')).length).toBeGreaterThanOrEqual(8);
    expect(actions).toContain('unfold not');
    await fit();
    // Wider than the pane at a readable scale: bring the nested asserts (braces two and three deep) into view.
    const nested = await nodes().evaluateAll((els) => els.find((e) => (e.getAttribute('data-action') ?? '').startsWith('assert (INR (2 * q * q) = INR (p * p))'))?.getAttribute('data-id'));
    expect(nested).toBeDefined();
    await page.evaluate((id) => (window as unknown as { __arborTree: { centerOn(id: number): void } }).__arborTree.centerOn(Number(id)), nested);
    await page.screenshot({ path: join(ARTIFACTS, '80-vfile-derivation.png') });

    // Step back to step 5: the goals so far, the open ones with the current goal marked.
    await page.locator('[data-testid="vfile-slider"]').fill('5');
    await expect.poll(() => page.locator('[data-testid="vfile-step"]').textContent()).toMatch(/^step 5\//);
    await expect.poll(async () => (await attrs('data-status')).includes('open')).toBe(true);
    expect((await attrs('data-current')).filter((c) => c === 'goal')).toHaveLength(1);
    expect(await page.locator('[data-testid="vfile-command"]').textContent()).toMatch(/hauto use: @Rsqr_sqrt/);
    expect(await page.locator('[data-testid="vfile-current-line"]').textContent()).toMatch(/hauto use: @Rsqr_sqrt/);
    await fit();
    await page.screenshot({ path: join(ARTIFACTS, '81-vfile-step.png') });

    // lem_main's bullets: its case split's two branches.
    await theorems.nth(1).click();
    await expect.poll(async () => (await attrs('data-action')).some((a) => a.includes('Nat.eq_dec'))).toBe(true);

    // ▶ Convert: a new document with GOAL/APPLY/NEXT/END that checks to the end.
    await page.locator('[data-testid="vfile-convert"]').nth(1).click();
    await page.waitForSelector('.monaco-editor .view-line');
    await expect.poll(() => page.locator('.monaco-editor .view-lines').textContent()).toMatch(/GOAL\slem_main/);
    await page.click('[data-testid="tab-messages"]');
    await page.click('[data-testid="view-state"]');
    await page.click('[data-testid="run-all"]');
    await expect.poll(async () => nodes().first().getAttribute('data-status'), { timeout: 240_000 }).toBe('proved');
    await page.screenshot({ path: join(ARTIFACTS, '82-vfile-converted.png') });
  }, 600_000);

  it('a _CoqProject: untrusted until the code printed on the host\'s terminal is typed in the page; then a .v file using the library opens', async (ctx) => {
    if (!useCoq) ctx.skip();
    await mkdir(join(workspace, 'theories'), { recursive: true });
    await writeFile(join(workspace, 'theories', 'Defs.v'), 'Definition my_true := True.\nLemma my_true_holds : my_true.\nProof. exact I. Qed.\n');
    await promisify(execFile)('coqc', ['-Q', 'theories', 'MyLib', 'theories/Defs.v'], { cwd: workspace });
    await writeFile(join(workspace, '_CoqProject'), '-Q theories MyLib\n-arg -w -arg -deprecated\n-arg -noinit\n');
    await writeFile(join(workspace, 'use_lib.v'), 'Require Import MyLib.Defs.\nLemma uses_it : my_true /\\ True.\nProof.\n  split.\n  - exact my_true_holds.\n  - exact I.\nQed.\n');
    await page.goto(workbench.url);
    await page.waitForSelector('[data-testid="project-untrusted"]');
    expect(await page.locator('[data-testid="project-untrusted"]').textContent()).toMatch(/not trusted: its _CoqProject.s load paths \(MyLib\) are not used/);
    await page.click('[data-testid="project-trust"]');
    await page.waitForSelector('[data-testid="project-code"]');
    await page.screenshot({ path: join(ARTIFACTS, '83-project-untrusted.png') });
    // A wrong code is refused; the one the host printed on its terminal trusts the workspace.
    await expect.poll(() => hostLog.some((l) => /type this code in the page: \d{6}/.test(l))).toBe(true);
    const code = /type this code in the page: (\d{6})/.exec(hostLog.filter((l) => /type this code/.test(l)).at(-1) ?? '')?.[1] as string;
    await page.fill('[data-testid="project-code"]', code === '000000' ? '111111' : '000000');
    await page.click('[data-testid="project-code-ok"]');
    await expect.poll(() => page.locator('[data-testid="project-error"]').textContent()).toMatch(/wrong code/);
    await page.fill('[data-testid="project-code"]', code);
    await page.click('[data-testid="project-code-ok"]');
    await page.waitForSelector('[data-testid="project-trusted"]');
    await page.goto(`${workbench.url}&open=${encodeURIComponent(join(workspace, 'use_lib.v'))}`);
    await expect.poll(() => page.locator('[data-testid="vfile-theorem"]').count(), { timeout: 120_000 }).toBe(1);
    expect(await page.locator('[data-testid="vfile-theorem"]').textContent()).toMatch(/^uses_it .*Qed/);
    expect(new Set(await attrs('data-status'))).toEqual(new Set(['closed']));
    await fit();
    await page.screenshot({ path: join(ARTIFACTS, '84-project-trusted-vfile.png') });
  }, 300_000);
});
