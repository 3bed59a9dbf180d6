/** One AIM problem end to end: parse the ARTICLE, prove its theorem, check the proof. */
import { parseArticle } from './article.ts';
import { checkProof } from './check-proof.ts';
import { hammer } from './hammer.ts';
import { parseEquation } from './parse-term.ts';
import type { ProofJson } from './proof.ts';
import { proofToJson } from './proof-json.ts';
import { TermBank } from './term.ts';

export interface SolveResult {
  name: string;
  solved: boolean;
  by?: 'completion' | 'eprover';
  ms: number;
  proofSteps?: number;
  proof?: ProofJson;
  messages: string[];
}

export async function solveProblem(preamble: string, theoremLine: string, limitMs: number, options: { useE?: boolean } = {}): Promise<SolveResult> {
  const start = Date.now();
  const bank = new TermBank();
  const article = parseArticle(bank, `${preamble}\n${theoremLine}\n`);
  const theorem = article.theorems[0];
  if (!theorem) throw new Error('no Theorem line');
  const goal = parseEquation(bank, theorem.statement, { names: 'constants' });
  const r = await hammer(bank, article.equations, goal, { timeoutMs: limitMs, articleText: preamble, ...(options.useE === undefined ? {} : { useE: options.useE }) });
  const ms = Date.now() - start;
  if (!r.proof) return { name: theorem.name, solved: false, ms, messages: r.messages };
  const proof = proofToJson(bank, r.proof);
  const check = checkProof(preamble, proof, theorem.statement);
  return {
    name: theorem.name,
    solved: check.ok,
    ...(r.by ? { by: r.by } : {}),
    ms,
    ...(check.ok ? { proofSteps: check.steps } : {}),
    proof,
    messages: check.ok ? r.messages : [...r.messages, `checker: ${check.error}`],
  };
}
