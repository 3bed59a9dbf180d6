/**
 * The eq backend's automation (`HAMMER`/`END`): a portfolio of
 *  - an AIMLEAP advisor, when one is configured (AIMLEAP-style search, a share of the budget first);
 *  - E prover in a child process, its refutation replayed as a rewrite chain;
 *  - Arbor's own completion (a time-sliced schedule of orders, see own-schedule.ts).
 * In `parallel` mode (default) E runs on the second core while own completion runs in-process; the
 * first checked proof wins and stops the other. In `sequential` mode E gets a share first, then own
 * completion the rest (one core). Every proof is checked by the independent checker before it counts.
 */
import { AdvisorClient } from './advisor-client.ts';
import { SkolemNames } from './advisor-codec.ts';
import { aimleapSkolems } from './aimleap-hash.ts';
import { aimleapSearch } from './aimleap-search.ts';
import { checkProof } from './check-proof.ts';
import { proveWithEprover } from './eprover.ts';
import { proveOwnOffThread } from './own-search-off-thread.ts';
import type { EqProof } from './proof.ts';
import { importProof } from './proof-import.ts';
import { proofToJson } from './proof-json.ts';
import { constantsInOrder, type Term, type TermBank } from './term.ts';

export interface HammerAxiom {
  name: string;
  lhs: Term;
  rhs: Term;
}

export interface AdvisorSettings {
  host: string;
  port: number;
  connectTimeoutMs?: number;
  replyTimeoutMs?: number;
  /** Share of the budget the advisor-guided search may use first (default 0.25). */
  share?: number;
}

/** `HOST:PORT` → settings, or undefined when malformed. */
export function parseAdvisorAddress(text: string): AdvisorSettings | undefined {
  const m = /^([^:\s]+):(\d{1,5})$/.exec(text.trim());
  if (!m) return undefined;
  const port = Number(m[2]);
  return port > 0 && port < 65536 ? { host: m[1] as string, port } : undefined;
}

export interface HammerOptions {
  timeoutMs: number;
  /** ARTICLE text the checker reads (lemmas in `extraLemmaText` form are added by the caller). */
  articleText: string;
  /** Use E prover (when installed). */
  useE?: boolean;
  /** `parallel`: E beside own completion (two cores); `sequential`: E first, then own completion (one core). */
  mode?: 'parallel' | 'sequential';
  /** Sequential mode: share of the budget E gets first (default 0.3, 1–3 s). */
  eShare?: number;
  /** Keep own completion running after E's proof, to measure own-only results in the same run (bench). */
  ownToEnd?: boolean;
  advisor?: AdvisorSettings;
  signal?: AbortSignal;
  /** Extra lemmas (HAVE) as Known lines appended to the article text for the checker. */
  extraKnown?: string[];
  /**
   * The statement whose fixed variables are the goal's constants (the proof's `GOAL`, or a `HAVE`'s
   * lemma): the advisor is sent AIMLEAP's Skolem hashes of it. Default: the goal itself.
   */
  theorem?: { lhs: Term; rhs: Term };
}

export type HammerBy = 'completion' | 'eprover' | 'aimleap-search';

export interface HammerResult {
  proof?: EqProof;
  by?: HammerBy;
  /** When the winning (checked) proof was ready, from the start. */
  ms?: number;
  messages: string[];
  /** Own completion alone: whether and when it found a checked proof (with `ownToEnd`, even after E won). */
  own?: { solved: boolean; ms: number; config?: string };
  /** E alone: its status, time, and whether its proof was replayed and checked. */
  e?: { status: string; ms: number; replayed: boolean };
}

export async function hammer(bank: TermBank, axioms: readonly HammerAxiom[], goal: { lhs: Term; rhs: Term }, options: HammerOptions): Promise<HammerResult> {
  const start = Date.now();
  const deadline = start + options.timeoutMs;
  const messages: string[] = [];
  const text = [options.articleText, ...(options.extraKnown ?? [])].join('\n');
  const checked = (proof: EqProof): boolean => {
    const r = checkProof(text, proofToJson(bank, proof));
    if (!r.ok) messages.push(`proof rejected by the checker: ${r.error}`);
    return r.ok;
  };
  const result: HammerResult = { messages };
  const win = (proof: EqProof, by: HammerBy): void => {
    if (result.proof) return;
    result.proof = proof;
    result.by = by;
    result.ms = Date.now() - start;
  };

  if (options.advisor) {
    const found = await adviseFirst(bank, axioms, goal, options.theorem ?? goal, options.advisor, Math.min(deadline, start + options.timeoutMs * (options.advisor.share ?? 0.25)), messages);
    if (found && checked(found)) {
      messages.push('AIMLEAP-style search with the advisor found a proof');
      win(found, 'aimleap-search');
      return result;
    }
  }

  const stopOwn = new AbortController();
  const stopE = new AbortController();
  const outer = options.signal;
  const onOuter = (): void => {
    stopOwn.abort();
    stopE.abort();
  };
  outer?.addEventListener('abort', onOuter, { once: true });
  const runE = async (seconds: number, wallMs: number): Promise<void> => {
    const e = await proveWithEprover(bank, axioms, goal, seconds, deadline, { wallMs, signal: stopE.signal });
    const replayed = e.proof !== undefined && checked(e.proof);
    result.e = { status: e.status, ms: e.ms, replayed };
    if (e.error) messages.push(`E proof not replayed: ${e.error}`);
    if (replayed) {
      messages.push(`E prover found a proof in ${e.ms} ms; replayed as a rewrite chain`);
      win(e.proof as EqProof, 'eprover');
      if (!options.ownToEnd) stopOwn.abort();
    }
  };
  const runOwn = async (): Promise<void> => {
    const o = await proveOwnOffThread(bank, axioms, goal, deadline, { signal: stopOwn.signal });
    let solved = false;
    if (o.proof && o.bank) {
      const proof = importProof(o.proof, o.bank, bank);
      solved = checked(proof);
      if (solved) {
        const last = o.stats[o.stats.length - 1];
        messages.push(`completion (${o.config}) found a proof (${last?.selected ?? 0} selected, ${last?.generated ?? 0} pairs)`);
        win(proof, 'completion');
        stopE.abort();
      }
    }
    result.own = { solved, ms: Date.now() - start, ...(o.config ? { config: o.config } : {}) };
  };

  try {
    const useE = options.useE !== false;
    if (useE && (options.mode ?? 'parallel') === 'parallel') {
      const remaining = Math.max(0, deadline - Date.now());
      await Promise.all([runE(remaining / 1000, remaining), runOwn()]);
    } else {
      if (useE) {
        const eSeconds = Math.min(3, Math.max(1, (options.timeoutMs / 1000) * (options.eShare ?? 0.3)));
        await runE(eSeconds, Math.min(eSeconds * 1000 + 1500, Math.max(0, deadline - Date.now())));
      }
      if ((!result.proof || options.ownToEnd) && !outer?.aborted && Date.now() < deadline) await runOwn();
    }
  } finally {
    outer?.removeEventListener('abort', onOuter);
    stopE.abort();
  }
  return result;
}

/** AIMLEAP-style search with a remote advisor; any advisor failure only costs its share of time. */
async function adviseFirst(bank: TermBank, axioms: readonly HammerAxiom[], goal: { lhs: Term; rhs: Term }, theorem: { lhs: Term; rhs: Term }, a: AdvisorSettings, until: number, messages: string[]): Promise<EqProof | undefined> {
  let client: AdvisorClient | undefined;
  const skolems = aimleapSkolems(bank, theorem.lhs, theorem.rhs);
  const constants = new Set([...skolems.keys(), ...constantsInOrder(bank, [goal.lhs, goal.rhs])]);
  try {
    const connectTimeoutMs = Math.max(1, Math.min(a.connectTimeoutMs ?? 2000, until - Date.now()));
    client = await AdvisorClient.connect(bank, a.host, a.port, { connectTimeoutMs, replyTimeoutMs: a.replyTimeoutMs ?? 1000, names: new SkolemNames(skolems) });
    const proof = await aimleapSearch(bank, axioms, goal, { advisor: client, abslimit: 100, maxdepth: 10, deadline: until, constants, onAdvisorError: (e) => messages.push(`advisor: ${e}`) });
    messages.push(`advisor: ${client.sent} messages sent`);
    return proof;
  } catch (err) {
    messages.push(`advisor: ${(err as Error).message}; continuing without advice`);
    return undefined;
  } finally {
    client?.close();
  }
}
