import type { FidelityContext } from './fidelity-context.ts';
import { combinations, interpretationCandidates } from './parameter-interpretations.ts';
import type { Interpretation } from './parameter-interpretations.ts';
import { planProof } from './refutation-proof.ts';
import { refutationHelpers, refutationTactics } from './refutation-preamble.ts';
import { parseStatement } from './statement-parser.ts';
import { EvalUnsupported, evaluate, truthOf } from './small-evaluator.ts';
import type { EvalEnv } from './small-evaluator.ts';
import type { Term } from './statement-term.ts';

/** A model (parameter interpretation) and instances where the statements' truth values differ. */
export interface RefutationCandidate {
  interpretation: { name: string; value: string }[];
  canonicalHolds: boolean;
  candidateHolds: boolean;
  /** Witness instances used by the proof (e.g. `n = 5`). */
  instances: string[];
  /** Self-contained Coq file proving `~ (canonical <-> candidate)` in the model. */
  coqFile: string;
  /** Human-readable summary. */
  summary: string;
}

export interface RefutationSearch { candidates: RefutationCandidate[]; note?: string }

export interface RefutationOptions {
  /** Coq `Require`/`Import` header shared with the other tiers. */
  header: string;
  timeoutS: number;
  /** Budget of the `hammer` call that ends `arbor_auto`. */
  hammerTimeoutS?: number;
  maxCandidates?: number;
  maxModels?: number;
}

/**
 * Search small models of the context and small instances of the statements for a disagreement in truth
 * value, and write, for each, the Coq file that proves `~ (canonical <-> candidate)` in that model. A model
 * that satisfies the context's hypotheses and refutes the equivalence shows it is not provable from the
 * context; Coq checks the model satisfies the hypotheses as part of the file.
 */
export function searchRefutation(canonical: { text: string; term: Term }, candidate: { text: string; term: Term }, ctx: FidelityContext, opts: RefutationOptions): RefutationSearch {
  if (ctx.opaque.length > 0) return { candidates: [], note: `context has declarations the refutation tier cannot model: ${ctx.opaque[0]}` };
  const env: EvalEnv = { vars: new Map(), types: new Map(), zScope: ctx.zScope, budget: { steps: 400_000 } };
  let lists: Interpretation[][] | null;
  try {
    lists = interpretationCandidates(ctx.parameters, env);
  } catch (e) {
    if (e instanceof EvalUnsupported) return { candidates: [], note: e.message };
    throw e;
  }
  if (!lists) return { candidates: [], note: 'a context parameter has a type outside the modelled fragment' };
  let hyps: { name: string; term: Term; text: string }[];
  let defs: { name: string; term: Term }[];
  try {
    hyps = ctx.hypotheses.map((h) => ({ name: h.name, term: parseStatement(h.statement, 'coq'), text: h.statement }));
    defs = ctx.definitions.map((d) => ({ name: d.name, term: parseStatement(d.params ? `fun ${d.params} => ${d.body}` : d.body, 'coq') }));
  } catch (e) {
    return { candidates: [], note: `context outside the parsed fragment: ${(e as Error).message}` };
  }
  const out: RefutationCandidate[] = [];
  const maxCandidates = opts.maxCandidates ?? 2;
  let lastNote: string | undefined;
  for (const model of combinations(lists, opts.maxModels ?? 4000)) {
    if (out.length >= maxCandidates || env.budget.steps <= 0) break;
    try {
      const menv: EvalEnv = { ...env, vars: new Map() };
      for (const m of model) if (m.value) menv.vars.set(m.name, m.value);
      for (const d of defs) menv.vars.set(d.name, evaluate(d.term, menv));
      if (!hyps.every((h) => truthOf(evaluate(h.term, menv)))) continue;
      const c = truthOf(evaluate(canonical.term, menv));
      const d = truthOf(evaluate(candidate.term, menv));
      if (c === d) continue;
      out.push(buildCandidate(model, menv, hyps, canonical, candidate, c, ctx, opts));
    } catch (e) {
      if (!(e instanceof EvalUnsupported)) throw e;
      lastNote = e.message;
      if (/budget|unknown constant|unsupported type|ascription|scope|divides|function/u.test(e.message)) break;
    }
  }
  return out.length > 0 || !lastNote ? { candidates: out } : { candidates: out, note: lastNote };
}

function buildCandidate(
  model: Interpretation[], env: EvalEnv, hyps: { name: string; term: Term; text: string }[],
  canonical: { text: string; term: Term }, candidate: { text: string; term: Term }, canonicalHolds: boolean,
  ctx: FidelityContext, opts: RefutationOptions,
): RefutationCandidate {
  const cPlan = planProof(canonical.term, env, canonicalHolds);
  const dPlan = planProof(candidate.term, env, !canonicalHolds);
  const names = [...model.map((m) => m.name), ...ctx.definitions.map((d) => d.name)];
  const lines: string[] = [opts.header, refutationHelpers];
  for (const m of model) lines.push(`Definition ${m.name} : ${m.carrier ? 'Type' : m.type} := ${m.coq}.`);
  for (const d of ctx.definitions) lines.push(`${d.sentence}.`);
  lines.push(refutationTactics(names, opts.timeoutS, opts.hammerTimeoutS ?? 3 * opts.timeoutS));
  for (const h of hyps) lines.push(`Lemma arbor_model_${h.name} : ${h.text}.\nProof. ${planProof(h.term, env, true).tactic}. Qed.`);
  const lemma = canonicalHolds ? 'arbor_iff_tf' : 'arbor_iff_ft';
  lines.push(`Lemma arbor_refutation : ~ ((${canonical.text}) <-> (${candidate.text})).\nProof. apply ${lemma}; [${cPlan.tactic} | ${dPlan.tactic}]. Qed.`);
  const interpretation = model.map((m) => ({ name: m.name, value: m.coq }));
  const where = interpretation.length > 0 ? `in the model ${interpretation.map((i) => `${i.name} := ${i.value}`).join(', ')}, ` : '';
  const inst = [...cPlan.instances, ...dPlan.instances];
  const summary = `${where}the canonical statement is ${canonicalHolds ? 'true' : 'false'} and the candidate is ${canonicalHolds ? 'false' : 'true'}${inst.length > 0 ? ` (instances: ${inst.join(', ')})` : ''}`;
  return { interpretation, canonicalHolds, candidateHolds: !canonicalHolds, instances: inst, coqFile: lines.join('\n') + '\n', summary };
}

