/** One AIM problem end to end: parse the ARTICLE, prove its theorem with the hammer, check the proof. */
import { parseArticle } from './article.ts';
import { checkProof } from './check-proof.ts';
import { type AdvisorSettings, hammer, type HammerBy, type HammerResult } from './hammer.ts';
import { parseEquation } from './parse-term.ts';
import type { ProofJson } from './proof.ts';
import { proofToJson } from './proof-json.ts';
import { TermBank } from './term.ts';

export interface SolveResult {
  name: string;
  solved: boolean;
  by?: HammerBy;
  /** Time to the first checked proof (or the whole run when unsolved). */
  ms: number;
  proofSteps?: number;
  proof?: ProofJson;
  messages: string[];
  own?: HammerResult['own'];
  e?: HammerResult['e'];
}

export interface SolveOptions {
  useE?: boolean;
  mode?: 'parallel' | 'sequential';
  ownToEnd?: boolean;
  advisor?: AdvisorSettings;
}

export async function solveProblem(preamble: string, theoremLine: string, limitMs: number, options: SolveOptions = {}): Promise<SolveResult> {
  const start = Date.now();
  const bank = new TermBank();
  const article = parseArticle(bank, `${preamble}\n${theoremLine}\n`);
  const theorem = article.theorems[0];
  if (!theorem) throw new Error('no Theorem line');
  const goal = parseEquation(bank, theorem.statement, { names: 'constants' });
  const r = await hammer(bank, article.equations, goal, {
    timeoutMs: limitMs,
    articleText: preamble,
    ...(options.useE === undefined ? {} : { useE: options.useE }),
    ...(options.mode ? { mode: options.mode } : {}),
    ...(options.ownToEnd ? { ownToEnd: true } : {}),
    ...(options.advisor ? { advisor: options.advisor } : {}),
  });
  const extra = { ...(r.own ? { own: r.own } : {}), ...(r.e ? { e: r.e } : {}) };
  if (!r.proof) return { name: theorem.name, solved: false, ms: Date.now() - start, messages: r.messages, ...extra };
  const proof = proofToJson(bank, r.proof);
  // Checked once more against the theorem as stated (the hammer checked the chain itself).
  const check = checkProof(preamble, proof, theorem.statement);
  return {
    name: theorem.name,
    solved: check.ok,
    ...(r.by ? { by: r.by } : {}),
    ms: r.ms ?? Date.now() - start,
    ...(check.ok ? { proofSteps: check.steps } : {}),
    proof,
    messages: check.ok ? r.messages : [...r.messages, `checker: ${check.error}`],
    ...extra,
  };
}
