import { DocumentSessions } from '../main/host/document-sessions.ts';
import { Shell } from '../main/shell/shell.ts';
import { createProverEngineFactory, loadBackend } from '../main/supervisor/engine-factory.ts';
import type { BenchRow } from './bench-table.ts';
import { printTable, writeResults } from './bench-table.ts';

/**
 * Issue 11 / BRIEF §4: a 300-item document of 50 lemmas, each with its own declaration, opened in the
 * host's document session over the real shell and coqidetop: opening checks it to the end; editing item k
 * re-checks only items ≥ k. Reports the requests an edit sent and the time each took.
 */
function document(): string[] {
  const lines: string[] = [];
  for (let i = 1; i <= 50; i++) {
    lines.push(`DEFINE "Definition f${i} (n : nat) := n + ${i}."`);
    lines.push(`GOAL f${i}_comm "forall n, f${i} n = ${i} + n"`);
    lines.push('    APPLY intro n');
    lines.push(`    APPLY (unfold f${i}; lia)`);
    lines.push('END');
    // Every lemma after the first uses the one before it.
    lines.push(i === 1 ? 'CHECK f1_comm' : `CHECK (f${i - 1}_comm 0)`);
  }
  return lines;
}

export async function runIncrementalCheckBench(): Promise<{ rows: BenchRow[]; raw: unknown }> {
  const factory = createProverEngineFactory(await loadBackend('coq'), { backend: 'coq', timeoutMs: 20_000, poolSize: 0 });
  const shell = new Shell({ createEngine: (channel, prelude) => factory.createEngine(channel, prelude) });
  const sent: string[] = [];
  shell.onEvent((e) => {
    if (e.kind === 'request') sent.push(e.text);
  });
  const docs = new DocumentSessions({ shell, emit: () => undefined, recheckDelayMs: 0 });
  const lines = document();
  const rows: BenchRow[] = [];
  const raw: Record<string, unknown> = {};
  try {
    let t0 = performance.now();
    docs.sync('bench', 'doc', { version: 1, text: lines.join('\n') });
    const opened = await docs.run('bench', 'doc', { kind: 'all' });
    const openMs = performance.now() - t0;
    rows.push({ what: 'open a 300-item document (50 lemmas): checked to the end', value: opened.check.entries.length, unit: 'items', target: '300', ok: opened.check.entries.length === 300 && opened.check.error === undefined, detail: `${(openMs / 1000).toFixed(1)} s` });
    let version = 1;
    for (const k of [2, 150, 299]) {
      sent.length = 0;
      lines[k - 1] = `${lines[k - 1]} `;
      t0 = performance.now();
      docs.sync('bench', 'doc', { version: ++version, text: lines.join('\n'), edit: { firstLine: k, lineDelta: 0 } });
      const after = await docs.idle('bench', 'doc');
      const ms = performance.now() - t0;
      const items = sent.filter((s) => !/ (REVERT|CANCEL)\b|NEW_CHANNEL/.test(s));
      // The first item re-sent is the edited one (nothing above it).
      const fromEdit = items[0]?.endsWith((lines[k - 1] as string).trim()) === true;
      raw[`edit-${k}`] = { first: sent.slice(0, 2), ms };
      rows.push({
        what: `edit item ${k} of 300: items re-checked`, value: items.length, unit: 'items', target: `${301 - k} (items ≥ ${k})`,
        ok: items.length === 301 - k && fromEdit && after.check.entries.length === 300, detail: `${ms.toFixed(0)} ms; first request: ${sent[0] ?? ''}`,
      });
    }
    raw.openMs = openMs;
  } finally {
    await shell.close();
    await factory.dispose();
  }
  return { rows, raw };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { rows, raw } = await runIncrementalCheckBench();
  printTable('incremental re-checking (host document session, real Coq)', rows);
  process.stderr.write(`bench: results: ${await writeResults('incremental-check', { date: new Date().toISOString(), rows, raw })}\n`);
}
