/**
 * Independent proof checker: reads the ARTICLE text and a proof in JSON, parses everything into its
 * own term bank and replays every rewrite step. It shares only the parser and term module with the
 * prover, none of the search code, so a proof the checker accepts does not depend on the prover
 * being right.
 */
import { parseArticle } from './article.ts';
import { parseEquation, parseTerm } from './parse-term.ts';
import type { ProofJson, StepJson } from './proof.ts';
import { matchInto, type Subst } from './substitution.ts';
import { replaceAt, subtermAt, type Term, TermBank } from './term.ts';

export type CheckResult = { ok: true; steps: number } | { ok: false; error: string };

interface Rule {
  lhs: Term;
  rhs: Term;
}

function checkChain(bank: TermBank, rules: Map<string, Rule>, start: Term, end: Term, steps: StepJson[], names: 'variables' | 'constants', varIndex: Map<string, number>, where: string): string | undefined {
  let cur = start;
  for (let k = 0; k < steps.length; k++) {
    const step = steps[k] as StepJson;
    const rule = rules.get(step.by);
    if (!rule) return `${where} step ${k + 1}: unknown equation ${step.by}`;
    let next: Term;
    try {
      next = parseTerm(bank, step.term, { names, varIndex });
    } catch (err) {
      return `${where} step ${k + 1}: ${(err as Error).message}`;
    }
    const a = subtermAt(cur, step.pos);
    const b = subtermAt(next, step.pos);
    if (!a || !b) return `${where} step ${k + 1}: no position ${step.pos.join('.')}`;
    if (replaceAt(bank, cur, step.pos, b) !== next) return `${where} step ${k + 1}: terms differ outside position ${step.pos.join('.')}`;
    const [from, to] = step.dir === 'lr' ? [rule.lhs, rule.rhs] : [rule.rhs, rule.lhs];
    const s: Subst = [];
    if (!matchInto(from, a, s) || !matchInto(to, b, s)) return `${where} step ${k + 1}: ${step.by} (${step.dir}) does not rewrite the subterm at ${step.pos.join('.') || 'root'}`;
    cur = next;
  }
  if (cur !== end) return `${where}: chain ends in a different term`;
  return undefined;
}

export function checkProof(articleText: string, proof: ProofJson, expectedGoal?: string): CheckResult {
  const bank = new TermBank();
  let rules: Map<string, Rule>;
  try {
    const article = parseArticle(bank, articleText);
    rules = new Map(article.equations.map((e) => [e.name, { lhs: e.lhs, rhs: e.rhs }]));
  } catch (err) {
    return { ok: false, error: `article: ${(err as Error).message}` };
  }
  let total = 0;
  for (const lemma of proof.lemmas) {
    if (rules.has(lemma.name)) return { ok: false, error: `lemma name ${lemma.name} clashes` };
    const varIndex = new Map<string, number>();
    let eq;
    try {
      eq = parseEquation(bank, lemma.statement, { names: 'variables', varIndex });
    } catch (err) {
      return { ok: false, error: `lemma ${lemma.name}: ${(err as Error).message}` };
    }
    const err = checkChain(bank, rules, eq.lhs, eq.rhs, lemma.steps, 'variables', varIndex, `lemma ${lemma.name}`);
    if (err) return { ok: false, error: err };
    rules.set(lemma.name, { lhs: eq.lhs, rhs: eq.rhs });
    total += lemma.steps.length;
  }
  if (expectedGoal !== undefined && expectedGoal.replace(/\s+/g, '') !== proof.goal.replace(/\s+/g, '')) {
    return { ok: false, error: 'the proof is about a different goal' };
  }
  let goal;
  try {
    goal = parseEquation(bank, proof.goal, { names: 'constants' });
  } catch (err) {
    return { ok: false, error: `goal: ${(err as Error).message}` };
  }
  const err = checkChain(bank, rules, goal.lhs, goal.rhs, proof.steps, 'constants', new Map(), 'goal');
  if (err) return { ok: false, error: err };
  return { ok: true, steps: total + proof.steps.length };
}
