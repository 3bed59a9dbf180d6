import { z } from 'zod';
import type { StatementMeaning } from '../protocol/statement-meaning.ts';

/** Tiers in the order they run. `refute` searches small models/instances for a Coq-checked counterexample. */
export const tierIds = ['s0', 's1', 'typecheck', 'refute', 's3-lite', 'beq+'] as const;
export type TierId = (typeof tierIds)[number];

/** What each tier does, in the product's words (shown wherever a tier is named). */
export const TIER_DESCRIPTIONS: Readonly<Record<TierId, string>> = {
  s0: 'S0 — the same statement up to names and spacing (α-equivalence after parsing)',
  s1: 'S1 — the same normal form after logical and arithmetic rewriting',
  typecheck: 'type check — Coq reads both statements in the context',
  refute: 'refutation — a small instance where one holds and the other does not, checked by Coq',
  's3-lite': 'proof — Coq proves each statement from the other with short tactic bundles',
  'beq+': 'proof with the hammer — as above, with CoqHammer and longer limits',
};

export const verdicts = ['equivalent', 'not_equivalent', 'ill_typed', 'unknown'] as const;
export type Verdict = (typeof verdicts)[number];

/** What the panel, the MCP tool and the CLI send (runtime-validated: it crosses process boundaries). */
export const fidelityInputSchema = z.object({
  id: z.string().optional(),
  canonical: z.string().min(1),
  candidate: z.string().min(1),
  /** Coq vernacular both statements share: variables, parameters, definitions, hypotheses. */
  context: z.string().optional(),
  backend: z.enum(['coq', 'lean']).default('coq'),
  tiers: z.array(z.enum(tierIds)).optional(),
  /** Budget of one proof attempt (one tactic of a bundle), in ms. */
  timeoutMs: z.number().int().positive().max(600_000).default(4000),
  /** Budget of one `hammer` call, in ms: CoqHammer's premise selection alone takes 10–25 s on this class of machine. */
  hammerTimeoutMs: z.number().int().positive().max(600_000).default(30_000),
  classical: z.boolean().default(false),
});
export type FidelityInput = z.input<typeof fidelityInputSchema>;
export type FidelityRequest = z.output<typeof fidelityInputSchema>;

export type Direction = 'canonical → candidate' | 'candidate → canonical';

/** A direction's proof: the script as checked by the prover. */
export interface DirectionProof { direction: Direction; script: string }

export interface GuardOutcome {
  canonicalProvable: string | null;
  canonicalRefutable: string | null;
  candidateProvable: string | null;
  candidateRefutable: string | null;
}

export type Evidence =
  | { kind: 'normalisation'; tier: 's0' | 's1'; form: string; classicalRules: string[] }
  | { kind: 'proof'; tier: 's3-lite' | 'beq+'; directions: DirectionProof[]; guard: GuardOutcome }
  | { kind: 'counterexample'; summary: string; model: { name: string; value: string }[]; instances: string[]; canonicalHolds: boolean; coqScript: string }
  | { kind: 'truth-values'; summary: string; proofs: { statement: 'canonical' | 'candidate'; claim: 'provable' | 'refutable'; script: string }[] }
  | { kind: 'unproved'; failed: Direction[]; proved: DirectionProof[] }
  | { kind: 'prover-error'; statement: 'canonical' | 'candidate' | 'context' | 'input'; message: string };

export interface TierTrace {
  tier: TierId;
  outcome: 'decided' | 'passed' | 'inconclusive' | 'skipped';
  detail: string;
  ms: number;
}

export interface FidelityReport {
  id?: string;
  verdict: Verdict;
  /** The tier that decided, `null` when the verdict is `unknown`. */
  tier: TierId | null;
  reason: string;
  backend: 'coq' | 'lean';
  classical: boolean;
  normalised: {
    s0: { canonical: string; candidate: string };
    s1?: { canonical: string; candidate: string; classicalRules: string[] };
    parseErrors?: { canonical?: string; candidate?: string };
  };
  evidence: Evidence | null;
  trace: TierTrace[];
  ms: number;
  /**
   * Present when a statement, as Coq elaborated it in the context (notations unfolded, names qualified),
   * does not mean what its text says in a clean environment (issue 21): the verdict is about the elaborated
   * statements, and this says what they are and what differs.
   */
  statements?: { canonical?: StatementMeaning; candidate?: StatementMeaning };
}

/** The report with the statements' meanings attached and said in its reason (a verdict is never about text that means something else, unsaid). */
export function withStatementMeanings(report: FidelityReport, statements: { canonical?: StatementMeaning | undefined; candidate?: StatementMeaning | undefined }): FidelityReport {
  const which = (['canonical', 'candidate'] as const).filter((k) => statements[k] !== undefined);
  if (which.length === 0) return report;
  const said = which.map((k) => `the ${k} statement means ${statements[k]?.elaborated} (${statements[k]?.differences.join('; ')})`).join('; ');
  return {
    ...report,
    statements: Object.fromEntries(which.map((k) => [k, statements[k]])),
    reason: `${report.reason} — about the statements as Coq elaborated them in the context, which do not mean what their text says: ${said}`,
  };
}
