/**
 * Arbor's own prover as a time-sliced portfolio of completion configurations: different KBO
 * precedences orient the loop operations differently and so solve different problems; each gets a
 * share of the budget, run one after another (one core).
 */
import { type CompletionAxiom, type CompletionStats, proveByCompletion } from './completion.ts';
import { DEFAULT_KBO_PRECEDENCE, kboWithPrecedence, type TermOrder } from './kbo.ts';
import type { EqProof } from './proof.ts';
import { SYM, type Term, type TermBank } from './term.ts';

export interface OwnConfig {
  name: string;
  /** Share of the own budget (the last configuration gets whatever is left). */
  share: number;
  order: TermOrder | 'kbo';
  goalFactor?: number;
  fifoEvery?: number;
}

export const OWN_SCHEDULE: readonly OwnConfig[] = [
  { name: 'kbo', share: 0.6, order: 'kbo', goalFactor: 0.7 },
  { name: 'kbo-div', share: 0.4, order: kboWithPrecedence([SYM.e, SYM.ldiv, SYM.rdiv, SYM.mul, SYM.K, SYM.T, SYM.L, SYM.R, SYM.a]), goalFactor: 0.7 },
];
void DEFAULT_KBO_PRECEDENCE;

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
      ...(options.signal ? { signal: options.signal } : {}),
    });
    stats.push(r.stats);
    if (r.proof) return { proof: r.proof, bank: r.bank, config: c.name, stats };
  }
  return { stats };
}
