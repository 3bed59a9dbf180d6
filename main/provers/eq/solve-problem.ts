/** One AIM problem end to end: parse the ARTICLE, prove its theorem, check the proof. */
import { AdvisorClient } from './advisor-client.ts';
import { aimleapSearch } from './aimleap-search.ts';
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
  by?: 'completion' | 'eprover' | 'aimleap-search';
  ms: number;
  proofSteps?: number;
  proof?: ProofJson;
  messages: string[];
}

export async function solveProblem(preamble: string, theoremLine: string, limitMs: number, options: { useE?: boolean; advisor?: string } = {}): Promise<SolveResult> {
  const start = Date.now();
  const bank = new TermBank();
  const article = parseArticle(bank, `${preamble}\n${theoremLine}\n`);
  const theorem = article.theorems[0];
  if (!theorem) throw new Error('no Theorem line');
  const goal = parseEquation(bank, theorem.statement, { names: 'constants' });
  if (options.advisor) {
    // As the prover side of the AIMLEAP protocol: one connection per problem, as AIMLEAP does.
    const [host, port] = options.advisor.split(':');
    const messages: string[] = [];
    try {
      const client = await AdvisorClient.connect(bank, host ?? '127.0.0.1', Number(port));
      const found = await aimleapSearch(bank, article.equations, goal, { advisor: client, abslimit: 100, maxdepth: 10, deadline: start + limitMs / 2, onAdvisorError: (e) => messages.push(`advisor: ${e}`) });
      client.close();
      if (found) {
        const proof = proofToJson(bank, found);
        const check = checkProof(preamble, proof, theorem.statement);
        if (check.ok) return { name: theorem.name, solved: true, by: 'aimleap-search', ms: Date.now() - start, proofSteps: check.steps, proof, messages };
      }
    } catch (err) {
      messages.push(`advisor: ${(err as Error).message}; continuing without advice`);
    }
  }
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
