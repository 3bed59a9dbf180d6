import type { SuggestionFidelity } from '../../shared/agent/agent-types.ts';
import type { FidelityProver } from '../../shared/fidelity/fidelity-prover.ts';
import { checkFidelity } from '../fidelity/check-fidelity.ts';

/** The statement of the first `GOAL "…"` among a suggestion's commands (with or without a channel id), or null. */
export function suggestedGoal(commands: readonly string[]): string | null {
  for (const c of commands) {
    const m = /(?:^|;)\s*(?:\d+\s+)?GOAL\s+"((?:[^"\\]|\\.)*)"/u.exec(c);
    if (m) return (m[1] as string).replace(/\\"/gu, '"');
  }
  return null;
}

/**
 * A suggested goal against the proof's reference statement. Only the quick tiers (S0, S1, type check,
 * refutation on small models): the badge must appear while the user still reads the suggestion.
 */
export async function checkAgainstReference(reference: string, goal: string, prover?: FidelityProver | null): Promise<SuggestionFidelity> {
  try {
    const r = await checkFidelity({ canonical: reference, candidate: goal, tiers: ['s0', 's1', 'typecheck', 'refute'], timeoutMs: 1000, hammerTimeoutMs: 2000 }, prover);
    return { verdict: r.verdict, tier: r.tier, reason: r.reason };
  } catch (err) {
    return { verdict: 'unknown', tier: null, reason: `fidelity check failed: ${err instanceof Error ? err.message : String(err)}` };
  }
}
