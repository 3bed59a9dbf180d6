import type { HammerReport, HammerStage } from './hammer-report.ts';
import { counterexampleOf } from './hammer-report.ts';

/**
 * A failed HAMMER in one line, built from its typed report (never from the message text): what it tried,
 * by family, in the order it tried them — `no proof in 20 s — tried decision procedures, rewriting,
 * induction on n and l, CoqHammer`. The stage list stays available for who asks (`hammerStageRows`).
 */
const FAMILY: Record<HammerStage['stage'], string | undefined> = {
  refutation: undefined, decision: 'decision procedures', rewrite: 'rewriting', sauto: 'sauto', witness: 'witnesses',
  premises: 'the lemmas in scope', induction: 'induction', discovery: 'lemma discovery', crush: 'CRUSH', quick: 'quick tactics', coqhammer: 'CoqHammer', reconstruction: undefined,
};

export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const s = ms / 1000;
  return s < 10 ? `${s.toFixed(1)} s` : `${Math.round(s)} s`;
}

/** The variables the induction stage inducted on (`induction n`), in order, once each. */
function inductionVariables(stages: readonly HammerStage[]): string[] {
  const vars: string[] = [];
  for (const s of stages) {
    if (s.stage !== 'induction' || !s.tactic) continue;
    for (const m of s.tactic.matchAll(/\binduction\s+([A-Za-z_][\w']*)/g)) if (m[1] && !vars.includes(m[1])) vars.push(m[1]);
  }
  return vars;
}

const joinAnd = (xs: readonly string[]): string => (xs.length <= 1 ? xs.join('') : `${xs.slice(0, -1).join(', ')} and ${xs.at(-1) as string}`);

export function summariseHammerFailure(report: HammerReport): string {
  const instance = counterexampleOf(report);
  if (instance !== undefined) return `the goal is false: counterexample ${instance} (checked by Coq)`;
  const tried: string[] = [];
  for (const s of report.stages) {
    if (s.outcome === 'skipped') continue;
    const family = FAMILY[s.stage];
    if (!family) continue;
    const label = s.stage === 'induction' && inductionVariables(report.stages).length > 0 ? `induction on ${joinAnd(inductionVariables(report.stages))}` : family;
    if (!tried.includes(label)) tried.push(label);
  }
  const head = `no proof in ${formatDuration(report.ms)}`;
  return tried.length > 0 ? `${head} — tried ${tried.join(', ')}` : head;
}

/** The stage list, one row per stage tried (what the one line expands to). */
export function hammerStageRows(report: HammerReport): { what: string; outcome: HammerStage['outcome']; time: string; detail?: string }[] {
  return report.stages.map((s) => ({
    what: s.tactic ? s.tactic.replace(/^solve \[(.*)\]$/, '$1') : FAMILY[s.stage] ?? s.stage,
    outcome: s.outcome,
    time: s.outcome === 'skipped' ? '' : formatDuration(s.ms),
    ...(s.detail ? { detail: s.detail } : {}),
  }));
}
