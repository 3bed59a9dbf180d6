import { existsSync } from 'node:fs';
import { mkdir, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { TestDoubleProverSession } from '../main/host/testing/test-double-prover.ts';
import type { BackendId } from '../main/shell/prover-session.ts';
import type { WebWorkbench } from '../main/host/web-workbench.ts';
import { startWebWorkbench } from '../main/host/web-workbench.ts';
import { TacticEngine } from '../main/shell/tactic-engine.ts';
import { loadBackend } from '../main/supervisor/engine-factory.ts';

export const ARTIFACTS = join(import.meta.dirname, 'artifacts');
export const CHROMIUM = process.env.ARBOR_CHROMIUM ?? '/usr/bin/chromium';
/** Without a Chromium binary the e2e suites are skipped (with a note), not failed. */
export const HAVE_CHROMIUM = existsSync(CHROMIUM);

/** What the e2e workbench printed on its terminal (a trust confirmation's code, for one). */
export const hostLog: string[] = [];
if (!HAVE_CHROMIUM) process.stderr.write(`[e2e] skipped: no Chromium at ${CHROMIUM} (set ARBOR_CHROMIUM)\n`);

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
  });
}

/** Is the real Coq backend installed and loadable? (Else the e2e tests run over the test double.) */
export async function coqAvailable(): Promise<boolean> {
  if (process.env.ARBOR_E2E_BACKEND === 'double') return false;
  try {
    const backend = await loadBackend('coq');
    return (await backend.check()).available;
  } catch {
    return false;
  }
}

/**
 * The web workbench on a fresh workspace and user dir; the renderer is built if missing or stale.
 * `backend` other than coq (e.g. `eq`, in-process) always runs the real backend.
 */
async function startE2eWorkbench(useCoq: boolean, backend: BackendId = 'coq'): Promise<{ workbench: WebWorkbench; workspace: string; userDir: string }> {
  const base = await mkdtemp(join(tmpdir(), 'arbor-e2e-'));
  const workspace = join(base, 'work');
  const userDir = join(base, 'user');
  await mkdir(workspace, { recursive: true });
  await mkdir(ARTIFACTS, { recursive: true });
  const workbench = await startWebWorkbench({
    backend,
    workspace,
    userDir,
    timeoutMs: 20_000,
    log: (l) => {
      hostLog.push(l);
      process.stderr.write(`[e2e] ${l}\n`);
    },
    ...(useCoq || backend !== 'coq' ? {} : {
      // TEST DOUBLE: only when coqidetop/the Coq backend is missing; the UI flow is the same.
      createEngine: () => new TacticEngine({ backend: 'coq', timeoutMs: 5000, openSession: async () => new TestDoubleProverSession(30) }),
    }),
  });
  return { workbench, workspace, userDir };
}

/** A workbench (as `startE2eWorkbench` starts it) and a Chromium page to drive it; `close` ends both. */
export interface E2eSession {
  workbench: WebWorkbench;
  workspace: string;
  userDir: string;
  page: Page;
  /** Another page (a second browser tab) on the same browser context as `page`. */
  newTab(): Promise<Page>;
  close(): Promise<void>;
}

export async function startE2eSession(useCoq: boolean, backend: BackendId = 'coq', pageOptions: BrowserContextOptions = {}): Promise<E2eSession> {
  const started = await startE2eWorkbench(useCoq, backend);
  const browser = await launchChromium();
  const context = await browser.newContext({ viewport: { width: 1500, height: 920 }, ...pageOptions });
  const page = await context.newPage();
  return {
    ...started,
    page,
    newTab: () => context.newPage(),
    close: async () => {
      await browser.close();
      await started.workbench.close();
    },
  };
}
