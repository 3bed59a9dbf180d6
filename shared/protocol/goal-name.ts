import { parseRequest } from './parse-request.ts';
import { splitRequests } from './split-requests.ts';

/**
 * The GOAL a line leaves open, read by the protocol's own parser: no second grammar for names (primes,
 * dots, unicode — a name is whatever the parser took), so the editor and the problems list name exactly the
 * theorems the shell runs. A line may carry several requests (`;`), all run on the document's channel, and a
 * GOAL replaces the proof open before it: the line's **last** GOAL is the one its later lines prove (taking
 * the first one showed `GOAL a "False"; GOAL b "True"` … `END` as "a proved"). Undefined: no GOAL on the line;
 * `{}`: a GOAL without a name.
 */
export function lastGoalOf(line: string): { name?: string } | undefined {
  let out: { name?: string } | undefined;
  for (const raw of splitRequests(line)) {
    if (raw.error) continue;
    const parsed = parseRequest(raw.text);
    if ('command' in parsed && parsed.command.name === 'GOAL') out = parsed.command.theoremName !== undefined ? { name: parsed.command.theoremName } : {};
  }
  return out;
}

/** The theorem name of the line's last GOAL (see `lastGoalOf`), or undefined. */
export const goalNameOf = (line: string): string | undefined => lastGoalOf(line)?.name;
