import { parseRequest } from './parse-request.ts';
import { splitRequests } from './split-requests.ts';

/**
 * The theorem name a line's `GOAL` gives, read by the protocol's own parser: no second grammar for names
 * (primes, dots, unicode — a name is whatever the parser took), so the editor and the problems list name
 * exactly the theorems the shell runs.
 */
export function goalNameOf(line: string): string | undefined {
  for (const raw of splitRequests(line)) {
    if (raw.error) continue;
    const parsed = parseRequest(raw.text);
    if ('command' in parsed && parsed.command.name === 'GOAL') return parsed.command.theoremName;
  }
  return undefined;
}
