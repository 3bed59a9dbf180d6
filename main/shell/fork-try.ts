import { TRY_COMMANDS } from '../../shared/protocol/commands.ts';
import type { ForkTryOutcome, ForkTrySpec } from '../../shared/protocol/fork-try.ts';
import { FORK_TRY_LIMITS, runTrySequence } from '../../shared/protocol/fork-try.ts';
import { parseRequest } from '../../shared/protocol/parse-request.ts';
import { splitRequests } from '../../shared/protocol/split-requests.ts';
import type { StateForks } from './state-forks.ts';
import { ForkTimeout, ForkUnavailable } from './state-forks.ts';

/** A try the runner refuses before it starts (bad commands, bad bounds): the caller's mistake, said plainly. */
export class ForkTryRefused extends Error {}

/**
 * One try on a fork of `channel` (state-forks.ts): the one way agents try commands, in-process
 * (`inProcessPort`) and over the workbench API (`fork.try`). The channel never moves.
 */
export async function runForkTry(forks: StateForks, channel: number, spec: ForkTrySpec): Promise<ForkTryOutcome> {
  checkForkTry(spec);
  const deadlineMs = spec.deadlineMs ?? FORK_TRY_LIMITS.defaultDeadlineMs;
  try {
    return await forks.run(channel, async (fork) => {
      const { state, responses } = await runTrySequence(async (request) => {
        // A try goes forward from its handle: to try from an earlier state, name that step instead.
        const parsed = parseRequest(request);
        if ('command' in parsed && parsed.command.name === 'REVERT' && parsed.command.step < fork.step) {
          return { CHANNEL: channel, RESPONSE: null, ERR: `REVERT ${parsed.command.step} is below the step this try started from (${fork.step}): pass step to try from an earlier state` };
        }
        return fork.run(request);
      }, spec);
      return { outcome: 'ran', step: fork.step, state, responses };
    }, { deadlineMs, ...(spec.step !== undefined ? { step: spec.step } : {}) });
  } catch (e) {
    if (e instanceof ForkTimeout) return { outcome: 'timeout', error: e.message };
    if (e instanceof ForkUnavailable) return { outcome: 'unavailable', error: e.message };
    throw e;
  }
}

/** Every bound and every command of a try, before anything runs (the API's schema checks the same bounds). */
export function checkForkTry(spec: ForkTrySpec): void {
  const { commands, deadlineMs, step } = spec;
  if (!Array.isArray(commands) || commands.length === 0) throw new ForkTryRefused('a try needs at least one command');
  if (commands.length > FORK_TRY_LIMITS.commands) throw new ForkTryRefused(`too many commands in one try: ${commands.length} (limit ${FORK_TRY_LIMITS.commands})`);
  if (deadlineMs !== undefined && !(Number.isInteger(deadlineMs) && deadlineMs > 0 && deadlineMs <= FORK_TRY_LIMITS.deadlineMs)) {
    throw new ForkTryRefused(`deadlineMs must be a whole number of milliseconds from 1 to ${FORK_TRY_LIMITS.deadlineMs}`);
  }
  if (step !== undefined && !(Number.isSafeInteger(step) && step >= 0)) throw new ForkTryRefused('step must be a whole number ≥ 0');
  commands.forEach((command, i) => {
    const where = `command ${i + 1}`;
    if (typeof command !== 'string' || command.length > FORK_TRY_LIMITS.commandChars) throw new ForkTryRefused(`${where}: at most ${FORK_TRY_LIMITS.commandChars} characters`);
    const raw = splitRequests(command);
    if (raw.length !== 1 || raw[0]?.text !== command.trim()) throw new ForkTryRefused(`${where}: exactly one request per command (a ';' outside brackets or quotes splits requests)`);
    if (/^\s*[0-9]/.test(command)) throw new ForkTryRefused(`${where}: a try runs on its fork; leave out the channel id`);
    const parsed = parseRequest(command);
    if ('error' in parsed) throw new ForkTryRefused(`${where}: ${parsed.error}`);
    if (!TRY_COMMANDS.has(parsed.command.name)) throw new ForkTryRefused(`${where}: ${parsed.command.name} is not allowed in a try`);
  });
}
