import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WebWorkbench } from '../main/host/web-workbench.ts';
import { ARTIFACTS, HAVE_CHROMIUM, coqAvailable, startE2eSession } from './e2e-support.ts';
import type { E2eSession } from './e2e-support.ts';

let session: E2eSession | undefined;
let page: Page;
let workbench: WebWorkbench;
let workspace: string;
let agent: Client;
let useCoq = false;

const PROOF = 'GOAL "forall n : nat, n + 0 = n -> n = n + 0"\n    APPLY intros n H\n';
const text = (r: unknown): string => ((r as CallToolResult).content[0] as { text: string }).text;
const shot = (name: string) => page.screenshot({ path: join(ARTIFACTS, `${name}.png`) });
// Monaco renders spaces as no-break spaces.
// Rendered text, blanks collapsed: a long line wraps on screen with its continuation indented.
const editorText = async () => (await page.locator('.monaco-editor .view-lines').textContent() ?? '').replace(/[\s\u00a0]+/g, ' ');

beforeAll(async () => {
  if (!HAVE_CHROMIUM) return;
  useCoq = await coqAvailable();
  session = await startE2eSession(useCoq);
  ({ workbench, workspace, page } = session);
  await writeFile(join(workspace, 'suggest.arbor'), PROOF);
}, 180_000);

afterAll(async () => {
  await agent?.close();
  await session?.close();
});

describe.skipIf(!HAVE_CHROMIUM)('workbench start-up', () => {
  it('opens an example proof when there is nothing to recover', async () => {
    await page.goto(workbench.url);
    await page.waitForSelector('.monaco-editor .view-line');
    await expect.poll(() => page.locator('[data-testid="doc-tab"]').allTextContents()).toContain('Example 02-fold-left-right.arbor×');
    await expect.poll(editorText).toContain('fold_left');
    await shot('20-start-example');
  });
});

// Needs the real prover: the agent's edit is checked by Coq's hammer on a scratch copy.
describe.skipIf(!HAVE_CHROMIUM)('suggestions from an MCP agent, end to end (real Coq)', () => {
  it('an agent suggests a hypothesis edit; accepting it writes HAVE …; END and changes the tree', async (ctx) => {
    if (!useCoq) ctx.skip();
    await page.goto(`${workbench.url}&open=${encodeURIComponent(join(workspace, 'suggest.arbor'))}`);
    await page.waitForSelector('.monaco-editor .view-line');
    await page.click('[data-testid="run-all"]');
    await expect.poll(() => page.locator('[data-testid="inspector-goal"]').textContent(), { timeout: 60_000 }).toContain('n = n + 0');

    agent = new Client({ name: 'e2e-agent', version: '1.0.0' });
    await agent.connect(new StreamableHTTPClientTransport(new URL(workbench.mcp.url), {
      requestInit: { headers: { authorization: `Bearer ${workbench.mcp.token}` } },
    }));
    expect(text(await agent.callTool({ name: 'get_current_proof_state', arguments: {} }))).toContain('H : n + 0 = n');
    const first = text(await agent.callTool({ name: 'suggest_proof_state_edit', arguments: {
      hypothesisName: 'H', originalValue: 'n + 0 = n', suggestedValue: 'n = n + 0', reason: 'the goal, read off H',
    } }));
    expect(first).toContain('label: valid');

    await page.click('[data-testid="tab-suggestions"]');
    const card = page.locator('[data-testid="suggestion"]').first();
    await expect.poll(() => card.locator('[data-testid="suggestion-source"]').textContent()).toBe('e2e-agent');
    expect(await card.locator('[data-testid="suggestion-label"]').getAttribute('data-label')).toBe('valid');
    expect(await card.locator('[data-testid="suggestion-line"]').textContent()).toBe('HAVE H\' "n = n + 0"; END; APPLY (try (clear H; rename H\' into H))');
    await shot('21-suggestion-from-agent');

    const stepBefore = Number(await page.locator('[data-testid="tree-node"][data-current="goal"]').getAttribute('data-step'));
    await card.locator('[data-testid="accept"]').click();
    await expect.poll(editorText, { timeout: 60_000 }).toContain('HAVE H\' "n = n + 0"; END; APPLY (try (clear H; rename H\' into H))');
    // The tree moves on: the current goal now comes from the new step, with H replaced by its new form.
    await expect.poll(async () => Number(await page.locator('[data-testid="tree-node"][data-current="goal"]').getAttribute('data-step')), { timeout: 60_000 }).toBeGreaterThan(stepBefore);
    await expect.poll(() => page.locator('[data-testid="inspector-context"]').textContent()).toContain('H : n = n + 0');
    expect(await page.locator('[data-testid="inspector-context"]').textContent()).not.toContain('n + 0 = n');
    await expect.poll(() => page.locator('[data-testid="history-entry"][data-outcome="accepted"]').count()).toBe(1);
  }, 120_000);

  it('a second suggestion, rejected, is in the history panel and in get_edit_history; Save writes the history', async (ctx) => {
    if (!useCoq) ctx.skip();
    const second = text(await agent.callTool({ name: 'suggest_proof_state_edit', arguments: {
      hypothesisName: 'H', originalValue: 'n + 0 = n', suggestedValue: '0 + n = n', reason: 'commuted',
    } }));
    expect(second).toContain('queued');
    const card = page.locator('[data-testid="suggestion"]').first();
    await expect.poll(() => card.locator('[data-testid="suggestion-line"]').textContent()).toContain('0 + n = n');
    await card.locator('[data-testid="reject"]').click();
    await expect.poll(() => page.locator('[data-testid="history-entry"][data-outcome="rejected"]').count()).toBe(1);
    expect(await page.locator('[data-testid="suggestion"]').count()).toBe(0);
    const history = text(await agent.callTool({ name: 'get_edit_history', arguments: {} }));
    expect(history).toContain('EDIT HISTORY (2 edits)');
    expect(history).toMatch(/"H : n \+ 0 = n" -> "H : 0 \+ n = n"\n\s+rejected · agent:e2e-agent/);
    await page.waitForTimeout(300);
    await shot('22-suggestions-history');

    await page.click('.monaco-editor .view-lines');
    await page.keyboard.press('Control+s');
    await expect.poll(() => readFile(join(workspace, 'suggest.arbor'), 'utf8')).toContain('HAVE H\'');
    // The history is written just after the proof file: wait for it rather than race it.
    const outcomes = async (): Promise<string[]> => {
      try {
        return (JSON.parse(await readFile(join(workspace, 'suggest.arbor.edits.json'), 'utf8')) as { edits: { outcome: string }[] }).edits.map((e) => e.outcome);
      } catch {
        return [];
      }
    };
    await expect.poll(outcomes, { timeout: 10_000 }).toEqual(['accepted', 'rejected']);
  }, 120_000);

  it('undoing the accepted line in the editor (Ctrl+Z) is recorded in the edit history', async (ctx) => {
    if (!useCoq) ctx.skip();
    await page.click('.monaco-editor .view-lines');
    await page.keyboard.press('Control+z');
    await expect.poll(editorText).not.toContain('HAVE H\' "n = n + 0"');
    await expect.poll(() => page.locator('[data-testid="history-entry"][data-outcome="undone"]').count()).toBe(1);
    const history = text(await agent.callTool({ name: 'get_edit_history', arguments: {} }));
    expect(history).toMatch(/"H : n \+ 0 = n" -> "H : n = n \+ 0"\n\s+undone · agent:e2e-agent · [^\n]* · undone in the editor/);
  }, 120_000);
});
