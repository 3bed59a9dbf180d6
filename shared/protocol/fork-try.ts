import { goalsInContext } from '../proof-tree/tree-view-queries.ts';
import { parseStateJson, treeViewFromState } from '../proof-tree/from-state-json.ts';
import type { ShellResponse } from './shell-command.ts';

/**
 * A try on a fork of a channel's state (a state handle, issue 22 item 2): what an agent's checking tool
 * runs, the same in-process and over the workbench API (`fork.try`), so an attached agent tries exactly
 * as an in-process one does.
 */
export interface ForkTrySpec {
  /** The step of the channel's state to start from (default: its state now). */
  step?: number;
  /** Requests without a channel id, in order; the first that fails ends the try. */
  commands: string[];
  /** When the commands leave no goal open (and the last is not END), run END too: the theorem's Qed on the fork. */
  endWhenProved?: boolean;
  /** Past this the try is stopped and answered `timeout`. */
  deadlineMs?: number;
}

/** What a try did: its responses, or why it could not run. */
export type ForkTryOutcome =
  | {
    outcome: 'ran';
    /** The step of the channel's state the fork started from. */
    step: number;
    /** `STATE` on the fork before the try: the reference its outcome is judged against. */
    state: ShellResponse;
    /** One per command that ran (the failing one last), plus END's when `endWhenProved` added it. */
    responses: ShellResponse[];
  }
  | { outcome: 'timeout' | 'unavailable'; error: string };

/** Bounds on one try, checked by the API's schema and by the runner alike. */
export const FORK_TRY_LIMITS = {
  commands: 64,
  commandChars: 10_000,
  deadlineMs: 600_000,
  /** The deadline of a try that names none (a try always has one: it may hold the channel's own prover). */
  defaultDeadlineMs: 180_000,
  /** Tries one client may have running at once; more are refused, not queued. */
  inFlightPerClient: 4,
} as const;

/** A try reads the state first and, when its commands leave no goal open, ends with END. */
export const TRY_FIRST = 'STATE';
export const TRY_LAST = 'END';

/**
 * Runs a try's sequence over one request function (a fork's, or a scratch channel's): `STATE`, the
 * commands until one fails, then END when asked and nothing is left open.
 */
export async function runTrySequence(
  run: (request: string) => Promise<ShellResponse>,
  spec: Pick<ForkTrySpec, 'commands' | 'endWhenProved'>,
): Promise<{ state: ShellResponse; responses: ShellResponse[] }> {
  const state = await run(TRY_FIRST);
  const responses: ShellResponse[] = [];
  for (const command of spec.commands) {
    const r = await run(command);
    responses.push(r);
    if (r.ERR !== '') break;
  }
  const last = responses.at(-1);
  if (spec.endWhenProved && last && last.ERR === '' && responses.length === spec.commands.length && !/^\s*END\b/.test(spec.commands.at(-1) ?? '')) {
    const parsed = parseStateJson(last.RESPONSE);
    const tree = parsed ? treeViewFromState(parsed, { step: last.STEP ?? 0 }) : undefined;
    if (tree && goalsInContext(tree).every((g) => g.proved)) responses.push(await run(TRY_LAST));
  }
  return { state, responses };
}
