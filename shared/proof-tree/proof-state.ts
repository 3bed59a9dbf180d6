/**
 * The proof state's JSON embedding, exactly as seed 000 defines it.
 * A Proposition's `goal` is a term (string); a Bundle's `goal` is a list of goals.
 */
export interface Variable {
  name: string;
  type: string;
}

export interface Hypothesis {
  name: string;
  expr: string;
}

export interface Context {
  vars: Variable[];
  hyps: Hypothesis[];
}

export interface Proposition {
  ctxt: Context;
  goal: string;
}

export interface Bundle {
  ctxt: Context;
  goal: Goal[];
}

export type Goal = Proposition | Bundle;

/** The proof state is always printed as a Bundle at the root (a finished proof is the empty bundle). */
export type ProofState = Goal;

export const emptyContext = (): Context => ({ vars: [], hyps: [] });

export const isBundle = (goal: Goal): goal is Bundle => Array.isArray(goal.goal);

/**
 * One entry of a prover's flat goal context. Provers report variables and hypotheses in one
 * ordered list; `kind` says which of the seed's two categories the entry belongs to.
 */
export interface ContextEntry {
  kind: 'var' | 'hyp';
  name: string;
  /** The variable's type or the hypothesis' proposition. */
  text: string;
}

/** A goal as a prover reports it: its full, flat context and its conclusion. */
export interface OpenGoal {
  context: ContextEntry[];
  goal: string;
}
