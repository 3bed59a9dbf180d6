import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_PRELUDE } from '../../provers/eq/default-prelude.ts';

/** Loop-theory facts Arbor's completion proves in a fraction of a second (from the loop axioms alone). */
const PROVABLE = ['e \\ x = x', 'x / e = x', 'x \\ x = e', 'x / x = e', 'y / (x \\ y) = x', '(y / x) \\ y = x'];
/** False in loops (commutativity, associativity): never proved, so each runs for the whole limit. */
const FALSE = ['x * y = y * x', '(x * y) * z = x * (y * z)', 'x * (y * x) = (x * y) * x'];

/**
 * An AIM problem file of the project's own (the default prelude and theorems over it, no evaluation data):
 * `fast` quick items then `slow` ones that run to the limit, in the order given; names carry `tag`, so two
 * tests never share a job id. Returns the file and the theorem names in order.
 */
export function writeLoopProblems(dir: string, tag: string, order: readonly ('fast' | 'slow')[], extraLines: readonly string[] = []): { file: string; names: string[] } {
  let fast = 0;
  let slow = 0;
  const names: string[] = [];
  const lines = order.map((k) => {
    const name = k === 'fast' ? `${tag}_fast${fast}` : `${tag}_slow${slow}`;
    const statement = k === 'fast' ? PROVABLE[fast++ % PROVABLE.length] : FALSE[slow++ % FALSE.length];
    names.push(name);
    return `Theorem ${name}: ${statement}.`;
  });
  const file = join(dir, `${tag}.aim`);
  writeFileSync(file, `${DEFAULT_PRELUDE}${[...lines, ...extraLines].join('\n')}\n`);
  return { file, names };
}
