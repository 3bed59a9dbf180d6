import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WebWorkbench } from '../main/host/web-workbench.ts';
import { ARTIFACTS, HAVE_CHROMIUM, coqAvailable, startE2eSession } from './e2e-support.ts';
import type { E2eSession } from './e2e-support.ts';

/**
 * Issue 11: the editor and an MCP agent are equal clients of one document session. The agent's proof
 * commands become lines of the user's document (inserted after the checked region, checked, taken out
 * again when they fail); the user's own text, checked or not, is never lost.
 */
let session: E2eSession | undefined;
let page: Page;
let workbench: WebWorkbench;
let workspace: string;
let agent: Client | undefined;
let useCoq = false;

const text = (r: unknown): string => ((r as CallToolResult).content[0] as { text: string }).text;
/** The document's text as the editor model holds it (not as rendered: long lines wrap on screen). */
const modelText = (): Promise<string> => page.evaluate(() => {
  // Monaco places its line elements by `top`, not in document order.
  const lines = [...document.querySelectorAll<HTMLElement>('.monaco-editor .view-line')]
    .sort((a, b) => parseFloat(a.style.top) - parseFloat(b.style.top)).map((l) => l.textContent ?? '');
  return lines.join('\n').replace(/\u00a0/g, ' ');
});

beforeAll(async () => {
  if (!HAVE_CHROMIUM) return;
  useCoq = await coqAvailable();
  session = await startE2eSession(useCoq);
  ({ workbench, workspace, page } = session);
  await writeFile(join(workspace, 'shared.arbor'), 'GOAL "forall l : list nat, l ++ [] = l"\n    APPLY intros l\n// the user\'s note, below the proof\n');
}, 180_000);

afterAll(async () => {
  await agent?.close();
  await session?.close();
});

describe.skipIf(!HAVE_CHROMIUM)('an MCP agent and the editor on one document (real Coq)', () => {
  it('the agent\'s commands land in the document after the checked lines; a failed one is not kept; the user\'s text stays', async (ctx) => {
    if (!useCoq) ctx.skip();
    await page.goto(`${workbench.url}&open=${encodeURIComponent(join(workspace, 'shared.arbor'))}`);
    await page.waitForSelector('.monaco-editor .view-line');
    await page.click('[data-testid="run-all"]');
    await expect.poll(() => page.locator('[data-testid="inspector-goal"]').textContent(), { timeout: 60_000 }).toContain('l ++ [] = l');

    agent = new Client({ name: 'e2e-agent', version: '1.0.0' });
    await agent.connect(new StreamableHTTPClientTransport(new URL(workbench.mcp.url), {
      requestInit: { headers: { authorization: `Bearer ${workbench.mcp.token}` } },
    }));
    expect(text(await agent.callTool({ name: 'get_current_proof_state', arguments: {} }))).toContain('l : list nat');

    // A command that fails: the agent gets Coq's error, the user's document does not keep it.
    const failed = await agent.callTool({ name: 'run_command', arguments: { command: 'APPLY reflexivity' } }, undefined, { timeout: 120_000 });
    expect(failed.isError).toBe(true);
    await expect.poll(modelText).not.toContain('reflexivity');
    expect(await modelText()).toContain('// the user\'s note, below the proof');

    // The user types while the agent works: a second note at the end of the document.
    await page.click('.monaco-editor .view-lines');
    await page.keyboard.press('Control+End');
    await page.keyboard.type('\n// typed by the user');

    const done = await agent.callTool({ name: 'run_command', arguments: { command: 'APPLY (induction l; simpl; congruence)' } }, undefined, { timeout: 120_000 });
    expect(done.isError).not.toBe(true);
    // The agent's line follows the checked lines, indented like them; both of the user's notes are still there.
    await expect.poll(modelText, { timeout: 60_000 }).toMatch(/APPLY intros l\n\s+APPLY \(induction l; simpl; congruence\)\n\/\/ the user's note, below the proof\n+\/\/ typed by the user/);
    // It is checked as a line of the document: the tree is finished and the checked region covers it.
    await expect.poll(() => page.locator('[data-testid="tree-node"][data-status="proved"]').count(), { timeout: 60_000 }).toBeGreaterThan(0);
    await expect.poll(() => page.locator('.arbor-checked').count()).toBeGreaterThanOrEqual(3);
    expect(text(await agent.callTool({ name: 'get_script', arguments: {} }))).toMatch(/induction l/);
    await page.screenshot({ path: join(ARTIFACTS, '45-agent-and-editor.png') });
  }, 240_000);
});
