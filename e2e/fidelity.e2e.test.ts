import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WebWorkbench } from '../main/host/web-workbench.ts';
import { ARTIFACTS, HAVE_CHROMIUM, coqAvailable, startE2eSession } from './e2e-support.ts';
import type { E2eSession } from './e2e-support.ts';

// The fidelity tiers run plain coqc on the host (whatever the workbench's proof backend is).
const HAVE_COQC = (() => {
  try { execFileSync('coqc', ['--version'], { stdio: 'ignore' }); return true; } catch { return false; }
})();

let session: E2eSession | undefined;
let page: Page;
let workbench: WebWorkbench;

const verdict = () => page.locator('[data-testid="fidelity-verdict"]').getAttribute('data-verdict');
async function check(canonical: string, candidate: string): Promise<void> {
  await page.fill('[data-testid="fidelity-canonical"]', canonical);
  await page.fill('[data-testid="fidelity-candidate"]', candidate);
  await page.click('[data-testid="fidelity-run"]');
  // Progress shows while the host runs the tiers, and goes when the report arrives.
  await expect.poll(() => page.locator('[data-testid="fidelity-run"]').isEnabled(), { timeout: 60_000 }).toBe(true);
}

beforeAll(async () => {
  if (!HAVE_CHROMIUM || !HAVE_COQC) return;
  session = await startE2eSession(await coqAvailable());
  ({ workbench, page } = session);
}, 180_000);

afterAll(async () => {
  await session?.close();
});

describe.skipIf(!HAVE_CHROMIUM || !HAVE_COQC)('Fidelity tab (web host, real coqc)', () => {
  it('an α-equivalent pair is equivalent at S1; a drifted pair is refuted with a counterexample', async () => {
    await page.goto(workbench.url);
    await page.waitForSelector('.monaco-editor .view-line');
    await page.click('[data-testid="tab-fidelity"]');

    await check('forall a b : nat, a + b = b + a', 'forall x y : nat, x + y = y + x');
    expect(await verdict()).toBe('equivalent');
    expect(await page.locator('[data-testid="fidelity-tier"]').textContent()).toBe('tier s1');
    // S0 forms differ in the names (highlighted); S1 forms are the same.
    expect(await page.locator('[data-testid="fidelity-s0-canonical"] .diff').count()).toBeGreaterThan(0);
    expect(await page.locator('[data-testid="fidelity-s1-candidate"] .diff').count()).toBe(0);
    await expect.poll(() => page.locator('[data-testid="fidelity-trace"]').textContent()).toMatch(/s1decided/);

    await check('forall a b : nat, a + b >= a', 'forall a b : nat, a + b <= a');
    expect(await verdict()).toBe('not_equivalent');
    expect(await page.locator('[data-testid="fidelity-tier"]').textContent()).toBe('tier refute');
    expect(await page.locator('[data-testid="fidelity-counterexample"]').textContent()).toMatch(/Counterexample:/);
    expect(await page.locator('[data-testid="fidelity-s1-candidate"] .diff').count()).toBeGreaterThan(0);
    await page.screenshot({ path: join(ARTIFACTS, '30-fidelity.png') });
  }, 120_000);
});
