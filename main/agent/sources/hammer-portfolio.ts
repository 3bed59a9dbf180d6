import type { Proposal, SuggestionSource } from './suggestion-source.ts';

/**
 * The hammer portfolio: Arbor's own `HAMMER` (crush, quick tactics per subgoal, CoqHammer with
 * reconstruction) and CoqHammer's reconstruction tactics run directly, each a different trade of
 * strength against time. Offline: everything runs in the local prover.
 */
export function hammerPortfolio(options: { hammerSeconds?: number } = {}): SuggestionSource {
  const seconds = options.hammerSeconds ?? 10;
  const portfolio: Proposal[] = [
    { commands: [`HAMMER ${seconds}`], reason: `Arbor's hammer (${seconds} s): crush, quick tactics, then CoqHammer with reconstruction` },
    { commands: ['CRUSH'], reason: 'simplify and split the goal' },
    { commands: ['APPLY (sauto)'], reason: "CoqHammer's sauto" },
    { commands: ['APPLY (sfirstorder)'], reason: "CoqHammer's sfirstorder" },
    { commands: ['APPLY (intros; scongruence)'], reason: "CoqHammer's scongruence after intros" },
  ];
  return { name: 'hammer-portfolio', propose: async () => portfolio };
}
