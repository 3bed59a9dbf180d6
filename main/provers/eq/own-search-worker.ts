import { parentPort, workerData } from 'node:worker_threads';
import { proveOwn } from './own-schedule.ts';
import { TermBank } from './term.ts';
import { fromWire, proofToWire } from './term-wire.ts';
import type { OwnSearchRequest, OwnSearchReply } from './own-search-off-thread.ts';

/** The worker side of `proveOwnOffThread`: the equational search, away from the host's event loop. */
const request = workerData as OwnSearchRequest;
const bank = new TermBank();
const stop = new AbortController();
parentPort?.on('message', (m: unknown) => {
  if (m === 'abort') stop.abort();
});
const axioms = request.axioms.map((a) => ({ name: a.name, lhs: fromWire(bank, a.lhs), rhs: fromWire(bank, a.rhs) }));
const goal = { lhs: fromWire(bank, request.goal.lhs), rhs: fromWire(bank, request.goal.rhs) };
const result = await proveOwn(bank, axioms, goal, request.deadline, { signal: stop.signal });
const reply: OwnSearchReply = { stats: result.stats, ...(result.config ? { config: result.config } : {}), ...(result.proof ? { proof: proofToWire(bank, result.proof) } : {}) };
parentPort?.postMessage(reply);
