import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ApiEvent } from '../shared/api/api-contract.ts';
import { createApiService } from '../main/host/api-service.ts';
import { appInfo, createWorkbenchShell } from '../main/host/workbench-shell.ts';
import { Workspace } from '../main/host/workspace.ts';
import type { BenchRow } from './bench-table.ts';
import { printTable, writeResults } from './bench-table.ts';

/**
 * Issue 22: the bytes the host sends to the renderer for a run-all of a 300-line document, on real Coq,
 * through the host's API service exactly as the web host frames them (`{"event": …}` per event, JSON).
 * Reported per event kind, so the `document` events (whose size used to grow with the checked region:
 * O(n²) for a run-all) can be read beside the tree, request and response events.
 */

/** 60 arithmetic facts in the style of the standard library's `Nat` lemmas, five lines each. */
export function arithmeticDocument(lemmas = 60): string[] {
  const statements = [
    (i: number) => [`add_${i}_comm`, `forall n : nat, n + ${i} = ${i} + n`],
    (i: number) => [`mul_${i}_distr`, `forall n m : nat, ${i} * (n + m) = ${i} * n + ${i} * m`],
    (i: number) => [`le_add_${i}`, `forall n : nat, n <= n + ${i}`],
    (i: number) => [`succ_add_${i}`, `forall n : nat, S n + ${i} = S (n + ${i})`],
    (i: number) => [`add_le_mono_${i}`, `forall n m : nat, n <= m -> n + ${i} <= m + ${i}`],
  ];
  const lines: string[] = [];
  for (let i = 1; i <= lemmas; i++) {
    const [name, statement] = (statements[i % statements.length] as (i: number) => string[])(i) as [string, string];
    lines.push(`GOAL ${name} "${statement}"`, '    APPLY intros', '    APPLY lia', 'END', `CHECK ${name}`);
  }
  return lines;
}

interface Tally { events: number; bytes: number }

export async function runDocumentEventsBench(): Promise<{ rows: BenchRow[]; raw: unknown }> {
  const dir = await mkdtemp(join(tmpdir(), 'arbor-doc-events-'));
  const ws = await createWorkbenchShell({ backend: 'coq', timeoutMs: 20_000, poolSize: 0 });
  const workspace = new Workspace({ root: dir, userDir: join(dir, '.user') });
  const service = createApiService({ shell: ws.shell, workspace, info: () => appInfo('web', ws, dir, dir) });
  const byKind = new Map<string, Tally>();
  service.onEvent((event: ApiEvent) => {
    const bytes = Buffer.byteLength(JSON.stringify({ event }));
    const t = byKind.get(event.kind) ?? { events: 0, bytes: 0 };
    byKind.set(event.kind, { events: t.events + 1, bytes: t.bytes + bytes });
  });
  const lines = arithmeticDocument();
  try {
    const t0 = performance.now();
    await service.call('document.sync', { client: 'bench', uri: 'file:///bench.v', version: 1, text: lines.join('\n') });
    const state = await service.call('document.run', { client: 'bench', uri: 'file:///bench.v', action: { kind: 'all' } }) as { check: { entries: unknown[]; error?: unknown } };
    const ms = performance.now() - t0;
    const checked = state.check.entries.length;
    const total = [...byKind.values()].reduce((a, t) => ({ events: a.events + t.events, bytes: a.bytes + t.bytes }), { events: 0, bytes: 0 });
    const kb = (b: number): number => Math.round(b / 102.4) / 10;
    const rows: BenchRow[] = [
      { what: `run-all of a ${lines.length}-line document: lines checked`, value: checked, unit: 'lines', target: String(lines.length), ok: checked === lines.length && state.check.error === undefined, detail: `${(ms / 1000).toFixed(1)} s` },
      { what: 'bytes sent to the renderer, all events', value: kb(total.bytes), unit: 'KiB', detail: `${total.events} events` },
      ...[...byKind.entries()].sort((a, b) => b[1].bytes - a[1].bytes).map(([kind, t]) => ({
        what: `  '${kind}' events`, value: kb(t.bytes), unit: 'KiB', detail: `${t.events} events, ${Math.round(t.bytes / t.events)} B each`,
      })),
    ];
    return { rows, raw: { lines: lines.length, checked, ms, byKind: Object.fromEntries(byKind), total } };
  } finally {
    service.dispose();
    await ws.dispose();
    await rm(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { rows, raw } = await runDocumentEventsBench();
  printTable('document events: bytes to the renderer for a run-all (host API service, real Coq)', rows);
  process.stderr.write(`bench: results: ${await writeResults('document-events', { date: new Date().toISOString(), rows, raw })}\n`);
}
