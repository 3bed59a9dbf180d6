import type { ShellResponse } from '../shared/protocol/shell-command.ts';
import { splitRequests } from '../shared/protocol/split-requests.ts';
import { Checker } from '../renderer/services/checker.ts';
import { createArborStore } from '../renderer/store/store.ts';
import type { BenchRow } from './bench-table.ts';
import { printTable, writeResults } from './bench-table.ts';

/**
 * BRIEF §4: editing line k of a 300-line script re-sends only lines ≥ k. Drives the workbench's real
 * checker against a counting stand-in for the host and reports what an edit of line k sent.
 */
export async function runIncrementalCheckBench(): Promise<{ rows: BenchRow[]; raw: unknown }> {
  const lines = ['GOAL "P"', ...Array.from({ length: 298 }, (_, i) => `APPLY t${i + 2}`), 'END'];
  const sent: string[] = [];
  let step = 0;
  const submit = async (line: string): Promise<ShellResponse[]> => splitRequests(line).map((r) => r.text.trim()).map((req) => {
    sent.push(req);
    if (req === 'NEW_CHANNEL') return { CHANNEL: 0, RESPONSE: { ID: 1 }, ERR: '' };
    const revert = /REVERT (\d+)$/.exec(req);
    step = revert ? Number(revert[1]) : req.includes('GOAL') ? 1 : step + 1;
    return { CHANNEL: 1, RESPONSE: {}, ERR: '', STEP: step };
  });
  const store = createArborStore();
  store.getState().addDocument({ uri: 'bench', title: 'bench', dirty: false });
  const checker = new Checker({ store, submit, lines: () => lines, recheckDelayMs: 0 });
  await checker.runAll('bench');
  const rows: BenchRow[] = [];
  const raw: Record<number, string[]> = {};
  for (const k of [2, 150, 299]) {
    sent.length = 0;
    lines[k - 1] = `${lines[k - 1]} `;
    await checker.edited('bench', k, 0);
    await new Promise((r) => setTimeout(r, 20));
    await checker.runAll('bench');
    const proof = sent.filter((s) => !/REVERT|NEW_CHANNEL/.test(s));
    const lowest = Math.min(...proof.map((s) => lines.findIndex((l) => `1 ${l.trim()}` === s) + 1));
    raw[k] = sent.slice(0, 3);
    rows.push({ what: `edit line ${k} of 300: lines re-sent`, value: proof.length, unit: 'lines', target: `${301 - k} (lines ≥ ${k})`, ok: proof.length === 301 - k && lowest === k, detail: `first request: ${sent[0]}` });
  }
  return { rows, raw };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { rows, raw } = await runIncrementalCheckBench();
  printTable('incremental re-checking (workbench checker)', rows);
  process.stderr.write(`bench: results: ${await writeResults('incremental-check', { date: new Date().toISOString(), rows, raw })}\n`);
}
