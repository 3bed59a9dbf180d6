import { availableParallelism } from 'node:os';

/**
 * CoqHammer runs `GSMode` ATP strategies at once. Channels that hammer at the same time share the
 * machine's cores: each gets its share of strategies (two per core in all), so two channels hammering
 * on two cores run two strategies each instead of oversubscribing the cores fourfold.
 */
let active = 0;

export interface HammerShare {
  /** How many ATP strategies this hammer call may run in parallel. */
  strategies: number;
  release(): void;
}

export function shareHammer(cores = availableParallelism()): HammerShare {
  active++;
  const strategies = Math.max(1, Math.min(8, Math.floor((2 * cores) / active)));
  let released = false;
  return {
    strategies,
    release: () => {
      if (!released) {
        released = true;
        active--;
      }
    },
  };
}
