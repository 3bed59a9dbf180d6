import { descendants } from '../process-tree.ts';

/** Polls `check` until it holds or `ms` pass (tests wait on conditions, never on fixed delays); the last answer. */
export async function until(check: () => boolean, ms: number, everyMs = 50): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (check()) return true;
    await new Promise((r) => setTimeout(r, everyMs));
  }
  return check();
}

/** The `coqidetop` processes below `root` (default: this test process), by pid. */
export const proversBelow = (root = process.pid): number[] => descendants(root).filter((p) => /^coqidetop/.test(p.name)).map((p) => p.pid);
