import { Worker } from 'node:worker_threads';
import type { CompletionAxiom, CompletionStats } from './completion.ts';
import type { OwnResult } from './own-schedule.ts';
import type { Term, TermBank } from './term.ts';
import { proofFromWire, toWire, type WireProof, type WireTerm } from './term-wire.ts';

export interface OwnSearchRequest {
  axioms: { name: string; lhs: WireTerm; rhs: WireTerm }[];
  goal: { lhs: WireTerm; rhs: WireTerm };
  deadline: number;
}

export interface OwnSearchReply {
  proof?: WireProof;
  config?: string;
  stats: CompletionStats[];
}

/**
 * Where the worker's code is: next to this file in the sources (run through tsx, which the worker must
 * load too), or as the bundle's own entry (`eq-search-worker.js`) in the desktop build.
 */
function startWorker(request: OwnSearchRequest): Worker {
  if (!import.meta.url.endsWith('.ts')) return new Worker(new URL('./eq-search-worker.js', import.meta.url), { workerData: request });
  // From the sources: the worker registers tsx's loader itself, then loads the TypeScript entry.
  const boot = `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))}).then((m) => { m.register(); return import(${JSON.stringify(new URL('./own-search-worker.ts', import.meta.url).href)}); });`;
  return new Worker(boot, { eval: true, workerData: request });
}

/**
 * Arbor's own equational search (the completion schedule) on a worker thread, so a long search never
 * blocks the host's event loop — the shell keeps answering other channels, the web host its clients.
 * Same answer as `proveOwn`, with the proof in `bank`; aborting stops the search at once.
 */
export function proveOwnOffThread(bank: TermBank, axioms: readonly CompletionAxiom[], goal: { lhs: Term; rhs: Term }, deadline: number, options: { signal?: AbortSignal } = {}): Promise<OwnResult> {
  const request: OwnSearchRequest = {
    axioms: axioms.map((a) => ({ name: a.name, lhs: toWire(bank, a.lhs), rhs: toWire(bank, a.rhs) })),
    goal: { lhs: toWire(bank, goal.lhs), rhs: toWire(bank, goal.rhs) },
    deadline,
  };
  if (options.signal?.aborted) return Promise.resolve({ stats: [] });
  const worker = startWorker(request);
  return new Promise((resolve, reject) => {
    let settled = false;
    const finish = (r: OwnResult | Error): void => {
      if (settled) return;
      settled = true;
      options.signal?.removeEventListener('abort', onAbort);
      clearTimeout(hardStop);
      void worker.terminate();
      if (r instanceof Error) reject(r);
      else resolve(r);
    };
    const onAbort = (): void => finish({ stats: [] });
    options.signal?.addEventListener('abort', onAbort, { once: true });
    // The search watches its deadline; past it (plus a margin) the thread is stopped regardless.
    const hardStop = setTimeout(() => finish({ stats: [] }), Math.max(0, deadline - Date.now()) + 2000);
    worker.once('message', (m: OwnSearchReply) => {
      finish({ stats: m.stats, ...(m.config ? { config: m.config } : {}), ...(m.proof ? { proof: proofFromWire(bank, m.proof), bank } : {}) });
    });
    worker.once('error', (e) => finish(e instanceof Error ? e : new Error(String(e))));
    worker.once('exit', (code) => finish(new Error(`equational search worker exited (${code}) without an answer`)));
  });
}
