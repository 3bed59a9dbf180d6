import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WebWorkbench } from '../main/host/web-workbench.ts';
import { ARTIFACTS, HAVE_CHROMIUM, coqAvailable, startE2eSession } from './e2e-support.ts';
import type { E2eSession } from './e2e-support.ts';

/**
 * The proof tree people can read (issue 12), in Chromium against real Coq: hypotheses shown where they
 * enter and where they are used, large derivations opened summarised, zoomed-out labels on the path to
 * the current goal, replay back and forth (the editor's history and an MCP agent's transcript), and a
 * false goal's counterexample in Messages, on its box and in the MCP tools' answers.
 */
const ROOT = fileURLToPath(new URL('../', import.meta.url));
let session: E2eSession | undefined;
let page: Page;
let workbench: WebWorkbench;
let workspace: string;
let useCoq = false;

type TreeHook = { __arborTree: { screenRect(id: number): { x: number; y: number; w: number; h: number } | null; centerOn(id: number): void; view(): { k: number; animating: boolean; minFontPx: number | null }; fit(): void } };
const nodes = () => page.locator('[data-testid="tree-node"]');
const attrs = (name: string) => nodes().evaluateAll((els, a) => els.map((e) => e.getAttribute(a) ?? ''), name);
const view = () => page.evaluate(() => (window as unknown as TreeHook).__arborTree.view());
const shot = (name: string) => page.screenshot({ path: join(ARTIFACTS, `${name}.png`) });
/** Two animation frames: what the canvas shows now is what a screenshot takes. */
const frames = () => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
const settled = async (): Promise<void> => {
  await expect.poll(async () => (await view()).animating).toBe(false);
  await frames();
};
const text = (r: unknown): string => ((r as CallToolResult).content[0] as { text: string }).text;

async function openDocument(name: string, body: string): Promise<void> {
  await writeFile(join(workspace, name), body);
  await page.goto(`${workbench.url}&open=${encodeURIComponent(join(workspace, name))}`);
  await page.waitForSelector('.monaco-editor .view-line');
  await expect.poll(() => page.locator('[data-testid="doc-tab"].active').textContent()).toContain(name);
}

beforeAll(async () => {
  if (!HAVE_CHROMIUM) return;
  useCoq = await coqAvailable();
  session = await startE2eSession(useCoq, 'coq', { acceptDownloads: true });
  ({ workbench, page, workspace } = session);
}, 180_000);

afterAll(async () => {
  await session?.close();
});

const FOLD = [
  'GOAL "forall l : list nat, fold_left Nat.add l 0 = fold_right Nat.add 0 l"',
  '    HAVE G "forall (l : list nat) (a : nat), fold_left Nat.add l a = a + fold_right Nat.add 0 l"',
  '        APPLY induction l as [|x l IH]',
  '        NEXT',
  '        APPLY (intros a; simpl; rewrite IH)',
  '        END',
  '    APPLY (intros l; rewrite G)',
  'END',
].join('\n');

/**
 * A proof of three facts `forall a0 … a(n-1) : nat, a0 + … + a(n-1) = a0 + … + a(n-1)`, each by n one-goal
 * `intro` steps and an END: 3n + 6 steps, long closed runs in the derivation.
 */
function introChains(n: number): string {
  const names = Array.from({ length: n }, (_, i) => `a${i}`);
  const sum = names.join(' + ');
  const fact = `(forall ${names.join(' ')} : nat, ${sum} = ${sum})`;
  const chain = [...names.map((a) => `    APPLY (intro ${a})`), '    END'];
  return [`GOAL "${fact} /\\ ${fact} /\\ ${fact}"`, 'APPLY split', ...chain, 'APPLY split', ...chain, ...chain].join('\n');
}

describe.skipIf(!HAVE_CHROMIUM)('the proof tree people can read (Chromium, real Coq)', () => {
  it('a 40-step proof at 1280×720: both views readable after Fit, the current goal whole, exported as SVG and PNG', async (ctx) => {
    if (!useCoq) ctx.skip();
    await page.setViewportSize({ width: 1280, height: 720 });
    try {
      // Three facts, each 12 intro steps and an END, split apart: 42 steps.
      await openDocument('forty.arbor', `${introChains(12)}\n`);
      // Then back in history, into the second fact: the proof unfinished, its current goal deep in the tree.
      await page.click('[data-testid="run-all"]');
      const position = () => page.locator('[data-testid="replay-position"]').textContent();
      await expect.poll(position, { timeout: 300_000 }).toMatch(/^step 42 \(live\)/);
      await page.locator('[data-testid="history-slider"]').fill('22');
      await expect.poll(position).toMatch(/^step 2\d · /);
      for (const mode of ['state', 'derivation'] as const) {
        await page.click(`[data-testid="view-${mode}"]`);
        await expect.poll(async () => (await attrs('data-current')).includes('goal')).toBe(true);
        await page.click('[data-testid="tree-fit"]');
        await settled();
        await expect.poll(async () => (await view()).k).toBeGreaterThan(0);
        const v = await view();
        expect(v.minFontPx ?? 0).toBeGreaterThanOrEqual(9);
        // The current goal's box is on screen whole, not clipped by the pane.
        const current = Number((await attrs('data-id'))[(await attrs('data-current')).indexOf('goal')]);
        const r = (await page.evaluate((id) => (window as unknown as TreeHook).__arborTree.screenRect(id), current))!;
        const pane = (await page.locator('[data-testid="tree-canvas"]').boundingBox())!;
        expect(r.x).toBeGreaterThanOrEqual(pane.x - 1);
        expect(r.y).toBeGreaterThanOrEqual(pane.y - 1);
        expect(r.x + r.w).toBeLessThanOrEqual(pane.x + pane.width + 1);
        expect(r.y + r.h).toBeLessThanOrEqual(pane.y + pane.height + 1);
        await shot(`68-forty-steps-1280x720-${mode}`);
      }
      expect((await attrs('data-action')).filter((a) => /^APPLY \(intro a\d+\)$/.test(a)).length).toBeGreaterThanOrEqual(11);
      // The derivation as pictures: an SVG with the commands on it, a PNG of the whole tree.
      await page.click('[data-testid="export-menu"]');
      const svgDownload = page.waitForEvent('download');
      await page.click('[data-testid="export-svg"]');
      const svgFile = join(ARTIFACTS, '68-forty-steps.svg');
      await (await svgDownload).saveAs(svgFile);
      const svg = await readFile(svgFile, 'utf8');
      expect(svg).toMatch(/^<svg|<\?xml/);
      expect(svg).toContain('by APPLY (intro a0)');
      await page.click('[data-testid="export-menu"]');
      const pngDownload = page.waitForEvent('download');
      await page.click('[data-testid="export-png"]');
      const pngFile = join(ARTIFACTS, '68-forty-steps-export.png');
      await (await pngDownload).saveAs(pngFile);
      const png = await readFile(pngFile);
      expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
      // IHDR: width and height, big-endian, at bytes 16 and 20: the whole tree at twice the size — in the
      // compact layout forty steps stack downwards, far taller than the pane.
      expect(png.readUInt32BE(16)).toBeGreaterThan(1280);
      expect(png.readUInt32BE(20)).toBeGreaterThan(4 * 720);
      await page.click('[data-testid="replay-live"]');
    } finally {
      await page.setViewportSize({ width: 1500, height: 920 });
    }
  }, 420_000);

  it('remembers the panes\' sizes the user dragged, across a reload', async () => {
    const inspector = page.locator('.inspector-panel');
    const before = (await inspector.boundingBox())!.width;
    const handle = (await page.locator('[data-testid="splitter-inspector"]').boundingBox())!;
    await page.mouse.move(handle.x + handle.width / 2, handle.y + handle.height / 2);
    await page.mouse.down();
    for (let i = 1; i <= 10; i++) await page.mouse.move(handle.x + handle.width / 2 - 12 * i, handle.y + handle.height / 2);
    await page.mouse.up();
    await expect.poll(async () => (await inspector.boundingBox())!.width).toBeGreaterThan(before + 80);
    const dragged = (await inspector.boundingBox())!.width;
    // Saved in the user's settings file (not the browser's storage), then restored on the next start.
    await expect.poll(async () => (JSON.parse(await readFile(join(session!.userDir, 'settings.json'), 'utf8').catch(() => '{}')) as Record<string, unknown>)['layout.columns']).toBeDefined();
    await page.reload();
    await page.waitForSelector('.monaco-editor .view-line');
    await expect.poll(async () => Math.abs((await inspector.boundingBox())!.width - dragged)).toBeLessThan(4);
  }, 60_000);

  it('shows each hypothesis where it enters and where a step used it', async (ctx) => {
    if (!useCoq) ctx.skip();
    // FOLD with the inductive step in two commands: IH enters with the step case, `rewrite IH` uses it below.
    await openDocument('flow.arbor', `${FOLD.replace('APPLY (intros a; simpl; rewrite IH)', 'APPLY (intros a; simpl)\n        APPLY (rewrite IH)')}\n`);
    await page.click('[data-testid="run-all"]');
    await expect.poll(async () => nodes().first().getAttribute('data-status'), { timeout: 120_000 }).toBe('proved');
    await page.click('[data-testid="view-derivation"]');
    await expect.poll(() => nodes().count()).toBeGreaterThanOrEqual(7);
    // `rewrite IH` used IH, `rewrite G` used G: the prover's states and the commands say so.
    const uses = await attrs('data-uses');
    expect(uses).toContain('IH');
    expect(uses).toContain('G');
    // `rewrite G` acts on the goal that G entered with: the inspector says so, no arc to itself.
    const ids = await attrs('data-id');
    const select = async (id: number): Promise<void> => {
      await page.evaluate((i) => (window as unknown as TreeHook).__arborTree.centerOn(i), id);
      const r = (await page.evaluate((i) => (window as unknown as TreeHook).__arborTree.screenRect(i), id))!;
      await page.mouse.click(r.x + r.w / 2, r.y + 8);
    };
    await select(Number(ids[uses.indexOf('G')]));
    await expect.poll(() => page.locator('[data-testid="hyp-used"]').allTextContents()).toEqual(['uses G, which entered with this goal']);
    // `rewrite IH` is a step below where IH entered: the link and the arc go there.
    await select(Number(ids[uses.indexOf('IH')]));
    // Named by the step that made the goal IH entered with (the induction), not the command that acted on it later.
    await expect.poll(() => page.locator('[data-testid="hyp-used"]').allTextContents()).toEqual([expect.stringMatching(/^uses IH, which entered at step \d+ \(APPLY induction l as \[\|x l IH\]\)/)]);
    await frames();
    await shot('60-hypothesis-flow');
    // The link selects that node and centres the tree on it.
    await page.evaluate(() => (window as unknown as TreeHook).__arborTree.centerOn(Number(document.querySelector('[data-testid="tree-node"]')?.getAttribute('data-id'))));
    await page.locator('[data-testid="hyp-used"] button').click();
    await expect.poll(() => page.locator('[data-testid="hyp-enters"]').allTextContents()).toContainEqual(expect.stringMatching(/^IH enters here; used by APPLY \(rewrite IH\) \(on the goal of step \d+\)/));
    const entered = Number(await page.locator('[data-testid="inspector"] h3 .muted').first().textContent().then((t) => (t ?? '').replace('#', '').split('.').reduce((a, b) => a * 2 ** 20 + Number(b), 0)));
    const box = (await page.locator('[data-testid="tree-canvas"]').boundingBox())!;
    await expect.poll(async () => {
      const r = await page.evaluate((i) => (window as unknown as TreeHook).__arborTree.screenRect(i), entered);
      return r ? Math.abs(r.x + r.w / 2 - (box.x + box.width / 2)) + Math.abs(r.y + r.h / 2 - (box.y + box.height / 2)) : Infinity;
    }, { timeout: 5_000 }).toBeLessThan(8);
  }, 180_000);

  it('replays the proof back and forth, animated, in the derivation view', async (ctx) => {
    if (!useCoq) ctx.skip();
    await openDocument('fold.arbor', `${FOLD}\n`);
    await page.click('[data-testid="run-all"]');
    await expect.poll(async () => nodes().first().getAttribute('data-status'), { timeout: 120_000 }).toBe('proved');
    await page.click('[data-testid="view-derivation"]');
    const position = () => page.locator('[data-testid="replay-position"]').textContent();
    await expect.poll(position).toMatch(/^step 8 \(live\) · 8\/8$/);
    await page.click('[data-testid="replay-back"]');
    await expect.poll(position).toMatch(/^step 7 · 7\/8$/);
    // Each step's change is animated: nodes move from where they were, new goals grow out of their parent.
    await page.click('[data-testid="replay-back"]');
    await page.click('[data-testid="replay-back"]');
    await expect.poll(position).toMatch(/^step 5 · 5\/8$/);
    await page.click('[data-testid="replay-forward"]');
    await expect.poll(async () => (await view()).animating, { timeout: 5_000, interval: 10 }).toBe(true);
    await settled();
    await expect.poll(position).toMatch(/^step 6 · 6\/8$/);
    expect((await attrs('data-current')).filter((c) => c === 'goal')).toHaveLength(1);
    await shot('61-replay-step-6');
    // Keys on the focused tree: ← and →.
    await page.locator('[data-testid="tree-canvas"]').focus();
    await page.keyboard.press('ArrowLeft');
    await expect.poll(position).toMatch(/^step 5 · /);
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await expect.poll(position).toMatch(/^step 7 · /);
    await page.click('[data-testid="replay-live"]');
    await expect.poll(position).toMatch(/\(live\)/);
  }, 60_000);

  it('opens a large derivation with long closed runs as labelled summaries that a double-click opens', async (ctx) => {
    if (!useCoq) ctx.skip();
    // Three facts, each 24 intro steps and an END: 78 steps, 80 goals.
    await openDocument('long.arbor', `${introChains(24)}\n`);
    await page.click('[data-testid="run-all"]');
    await expect.poll(() => page.locator('[data-testid="replay-position"]').textContent(), { timeout: 420_000 }).toMatch(/^step 78 \(live\)/);
    // A document opened anew starts in the state view.
    await page.click('[data-testid="view-derivation"]');
    await expect.poll(async () => (await attrs('data-summary')).filter((x) => Number(x) >= 20).length).toBe(3);
    const total = Number(await page.locator('.node-count').textContent().then((t) => /(\d+)/.exec(t ?? '')?.[1]));
    expect(total).toBeLessThan(30);
    await page.click('text=Fit');
    await settled();
    expect((await view()).minFontPx).toBeGreaterThanOrEqual(9);
    await shot('62-large-derivation-summarised');
    // A double-click on a summary shows its steps.
    const summaries = await attrs('data-summary');
    const id = Number((await attrs('data-id'))[summaries.findIndex((x) => x !== '')]);
    await page.evaluate((i) => (window as unknown as TreeHook).__arborTree.centerOn(i), id);
    await settled();
    const r = (await page.evaluate((i) => (window as unknown as TreeHook).__arborTree.screenRect(i), id))!;
    await page.mouse.dblclick(r.x + r.w / 2, r.y + 8);
    await expect.poll(() => nodes().count()).toBeGreaterThan(total + 20);
    await settled();
    await shot('63-summary-opened');
  }, 540_000);

  it('zoomed out, the current goal and the path to it keep readable labels', async (ctx) => {
    if (!useCoq) ctx.skip();
    // Back in history, half way through the second fact: the current goal is deep in the tree.
    await page.locator('[data-testid="history-slider"]').fill('40');
    await expect.poll(async () => (await attrs('data-current')).includes('goal')).toBe(true);
    await settled();
    const canvas = (await page.locator('[data-testid="tree-canvas"]').boundingBox())!;
    await page.mouse.move(canvas.x + canvas.width / 2, canvas.y + canvas.height / 2);
    for (let i = 0; i < 12 && (await view()).k > 0.2; i++) {
      await page.mouse.wheel(0, 400);
      await frames();
    }
    expect((await view()).k).toBeLessThan(0.4);
    // Node text is gone at this zoom; the path labels are drawn at 11 px on screen.
    await expect.poll(async () => (await view()).minFontPx).toBe(11);
    await shot('64-zoomed-out-path-labels');
    await page.click('[data-testid="replay-live"]');
  }, 60_000);

  it('a false goal: the counterexample in Messages, on the failed goal, and in the MCP tools\' answers', async (ctx) => {
    if (!useCoq) ctx.skip();
    await openDocument('false.arbor', 'GOAL "forall n : nat, n + n = n"\nEND\n');
    await page.click('[data-testid="tab-messages"]');
    await page.click('[data-testid="run-all"]');
    await expect.poll(() => page.locator('[data-testid="counterexample"]').first().textContent(), { timeout: 120_000 }).toMatch(/Counterexample \(checked by Coq\): n = [1-9]/);
    await expect.poll(() => page.locator('[data-testid="hammer-summary"]').textContent()).toMatch(/^the goal is false: counterexample n = [1-9]/);
    await page.click('[data-testid="view-state"]');
    await expect.poll(() => page.locator('[data-testid="tree-node"][data-current="goal"]').getAttribute('data-note')).toMatch(/^✗ false: counterexample n = [1-9]/);
    expect(await page.locator('[data-testid="tree-node"][data-current="goal"]').getAttribute('data-status')).toBe('failed');
    await settled();
    await shot('65-counterexample');

    // The workbench's MCP endpoint, on this document's proof: try_commands (scratch copies) says the same.
    // (run_command there would add a line to a document that stops at an error: refused, by design.)
    const agent = new Client({ name: 'e2e-refuter', version: '1.0.0' });
    await agent.connect(new StreamableHTTPClientTransport(new URL(workbench.mcp.url), { requestInit: { headers: { authorization: `Bearer ${workbench.mcp.token}` } } }));
    try {
      const tried = text(await agent.callTool({ name: 'try_commands', arguments: { alternatives: [['HAMMER']] } }, undefined, { timeout: 120_000 }));
      const [result] = JSON.parse(tried) as { label: string; hammer?: string }[];
      expect(result?.label).toBe('invalid');
      expect(result?.hammer).toMatch(/^the goal is false: counterexample n = [1-9] \(checked by Coq\)/);
    } finally {
      await agent.close();
    }
    // arbor-mcp with its own shell: run_command's failed HAMMER carries the same report.
    const solo = new Client({ name: 'e2e-refuter-stdio', version: '1.0.0' });
    await solo.connect(new StdioClientTransport({ command: process.execPath, args: ['bin/arbor-mcp.js', '--timeout', '60'], cwd: ROOT, stderr: 'pipe' }));
    try {
      const goal = await solo.callTool({ name: 'run_command', arguments: { command: 'GOAL "forall n : nat, n + n = n"' } }, undefined, { timeout: 120_000 });
      expect(goal.isError, text(goal)).not.toBe(true);
      const run = await solo.callTool({ name: 'run_command', arguments: { command: 'HAMMER' } }, undefined, { timeout: 120_000 });
      expect(run.isError).toBe(true);
      expect(text(run)).toMatch(/\nhammer: the goal is false: counterexample n = [1-9] \(checked by Coq\)/);
    } finally {
      await solo.close();
    }
  }, 300_000);

  it('replays an MCP agent\'s session from its --transcript file, derivation and all', async (ctx) => {
    if (!useCoq) ctx.skip();
    const file = join(workspace, 'agent-session.jsonl');
    const transport = new StdioClientTransport({ command: process.execPath, args: ['bin/arbor-mcp.js', '--timeout', '10', '--transcript', file], cwd: ROOT, stderr: 'pipe' });
    const agent = new Client({ name: 'e2e-agent', version: '1.0.0' });
    await agent.connect(transport);
    const run = async (command: string) => {
      const r = await agent.callTool({ name: 'run_command', arguments: { command } }, undefined, { timeout: 120_000 });
      expect(r.isError, text(r)).not.toBe(true);
    };
    try {
      for (const line of FOLD.split('\n')) await run(line.trim());
    } finally {
      await agent.close();
    }
    // The session's requests and responses, in arbor-shell's transcript format, up to the finishing END.
    const lines = async () => (await readFile(file, 'utf8').catch(() => '')).trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as { request?: string; response?: { STEP?: number; ERR: string } });
    await expect.poll(async () => (await lines()).some((l) => l.response?.STEP === 8 && l.response.ERR === '')).toBe(true);
    expect((await lines()).filter((l) => l.request !== undefined).map((l) => l.request?.replace(/^\d+ /, ''))).toEqual(FOLD.split('\n').map((l) => l.trim()));

    await page.click('[data-testid="tab-transcript"]');
    await page.setInputFiles('[data-testid="transcript-file"]', file);
    await page.click('[data-testid="view-derivation"]');
    const position = () => page.locator('[data-testid="replay-position"]').textContent();
    await expect.poll(position).toMatch(/^step 1 · 1\/8$/);
    for (let i = 0; i < 7; i++) await page.click('[data-testid="replay-forward"]');
    await expect.poll(position).toMatch(/^step 8 · 8\/8$/);
    await expect.poll(async () => new Set(await attrs('data-status'))).toEqual(new Set(['closed']));
    expect(await attrs('data-action')).toContain('APPLY induction l as [|x l IH]');
    await page.click('[data-testid="replay-back"]');
    await page.click('[data-testid="replay-back"]');
    await expect.poll(position).toMatch(/^step 6 · 6\/8$/);
    await expect.poll(async () => (await attrs('data-status')).includes('open')).toBe(true);
    await settled();
    await shot('66-agent-transcript-replay');

    // Its standalone replay page shows the derivation (and the state on request), from file://.
    await page.click('[data-testid="export-menu"]');
    const download = page.waitForEvent('download');
    await page.click('[data-testid="export-replay"]');
    const html = join(ARTIFACTS, '67-agent-replay.html');
    await (await download).saveAs(html);
    const replay = await page.context().newPage();
    try {
      await replay.goto(`file://${html}`);
      await expect.poll(() => replay.locator('#pos').textContent()).toBe('1 / 8');
      expect(await replay.locator('#stage').getAttribute('data-view')).toBe('derivation');
      for (let i = 0; i < 7; i++) await replay.keyboard.press('ArrowRight');
      await expect.poll(() => replay.locator('#label').textContent()).toBe('step 8: END');
      // The derivation's boxes say what acted on each goal.
      expect(await replay.locator('#stage svg text.action').allTextContents()).toContainEqual('by APPLY induction l as [|x l IH]');
      await replay.screenshot({ path: join(ARTIFACTS, '67-agent-replay-page.png') });
      await replay.click('#view-state');
      expect(await replay.locator('#stage').getAttribute('data-view')).toBe('state');
    } finally {
      await replay.close();
    }
  }, 300_000);
});
