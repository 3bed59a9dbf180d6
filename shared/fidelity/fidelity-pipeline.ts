import { emptyContext, parseContext, type ContextSentence } from './fidelity-context.ts';
import type { FidelityContext } from './fidelity-context.ts';
import type { FidelityProver, ProverTask } from './fidelity-prover.ts';
import { fidelityInputSchema, tierIds } from './fidelity-types.ts';
import type { Direction, DirectionProof, Evidence, FidelityInput, FidelityReport, FidelityRequest, GuardOutcome, TierId, TierTrace, Verdict } from './fidelity-types.ts';
import { searchRefutation } from './refutation-search.ts';
import { normaliseS0 } from './s0-normalise.ts';
import { normaliseS1 } from './s1-normalise.ts';
import { freeIdents } from './statement-term.ts';

const FWD: Direction = 'canonical → candidate';
const BWD: Direction = 'candidate → canonical';

/** Statements are pasted into Coq sentences: nothing in them may end a sentence or open a comment. */
export function injectionProblem(text: string): string | null {
  if (/\.(\s|$)/u.test(text)) return 'a statement may not contain a sentence end (". ")';
  if (text.includes('(*') || text.includes('*)')) return 'a statement may not contain a comment';
  if (/["\n\r]/u.test(text)) return 'a statement may not contain quotes or line breaks';
  let depth = 0;
  for (const c of text) {
    if (c === '(') depth++;
    else if (c === ')' && --depth < 0) return 'unbalanced parentheses';
  }
  return depth === 0 ? null : 'unbalanced parentheses';
}

/**
 * Run the fidelity tiers in order — S0, S1, type check, refutation, S3-lite, BEq+ — and stop at the first
 * that decides. Proof tiers conclude `equivalent` only past the guard: neither statement may be provable,
 * or refutable, on its own, since two theorems (or two falsities) are equivalent whatever they say.
 * `prover` is null when no backend is configured (Lean today): normalisation tiers still run.
 */
/**
 * `contextSentences`: the context as the prover delimited (and allowed) it; when given, the context the
 * tiers use is rebuilt from exactly these sentences, never read from the text as given.
 */
export async function runFidelity(input: FidelityInput, prover: FidelityProver | null, now: () => number = () => Date.now(), contextSentences?: readonly ContextSentence[]): Promise<FidelityReport> {
  const started = now();
  const req: FidelityRequest = fidelityInputSchema.parse(input);
  const tiers = new Set<TierId>(req.tiers ?? tierIds);
  const syntax = req.backend;
  const trace: TierTrace[] = [];
  const s0c = normaliseS0(req.canonical, syntax);
  const s0d = normaliseS0(req.candidate, syntax);
  const report: FidelityReport = {
    ...(req.id !== undefined ? { id: req.id } : {}),
    verdict: 'unknown', tier: null, reason: '', backend: req.backend, classical: req.classical,
    normalised: { s0: { canonical: s0c.text, candidate: s0d.text } },
    evidence: null, trace, ms: 0,
  };
  if (s0c.parseError || s0d.parseError) {
    report.normalised.parseErrors = {
      ...(s0c.parseError ? { canonical: s0c.parseError } : {}),
      ...(s0d.parseError ? { candidate: s0d.parseError } : {}),
    };
  }
  const finish = (verdict: Verdict, tier: TierId | null, reason: string, evidence: Evidence | null): FidelityReport => {
    Object.assign(report, { verdict, tier, reason, evidence, ms: now() - started });
    return report;
  };
  const timed = async <T>(f: () => Promise<T> | T): Promise<{ value: T; ms: number }> => {
    const t0 = now();
    const value = await f();
    return { value, ms: now() - t0 };
  };
  const note = (tier: TierId, outcome: TierTrace['outcome'], detail: string, ms = 0): void => { trace.push({ tier, outcome, detail, ms }); };

  let context: FidelityContext = emptyContext();
  if (contextSentences) context = parseContext(req.context ?? '', contextSentences);
  else if (req.context) context = parseContext(req.context);
  const task: ProverTask = { request: req, context };

  // Type check first when a prover is there: identical but ill-typed statements are not "equivalent".
  if (tiers.has('typecheck')) {
    if (!prover) {
      note('typecheck', 'skipped', `no ${req.backend === 'lean' ? 'Lean' : 'Coq'} backend configured`);
    } else {
      const problem = injectionProblem(req.canonical) ?? injectionProblem(req.candidate);
      if (problem) {
        note('typecheck', 'decided', problem);
        return finish('ill_typed', 'typecheck', problem, { kind: 'prover-error', statement: 'input', message: problem });
      }
      const { value: tc, ms } = await timed(() => prover.typeCheck(task));
      if (!tc.ok) {
        note('typecheck', 'decided', `${tc.statement}: ${tc.message}`, ms);
        return finish('ill_typed', 'typecheck', `${tc.statement} does not type-check: ${tc.message}`, { kind: 'prover-error', statement: tc.statement, message: tc.message });
      }
      note('typecheck', 'passed', 'both statements are well-typed propositions', ms);
    }
  }

  if (tiers.has('s0')) {
    if (s0c.text === s0d.text) {
      note('s0', 'decided', 'identical after S0');
      return finish('equivalent', 's0', 'identical after text normalisation (S0)', { kind: 'normalisation', tier: 's0', form: s0c.text, classicalRules: [] });
    }
    note('s0', 'inconclusive', 'S0 forms differ');
  }

  if (tiers.has('s1')) {
    if (s0c.term && s0d.term) {
      const avoid = new Set([...freeIdents(s0c.term), ...freeIdents(s0d.term)]);
      const a = normaliseS1(s0c.term, syntax, { classical: req.classical, avoid });
      const b = normaliseS1(s0d.term, syntax, { classical: req.classical, avoid });
      const rules = [...new Set([...a.classicalRules, ...b.classicalRules])].sort();
      report.normalised.s1 = { canonical: a.text, candidate: b.text, classicalRules: rules };
      if (a.text === b.text) {
        const how = rules.length > 0 ? ` using classical rewrites (${rules.join(', ')})` : '';
        note('s1', 'decided', `identical after S1${how}`);
        return finish('equivalent', 's1', `identical after structural normalisation (S1)${how}`, { kind: 'normalisation', tier: 's1', form: a.text, classicalRules: rules });
      }
      note('s1', 'inconclusive', 'S1 forms differ');
    } else {
      note('s1', 'skipped', 'a statement is outside the parsed fragment');
    }
  }

  const proofTiers: TierId[] = ['refute', 's3-lite', 'beq+'];
  if (!prover) {
    for (const t of proofTiers) if (tiers.has(t)) note(t, 'skipped', `no ${req.backend === 'lean' ? 'Lean' : 'Coq'} backend configured`);
    const reason = req.backend === 'lean' ? 'no Lean backend configured: proof tiers cannot decide' : 'no prover configured';
    return finish('unknown', null, `normal forms differ; ${reason}`, null);
  }

  // Refutation: small models/instances, each candidate checked by Coq before it counts.
  if (tiers.has('refute')) {
    const t0 = now();
    if (s0c.term && s0d.term) {
      const search = searchRefutation({ text: req.canonical, term: s0c.term }, { text: req.candidate, term: s0d.term }, context,
        { header: prover.header(task), timeoutS: req.timeoutMs / 1000, hammerTimeoutS: req.hammerTimeoutMs / 1000 });
      for (const cand of search.candidates) {
        const check = await prover.checkFile(cand.coqFile);
        if (check.ok) {
          note('refute', 'decided', cand.summary, now() - t0);
          return finish('not_equivalent', 'refute', `counterexample: ${cand.summary}`, {
            kind: 'counterexample', summary: cand.summary, model: cand.interpretation, instances: cand.instances, canonicalHolds: cand.canonicalHolds, coqScript: cand.coqFile,
          });
        }
      }
      note('refute', 'inconclusive', search.candidates.length > 0 ? 'candidate counterexamples were not confirmed by Coq' : (search.note ?? 'no disagreement on small instances'), now() - t0);
    } else {
      note('refute', 'skipped', 'a statement is outside the parsed fragment');
    }
  }

  // Guard results are computed once, lazily, and shared by both proof tiers.
  let guard: GuardOutcome | null = null;
  const getGuard = async (): Promise<GuardOutcome> => {
    if (!guard) {
      const [c, d] = await Promise.all([prover.standalone(task, 'canonical'), prover.standalone(task, 'candidate')]);
      guard = { canonicalProvable: c.provable, canonicalRefutable: c.refutable, candidateProvable: d.provable, candidateRefutable: d.refutable };
    }
    return guard;
  };

  const failedDirections: Direction[] = [];
  const provedDirections: DirectionProof[] = [];
  for (const tier of ['s3-lite', 'beq+'] as const) {
    if (!tiers.has(tier)) continue;
    const t0 = now();
    const r = tier === 's3-lite' ? await prover.s3Lite(task) : await prover.beqPlus(task);
    const directions: DirectionProof[] = [];
    if (r.forward) directions.push({ direction: FWD, script: r.forward });
    if (r.backward) directions.push({ direction: BWD, script: r.backward });
    if (r.forward && r.backward) {
      const g = await getGuard();
      const blocked = guardReason(g);
      if (blocked) {
        note(tier, 'inconclusive', `both directions proved, but ${blocked}`, now() - t0);
        const mismatch = truthMismatch(g);
        if (mismatch) return finish('not_equivalent', tier, mismatch.summary, mismatch);
        return finish('unknown', null, `${blocked}: their equivalence says nothing about fidelity`, { kind: 'unproved', failed: [], proved: directions });
      }
      note(tier, 'decided', 'both directions proved, each using the other statement', now() - t0);
      return finish('equivalent', tier, `${tier === 's3-lite' ? 'S3-lite' : 'BEq+'} proved both directions, neither statement being provable or refutable on its own`, { kind: 'proof', tier, directions, guard: g });
    }
    const failed = [...(r.forward ? [] : [FWD]), ...(r.backward ? [] : [BWD])];
    note(tier, 'inconclusive', `could not prove ${failed.join(' and ')}${r.detail ? ` (${r.detail})` : ''}`, now() - t0);
    for (const d of directions) if (!provedDirections.some((p) => p.direction === d.direction)) provedDirections.push(d);
    if (tier === 'beq+') failedDirections.push(...failed);
  }

  // Last resort for a disproof: one statement provable on its own and the other refutable. Only for
  // contexts without abstract parameters — with parameters the model search above is the disproof.
  if (tiers.has('refute') && (tiers.has('s3-lite') || tiers.has('beq+')) && context.parameters.length === 0) {
    const t0 = now();
    const mismatch = truthMismatch(await getGuard());
    if (mismatch) {
      note('refute', 'decided', mismatch.summary, now() - t0);
      return finish('not_equivalent', 'refute', mismatch.summary, mismatch);
    }
  }
  const failed = failedDirections.length > 0 ? failedDirections : [FWD, BWD].filter((d) => !provedDirections.some((p) => p.direction === d));
  return finish('unknown', null, failed.length > 0 ? `not decided: could not prove ${failed.join(' and ')}` : 'not decided',
    failed.length > 0 || provedDirections.length > 0 ? { kind: 'unproved', failed, proved: provedDirections } : null);
}

/** Why the guard forbids concluding `equivalent`, or null when it allows it. */
export function guardReason(g: GuardOutcome): string | null {
  const cAlone = g.canonicalProvable ? 'provable' : g.canonicalRefutable ? 'refutable' : null;
  const dAlone = g.candidateProvable ? 'provable' : g.candidateRefutable ? 'refutable' : null;
  if (cAlone && cAlone === dAlone) return `both ${cAlone} on their own`;
  if (cAlone && dAlone) return `canonical ${cAlone} and candidate ${dAlone} on their own`;
  if (cAlone) return `canonical ${cAlone} on its own`;
  if (dAlone) return `candidate ${dAlone} on its own`;
  return null;
}

const checked = (s: string | null): string | null => (s && !s.startsWith('(unchecked)') ? s : null);

function truthMismatch(guard: GuardOutcome): Extract<Evidence, { kind: 'truth-values' }> | null {
  const g = { canonicalProvable: checked(guard.canonicalProvable), canonicalRefutable: checked(guard.canonicalRefutable), candidateProvable: checked(guard.candidateProvable), candidateRefutable: checked(guard.candidateRefutable) };
  if (g.canonicalProvable && g.candidateRefutable) {
    return { kind: 'truth-values', summary: 'the canonical statement is provable and the candidate refutable', proofs: [
      { statement: 'canonical', claim: 'provable', script: g.canonicalProvable }, { statement: 'candidate', claim: 'refutable', script: g.candidateRefutable }] };
  }
  if (g.canonicalRefutable && g.candidateProvable) {
    return { kind: 'truth-values', summary: 'the canonical statement is refutable and the candidate provable', proofs: [
      { statement: 'canonical', claim: 'refutable', script: g.canonicalRefutable }, { statement: 'candidate', claim: 'provable', script: g.candidateProvable }] };
  }
  return null;
}
