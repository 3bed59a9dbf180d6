/**
 * What `HAMMER` (and an `END` that had to hammer) did, stage by stage: the additive response key
 * `HAMMER_REPORT`. A failure explains itself — what was tried, how long each stage took and how it ended —
 * and a success says which tactic closed the goal (the derivation view shows it on the closed branch).
 */
/** Every stage and outcome a report may name (transcript readers validate against these). */
export const HAMMER_STAGES = ['refutation', 'decision', 'rewrite', 'sauto', 'witness', 'premises', 'induction', 'discovery', 'crush', 'quick', 'coqhammer', 'reconstruction'] as const;
export const HAMMER_OUTCOMES = ['closed', 'progress', 'failed', 'timeout', 'skipped', 'refuted'] as const;

export interface HammerStage {
  /**
   * `refutation` (the counterexample search, first), on the whole goal `decision` (lia, ring, congruence, …),
   * `rewrite` (simplification with the library's rewrite databases and local equations), `sauto` (its family),
   * `premises` (the lemmas in scope sharing the goal's rarest constants, ranked, then used by `hauto use:`, rewrites, `eauto using`),
   * `witness` (an existential or divisibility goal: witnesses from its variables and small constants, then lia/nia),
   * `induction` (on each candidate variable), `discovery` (an auxiliary lemma conjectured, refuted or proved,
   * and used: one entry per conjecture, its `tactic` the `assert`); then `crush` and, per subgoal it left,
   * `quick`, `coqhammer` (ATPs) and `reconstruction`.
   */
  stage: (typeof HAMMER_STAGES)[number];
  /** The tactic tried, when the stage is one tactic. */
  tactic?: string;
  ms: number;
  outcome: (typeof HAMMER_OUTCOMES)[number];
  /** A short reason (the prover's message, first line). */
  detail?: string;
}

/** A lemma HAMMER's discovery stage conjectured and Coq proved (offered to the user as a `HAVE` with its proof). */
export interface DiscoveredLemma {
  name: string;
  statement: string;
  /** The tactic that proved it. */
  proof: string;
  /** Whether the goal was closed with it (else it was proved but not enough). */
  used: boolean;
}

export interface HammerReport {
  /** The tactics that closed the goal, as they go into the reproduction script (success only). */
  closedWith?: string;
  /** Lemmas the discovery stage proved, used or not. */
  discovered?: DiscoveredLemma[];
  stages: HammerStage[];
  ms: number;
}

const STAGE_NAMES: Record<HammerStage['stage'], string> = {
  refutation: 'counterexample search', decision: 'decision procedures', rewrite: 'rewriting', sauto: 'sauto', witness: 'witnesses', premises: 'premise selection', induction: 'induction', discovery: 'lemma discovery',
  crush: 'CRUSH', quick: 'quick', coqhammer: 'CoqHammer', reconstruction: 'reconstruction',
};

/** The instance that makes the goal false, when the report's counterexample search found one (`n = 1`). */
export function counterexampleOf(report: HammerReport | undefined): string | undefined {
  const refuted = report?.stages.find((s) => s.stage === 'refutation' && s.outcome === 'refuted');
  return refuted ? refuted.detail ?? '' : undefined;
}

/**
 * One line for people: `CRUSH progress 14 ms · lia failed 4 ms · … · CoqHammer timeout 5.0 s`; a false goal
 * says so first, with its counterexample. The workbench's Messages and the MCP tools show this same text.
 */
export function formatHammerReport(report: HammerReport): string {
  const time = (ms: number): string => (ms >= 1000 ? `${(ms / 1000).toFixed(1)} s` : `${ms} ms`);
  const stages = report.stages.map((s) => {
    const what = s.tactic ? s.tactic.replace(/^solve \[(.*)\]$/, '$1') : STAGE_NAMES[s.stage];
    return `${what} ${s.outcome}${s.outcome === 'skipped' ? '' : ` ${time(s.ms)}`}`;
  });
  const instance = counterexampleOf(report);
  const head = report.closedWith ? `closed by ${report.closedWith} in ${time(report.ms)}`
    : instance !== undefined ? `the goal is false: counterexample ${instance} (checked by Coq), found in ${time(report.ms)}`
      : `not closed after ${time(report.ms)}`;
  return `${head}: ${stages.join(' · ')}`;
}

/** The counterexample an error text names (`fail: the goal is false: n = 1 (a counterexample Coq checked)`). */
export function counterexampleInError(err: string): string | undefined {
  return /the goal is false: (.*?) \(a counterexample/.exec(err)?.[1];
}
