import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { ApiEvent } from '../shared/api/api-contract.ts';
import { createApiService } from '../main/host/api-service.ts';
import { appInfo, createWorkbenchShell } from '../main/host/workbench-shell.ts';
import { Workspace } from '../main/host/workspace.ts';
import { cleanEnvironment } from '../main/provers/coq/statement-reading.ts';

export interface WorkbenchRun {
  /** Opened on a workbench whose provers had not started: prover start-up and prelude included, as `coqc` pays them. */
  coldMs: number;
  /** The same document checked after start-up (a first line already checked: the channel's prover is up), as `arbor-shell`'s figure. */
  ms: number;
  /** Lines checked in each run (every line, or the bench fails). */
  checked: number;
  /** Events the host sent for the timed run after start-up, framed as the web host frames them (`{"event": …}`). */
  events: number;
  bytes: number;
  /**
   * After that run: the first lemma's proof line edited (the same tactic in one more pair of parentheses) and the
   * document run again — every later line is checked again (Coq's document model drops the states after an edit) —
   * then the last lemma's, which re-checks only itself. Undefined when the document has no APPLY line.
   */
  editFirstMs?: number;
  editLastMs?: number;
}

/**
 * A document opened and checked the way the workbench does it: the host's API service in process
 * (`document.sync`, then `document.run` `all`), every event framed as the web host sends it to the renderer.
 * Each figure starts from a fresh workbench and a fresh clean environment (its readings are cached per
 * process), so no run reuses another's work.
 */
export async function workbenchRun(lines: readonly string[], startLines: number): Promise<WorkbenchRun> {
  const text = lines.join('\n');
  const cold = await onFreshWorkbench(async (call) => {
    const t0 = performance.now();
    await call('document.sync', { client: 'bench', uri: 'file:///cold.v', version: 1, text });
    const state = await call('document.run', { client: 'bench', uri: 'file:///cold.v', action: { kind: 'all' } });
    return { ms: performance.now() - t0, checked: checkedLines(state, lines.length) };
  });
  let tally = { events: 0, bytes: 0 };
  const warm = await onFreshWorkbench(async (call, counted) => {
    const uri = 'file:///warm.v';
    await call('document.sync', { client: 'bench', uri, version: 1, text: lines.slice(0, startLines).join('\n') });
    checkedLines(await call('document.run', { client: 'bench', uri, action: { kind: 'all' } }), startLines);
    counted.events = 0;
    counted.bytes = 0;
    const t0 = performance.now();
    // What the editor sends when lines are added below: the edit, so the checked lines stay.
    await call('document.sync', { client: 'bench', uri, version: 2, text, edit: { firstLine: startLines + 1, lineDelta: lines.length - startLines } });
    const state = await call('document.run', { client: 'bench', uri, action: { kind: 'all' } });
    const ms = performance.now() - t0;
    tally = { ...counted };
    const checked = checkedLines(state, lines.length);
    const applies = lines.flatMap((l, i) => (/^\s*APPLY /.test(l) && i >= startLines ? [i] : []));
    const first = applies[0];
    const last = applies.at(-1);
    if (first === undefined || last === undefined) return { ms, checked };
    let version = 2;
    let now = [...lines];
    const reEdit = async (index: number): Promise<number> => {
      now = now.map((l, i) => (i === index ? l.replace(/APPLY (.*)$/, 'APPLY ($1)') : l));
      version++;
      const t1 = performance.now();
      await call('document.sync', { client: 'bench', uri, version, text: now.join('\n'), edit: { firstLine: index + 1, lineDelta: 0 } });
      checkedLines(await call('document.run', { client: 'bench', uri, action: { kind: 'all' } }), lines.length);
      return performance.now() - t1;
    };
    return { ms, checked, editFirstMs: await reEdit(first), editLastMs: await reEdit(last) };
  });
  const out: WorkbenchRun = { coldMs: cold.ms, ms: warm.ms, checked: warm.checked, ...tally };
  if (warm.editFirstMs !== undefined) out.editFirstMs = warm.editFirstMs;
  if (warm.editLastMs !== undefined) out.editLastMs = warm.editLastMs;
  return out;
}

type Call = (method: string, params: Record<string, unknown>) => Promise<unknown>;

async function onFreshWorkbench<T>(work: (call: Call, counted: { events: number; bytes: number }) => Promise<T>): Promise<T> {
  await cleanEnvironment.dispose();
  const dir = await mkdtemp(join(tmpdir(), 'arbor-doc-scale-'));
  const ws = await createWorkbenchShell({ backend: 'coq', timeoutMs: 20_000, poolSize: 0 });
  const workspace = new Workspace({ root: dir, userDir: join(dir, '.user') });
  const service = createApiService({ shell: ws.shell, workspace, info: () => appInfo('web', ws, dir, dir) });
  const counted = { events: 0, bytes: 0 };
  service.onEvent((event: ApiEvent) => {
    counted.events++;
    counted.bytes += JSON.stringify({ event }).length;
  });
  try {
    return await work((method, params) => service.call(method as never, params as never), counted);
  } finally {
    service.dispose();
    await ws.dispose();
    await cleanEnvironment.dispose();
    await rm(dir, { recursive: true, force: true });
  }
}

/** Every line checked, or the run says which line stopped it and why. */
function checkedLines(state: unknown, expected: number): number {
  const check = (state as { check: { entries: unknown[]; error?: { line: number; message: string } } }).check;
  if (check.error !== undefined || check.entries.length !== expected) {
    throw new Error(`the workbench checked ${check.entries.length} of ${expected} lines${check.error ? `: line ${check.error.line}: ${check.error.message}` : ''}`);
  }
  return check.entries.length;
}
