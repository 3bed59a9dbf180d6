/**
 * The eq backend's automation (`HAMMER`/`END`): a portfolio run one prover at a time, so it never
 * uses more than one core. First rewriting with the terminating laws, then E prover briefly (most of
 * its proofs come within a second) with its proof replayed as a rewrite chain, then unfailing
 * completion for the rest of the budget. Every proof is checked by the independent checker before
 * it is returned.
 */
import { checkProof } from './check-proof.ts';
import { proveByCompletion } from './completion.ts';
import { proveWithEprover } from './eprover.ts';
import type { EqProof } from './proof.ts';
import { importProof } from './proof-import.ts';
import { proofToJson } from './proof-json.ts';
import type { Term, TermBank } from './term.ts';

export interface HammerAxiom {
  name: string;
  lhs: Term;
  rhs: Term;
}

export interface HammerOptions {
  timeoutMs: number;
  /** ARTICLE text the checker reads (lemmas in `extraLemmaText` form are added by the caller). */
  articleText: string;
  /** Use E prover (when installed). */
  useE?: boolean;
  /** Share of the budget E gets first (default 0.3, at most 3 s). */
  eShare?: number;
  signal?: AbortSignal;
  /** Extra lemmas (HAVE) as Known lines appended to the article text for the checker. */
  extraKnown?: string[];
}

export interface HammerResult {
  proof?: EqProof;
  by?: 'completion' | 'eprover';
  messages: string[];
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
  if (options.useE !== false) {
    const eSeconds = Math.min(3, Math.max(1, (options.timeoutMs / 1000) * (options.eShare ?? 0.3)));
    const e = await proveWithEprover(bank, axioms, goal, eSeconds, deadline);
    if (e.proof && checked(e.proof)) {
      messages.push(`E prover found a proof in ${e.ms} ms; replayed as a rewrite chain`);
      return { proof: e.proof, by: 'eprover', messages };
    }
    if (e.error) messages.push(`E proof not replayed: ${e.error}`);
  }
  if (options.signal?.aborted || Date.now() >= deadline) return { messages };
  const c = await proveByCompletion(bank, axioms, goal, { deadline, ...(options.signal ? { signal: options.signal } : {}) });
  if (c.proof) {
    const proof = importProof(c.proof, c.bank, bank);
    if (checked(proof)) {
      messages.push(`completion found a proof (${c.stats.selected} selected, ${c.stats.generated} pairs)`);
      return { proof, by: 'completion', messages };
    }
  }
  return { messages };
}
