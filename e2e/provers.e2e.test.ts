import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WebWorkbench } from '../main/host/web-workbench.ts';
import { findExecutable } from '../main/process/find-executable.ts';
import { ARTIFACTS, HAVE_CHROMIUM, startE2eSession } from './e2e-support.ts';
import type { E2eSession } from './e2e-support.ts';

let session: E2eSession | undefined;
let page: Page;
let workbench: WebWorkbench;
let userDir: string;
const coqInstalled = findExecutable('coqidetop.opt') !== undefined || findExecutable('coqidetop') !== undefined;

beforeAll(async () => {
  if (!HAVE_CHROMIUM) return;
  // The page reports detection on the host; the shell itself runs over the test double (no prover needed).
  session = await startE2eSession(false);
  ({ workbench, userDir, page } = session);
}, 180_000);

afterAll(async () => {
  await session?.close();
});

describe.skipIf(!HAVE_CHROMIUM)('Provers page', () => {
  it('shows each backend found or not, with versions and fixes, and saves validated settings', async () => {
    await page.goto(workbench.url);
    await page.click('[data-testid="open-provers"]');
    const coq = page.locator('[data-testid="prover-coq"]');
    const lean = page.locator('[data-testid="prover-lean"]');
    await expect.poll(() => coq.locator('[data-testid="prover-state"]').textContent(), { timeout: 20_000 }).toBe(coqInstalled ? 'found' : 'not found');
    if (coqInstalled) expect(await coq.locator('[data-testid="prover-version"]').first().textContent()).toMatch(/version \d+\.\d+/);
    if (!findExecutable('pantograph-repl')) {
      expect(await lean.locator('[data-testid="prover-state"]').textContent()).toBe('not found');
      expect((await lean.locator('[data-testid="prover-fix"]').allTextContents()).join('\n')).toMatch(/Pantograph not found \('pantograph-repl'\): build Pantograph/);
    }
    expect(await lean.textContent()).toMatch(/Never run against a real Lean here/);
    expect(await page.locator('[data-testid="prover-isabelle"]').textContent()).toMatch(/Never run against a real Isabelle/);
    expect(await page.locator('[data-testid="provers-shell-note"]').textContent()).toMatch(/runs one backend, chosen when it starts: coq/);
    // Whether provers run sandboxed is said on the page (this machine has bubblewrap).
    expect(await page.locator('[data-testid="provers-sandbox"]').textContent()).toMatch(/^sandbox: on \(bubblewrap/);

    // A bad memory cap is refused with the setting named; good values are stored per user.
    await page.fill('[data-testid="setting-lean.memoryMb"]', '12');
    await page.click('[data-testid="save-provers"]');
    await expect.poll(() => page.locator('[data-testid="provers-status"]').textContent()).toMatch(/lean\.memoryMb/);
    // A program to run is never stored from the browser: the page says where it goes instead.
    await page.fill('[data-testid="setting-lean.memoryMb"]', '4096');
    await page.fill('[data-testid="setting-lean.pantograph"]', '/opt/pantograph/repl');
    await page.click('[data-testid="save-provers"]');
    await expect.poll(() => page.locator('[data-testid="provers-status"]').textContent()).toMatch(/lean\.pantograph: a program to run is never set through this page/);
    await page.fill('[data-testid="setting-lean.pantograph"]', '');
    await page.fill('[data-testid="setting-lean.imports"]', 'Init Mathlib');
    await page.click('[data-testid="save-provers"]');
    await expect.poll(() => page.locator('[data-testid="provers-status"]').textContent()).toMatch(/^Saved/);
    const saved = JSON.parse(await readFile(join(userDir, 'settings.json'), 'utf8')) as Record<string, unknown>;
    expect(saved).toMatchObject({ 'lean.memoryMb': 4096, 'lean.imports': 'Init Mathlib' });
    expect(saved['lean.pantograph']).toBeUndefined();
    // The user's own settings file does name programs; detection uses it.
    await writeFile(join(userDir, 'settings.json'), JSON.stringify({ ...saved, 'lean.pantograph': '/opt/pantograph/repl' }));
    await page.click('text=Detect again');
    await expect.poll(() => lean.locator('[data-testid="prover-fix"]').allTextContents()).toContainEqual(expect.stringMatching(/Pantograph not found \('\/opt\/pantograph\/repl'\)/));
    await writeFile(join(userDir, 'settings.json'), JSON.stringify({}));
    await page.click('text=Detect again');
    await expect.poll(() => lean.locator('[data-testid="prover-fix"]').allTextContents()).toContainEqual(expect.stringMatching(/Pantograph not found \('pantograph-repl'\)/));
    await page.screenshot({ path: join(ARTIFACTS, '31-provers.png') });
  }, 60_000);
});
