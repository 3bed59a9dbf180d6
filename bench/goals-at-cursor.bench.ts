import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { launchChromium } from '../e2e/e2e-support.ts';
import { startWebWorkbench } from '../main/host/web-workbench.ts';
import type { BenchRow } from './bench-table.ts';
import { printTable, writeResults } from './bench-table.ts';

/**
 * Goals at the cursor (issue 23): a 300-line document of 50 lemmas is checked by real Coq in the web
 * workbench; then the cursor visits every line (↓ from the top, and clicks on lines in view) and the bench
 * reads, for each, the time from the key or mouse event to the frame that shows that line's goals. The
 * WebSocket frames the page sends meanwhile are counted: the goals come from the renderer's own copies.
 */
function fiftyLemmas(): string[] {
  const lines: string[] = [];
  for (let i = 1; i <= 50; i++) {
    lines.push(`DEFINE "Definition f${i} (n : nat) := n + ${i}."`);
    lines.push(`GOAL f${i}_comm "forall n m, f${i} n + m = ${i} + n + m"`);
    lines.push('    APPLY (intros n m)');
    lines.push(`    APPLY (unfold f${i})`);
    lines.push('    APPLY lia');
    lines.push('END');
  }
  return lines;
}

interface Hook { __arborPerf?: { goalsShown?: { line: number; at: number } }; __inputAt?: number; __wsSent?: number }

const shownLine = (page: Page): Promise<number> => page.evaluate(() => (window as unknown as Hook).__arborPerf?.goalsShown?.line ?? 0);

async function latency(page: Page, line: number, act: () => Promise<void>): Promise<number> {
  await act();
  try {
    await page.waitForFunction((l) => (window as unknown as Hook).__arborPerf?.goalsShown?.line === l, line, { timeout: 10_000, polling: 'raf' });
  } catch {
    // Say where the cursor went instead, and go on: a missing sample is reported, not fatal.
    const shown = await shownLine(page);
    const panel = await page.locator('[data-testid="goals-panel"]').getAttribute('data-line');
    process.stderr.write(`bench: line ${line}: goals shown for line ${shown}, panel at ${panel}\n`);
    return NaN;
  }
  return page.evaluate(() => {
    const w = window as unknown as Hook;
    return (w.__arborPerf?.goalsShown?.at ?? NaN) - (w.__inputAt ?? NaN);
  });
}

const quantile = (xs: number[], q: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? NaN;
};

export async function runGoalsAtCursorBench(log: (s: string) => void = () => undefined): Promise<{ rows: BenchRow[]; raw: unknown }> {
  const base = await mkdtemp(join(tmpdir(), 'arbor-goals-'));
  const workbench = await startWebWorkbench({ backend: 'coq', workspace: base, userDir: join(base, 'user'), timeoutMs: 120_000, log });
  const browser = await launchChromium();
  try {
    const page = await browser.newPage({ viewport: { width: 1500, height: 920 } });
    // Count what the page sends to the host, and when each key or click began.
    await page.addInitScript(() => {
      const w = window as unknown as Hook;
      w.__wsSent = 0;
      const send = WebSocket.prototype.send;
      WebSocket.prototype.send = function (this: WebSocket, data: Parameters<WebSocket['send']>[0]) {
        w.__wsSent = (w.__wsSent ?? 0) + 1;
        send.call(this, data);
      };
      for (const type of ['keydown', 'mousedown']) window.addEventListener(type, () => { w.__inputAt = performance.now(); }, true);
    });
    const lines = fiftyLemmas();
    const file = join(base, 'fifty-lemmas.arbor');
    await writeFile(file, `${lines.join('\n')}\n`);
    await page.goto(`${workbench.url}&open=${encodeURIComponent(file)}`);
    await page.waitForSelector('.monaco-editor .view-line');
    const t0 = Date.now();
    await page.click('[data-testid="run-all"]');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="problem"][data-kind="proved"]').length === 50, undefined, { timeout: 1_800_000, polling: 500 });
    log(`checked 300 lines (50 lemmas) in ${((Date.now() - t0) / 1000).toFixed(1)} s`);

    await page.click('.monaco-editor .view-lines');
    await page.keyboard.press('Control+Home');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowLeft');
    await page.waitForFunction(() => (window as unknown as Hook).__arborPerf?.goalsShown?.line === 1, undefined, { timeout: 10_000 });
    const sentBefore = await page.evaluate(() => (window as unknown as Hook).__wsSent ?? 0);
    const keys: number[] = [];
    for (let line = 2; line <= lines.length; line++) keys.push(await latency(page, line, () => page.keyboard.press('ArrowDown')));
    // Clicks: the lines in view now (the end of the document), each clicked once.
    const clicks: number[] = [];
    const visible = await page.evaluate(() => [...document.querySelectorAll('.monaco-editor .line-numbers')].map((e) => Number(e.textContent)).filter((n) => n > 0));
    for (const line of visible.filter((n) => n !== (lines.length)).slice(0, 25)) {
      const box = await page.locator('.monaco-editor .line-numbers', { hasText: new RegExp(`^${line}$`) }).boundingBox();
      if (!box) continue;
      clicks.push(await latency(page, line, () => page.mouse.click(box.x + box.width + 60, box.y + box.height / 2)));
    }
    const sent = (await page.evaluate(() => (window as unknown as Hook).__wsSent ?? 0)) - sentBefore;
    log(`last line shown: ${await shownLine(page)}; frames sent to the host while moving: ${sent}`);
    const missed = [...keys, ...clicks].filter((x) => Number.isNaN(x)).length;
    keys.splice(0, keys.length, ...keys.filter((x) => !Number.isNaN(x)));
    clicks.splice(0, clicks.length, ...clicks.filter((x) => !Number.isNaN(x)));
    const all = [...keys, ...clicks];
    const rows: BenchRow[] = [
      { what: 'goals at the cursor, ↓ through 300 lines: p50', value: quantile(keys, 0.5), unit: 'ms' },
      { what: 'goals at the cursor, ↓ through 300 lines: p95', value: quantile(keys, 0.95), unit: 'ms', target: '≤ 50', ok: quantile(keys, 0.95) <= 50, detail: `max ${Math.max(...keys).toFixed(1)} ms` },
      { what: `goals at the cursor, click on a checked line (${clicks.length}): p95`, value: quantile(clicks, 0.95), unit: 'ms', target: '≤ 50', ok: quantile(clicks, 0.95) <= 50, detail: `p50 ${quantile(clicks, 0.5).toFixed(1)} ms, max ${Math.max(...clicks).toFixed(1)} ms` },
      { what: 'cursor moves whose goals never showed', value: missed, unit: 'moves', target: '0', ok: missed === 0 },
      { what: 'frames sent to the host while the cursor moved', value: sent, unit: 'frames', target: '0 (no prover round trip)', ok: sent === 0 },
    ];
    return { rows, raw: { keys, clicks, sent, samples: all.length } };
  } finally {
    await browser.close();
    await workbench.close();
    await rm(base, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { rows, raw } = await runGoalsAtCursorBench((s) => process.stderr.write(`bench: ${s}\n`));
  printTable('goals at the cursor: input → goals on screen (real Coq, Chromium)', rows);
  process.stderr.write(`bench: results: ${await writeResults('goals-at-cursor', { date: new Date().toISOString(), rows, raw })}\n`);
}
