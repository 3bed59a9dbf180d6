import type { ShellResponse } from '../protocol/shell-command.ts';
import { provedWording } from '../protocol/section-premises.ts';

/**
 * One transcript row's text for a response: its error, or its step — and, for an END proved under a
 * section's hypotheses, that it is conditional (◐ and the words), so a replay never reads as plainly proved.
 */
export function responseSummary(r: ShellResponse): string {
  if (r.ERR) return `ERR ${r.ERR}`;
  const conditional = r.CONDITIONAL ?? (r.PREMISES?.length ? provedWording(r.PREMISES) : undefined);
  const head = r.STEP !== undefined ? `step ${r.STEP}` : 'ok';
  return conditional ? `${head} ◐ ${conditional}` : head;
}
