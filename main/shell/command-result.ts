import type { HammerReport } from '../../shared/protocol/hammer-report.ts';
import type { ShellResponse } from '../../shared/protocol/shell-command.ts';
import type { StatementMeaning } from '../../shared/protocol/statement-meaning.ts';
import type { SectionPremise } from '../../shared/protocol/section-premises.ts';
import { provedWording } from '../../shared/protocol/section-premises.ts';
import type { TreeView } from '../../shared/proof-tree/proof-tree.ts';

/**
 * What one command did, as a typed value: what in-process clients (the host's documents, agents) read
 * instead of a `RESPONSE` line. The protocol's JSON line is this value rendered at a text edge
 * (`toShellResponse`): `arbor-shell` on stdio, `shell.submit`, transcripts.
 */
interface ResultBase {
  /** The channel that answered (for a parse error without a channel: 0). */
  channel: number;
  /** The protocol's RESPONSE: a proof state, a query's answer, `{ declared }`, `{ ID }`, or null. */
  response: unknown;
  /** Proof commands: the channel's step after the command (after a failure: the step it stayed at). */
  step?: number;
  /** The hammer's stages: on HAMMER, or an END that hammered, on success and failure alike. */
  hammerReport?: HammerReport;
  /** The response is the proof state, built when first read (a reader holding the tree need not read it). */
  isState?: true;
}

export interface CommandSuccess extends ResultBase {
  ok: true;
  /** Proof commands: the engine's tree after the step, read in the command's turn (before the next can run). */
  tree?: TreeView;
  /** NEW_CHANNEL: the channel it opened. */
  opened?: number;
  /** The END that finished a proof: its reproduction script, what it assumes, its elaborated statement. */
  script?: string;
  assumptions?: string[];
  statement?: StatementMeaning;
  /** Inside an open section: the section's hypotheses and variables the proof assumes (a conditional result). */
  premises?: SectionPremise[];
}

export interface CommandFailure extends ResultBase {
  ok: false;
  /** Why, as the protocol's ERR text (stable prefixes: `fail`, `timeout`, `parse error`, `bad channel`, …). */
  error: string;
}

export type CommandResult = CommandSuccess | CommandFailure;

export function failure(channel: number, error: string, response: unknown = null): CommandFailure {
  return { ok: false, channel, response, error };
}

export function success(channel: number, response: unknown = null): CommandSuccess {
  return { ok: true, channel, response };
}

/**
 * The protocol's JSON line for a result: the seed's three keys, then the additive ones in a fixed order.
 * RESPONSE is read from the result when it is read (a proof state is built only for a reader that wants
 * it); `without` leaves it null (a client that gets the state as a tree change).
 */
export function toShellResponse(result: CommandResult, options: { without?: boolean } = {}): ShellResponse {
  const response: ShellResponse = { CHANNEL: result.channel, RESPONSE: null, ERR: result.ok ? '' : result.error };
  if (!options.without) lazily(response, 'RESPONSE', () => result.response);
  if (result.step !== undefined) response.STEP = result.step;
  if (result.ok) {
    if (result.script !== undefined) response.SCRIPT = result.script;
    if (result.assumptions !== undefined) response.ASSUMPTIONS = result.assumptions;
    if (result.statement !== undefined) response.STATEMENT = result.statement;
    if (result.premises !== undefined) {
      response.PREMISES = result.premises;
      response.CONDITIONAL = provedWording(result.premises);
    }
  }
  if (result.hammerReport !== undefined) response.HAMMER_REPORT = result.hammerReport;
  return response;
}

/**
 * Makes `target[key]` the value `build()` returns, built once, when first read: an enumerable property in
 * its place (JSON, spreads and copies read it as any other).
 */
export function lazily<T extends object, K extends keyof T>(target: T, key: K, build: () => T[K]): void {
  let value: T[K];
  let built = false;
  Object.defineProperty(target, key, {
    enumerable: true,
    configurable: true,
    get: () => {
      if (!built) [value, built] = [build(), true];
      return value;
    },
  });
}
