/**
 * Arbor's own prover as a time-sliced portfolio of completion configurations, run one after another
 * (one core). Measured on the AIM dev sample (bench/aim/own-probe.ts): LPO with the defined
 * operations on top unfolds them and solves some problems within milliseconds that KBO (which folds
 * them) does not solve in minutes, but it often blows up, so it gets a short first slice (and gives
 * up early when the goal outgrows the size cap); goal-directed KBO gets the rest. Its pair priority
 * 2·larger + smaller (times 0.5 for each side that matches a goal subterm) solved 32/40 of the
 * seed-1 sample in 5 s against 19/40 with the plain size sum (probe, own completion alone).
 */
import { type CompletionAxiom, type CompletionStats, proveByCompletion } from './completion.ts';
import { kboWithPrecedence, type TermOrder } from './kbo.ts';
import type { EqProof } from './proof.ts';
import { SYM, type Term, type TermBank } from './term.ts';

export interface OwnConfig {
  name: string;
  /** Share of the own budget (the last configuration gets whatever is left). */
  share: number;
  order: TermOrder | 'kbo' | 'lpo';
  goalFactor?: number;
  fifoEvery?: number;
  weighting?: 'sum' | 'max';
}

export const OWN_SCHEDULE: readonly OwnConfig[] = [
  { name: 'lpo', share: 0.15, order: 'lpo', goalFactor: 0.5, fifoEvery: 12 },
  { name: 'kbo-max-goal', share: 0.85, order: 'kbo', goalFactor: 0.5, fifoEvery: 12, weighting: 'max' },
];

/** KBO with `*` above the divisions: same results as the default on the probe set, kept for experiments. */
export const KBO_MUL_HIGH: TermOrder = kboWithPrecedence([SYM.e, SYM.ldiv, SYM.rdiv, SYM.mul, SYM.K, SYM.T, SYM.L, SYM.R, SYM.a]);

export interface OwnResult {
  proof?: EqProof;
  bank?: TermBank;
  config?: string;
  stats: CompletionStats[];
}

export async function proveOwn(bank: TermBank, axioms: readonly CompletionAxiom[], goal: { lhs: Term; rhs: Term }, deadline: number, options: { signal?: AbortSignal; schedule?: readonly OwnConfig[] } = {}): Promise<OwnResult> {
  const schedule = options.schedule ?? OWN_SCHEDULE;
  const stats: CompletionStats[] = [];
  const total = Math.max(0, deadline - Date.now());
  for (let i = 0; i < schedule.length; i++) {
    const c = schedule[i] as OwnConfig;
    const now = Date.now();
    if (now >= deadline || options.signal?.aborted) break;
    const sliceEnd = i === schedule.length - 1 ? deadline : Math.min(deadline, now + c.share * total);
    const r = await proveByCompletion(bank, axioms, goal, {
      deadline: sliceEnd,
      order: c.order,
      ...(c.goalFactor !== undefined ? { goalFactor: c.goalFactor } : {}),
      ...(c.fifoEvery !== undefined ? { fifoEvery: c.fifoEvery } : {}),
      ...(c.weighting ? { weighting: c.weighting } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
    });
    stats.push(r.stats);
    if (r.proof) return { proof: r.proof, bank: r.bank, config: c.name, stats };
  }
  return { stats };
}
