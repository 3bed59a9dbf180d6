import type { StatementMeaning } from './statement-meaning.ts';
import type { HammerReport } from './hammer-report.ts';
import type { SectionPremise } from './section-premises.ts';
import { MINILANG_COMMAND_NAMES, type CommandName, type MinilangCommandName } from './commands.ts';

export { COMMAND_NAMES, MINILANG_COMMAND_NAMES, PROOF_COMMANDS, QUERY_NAMES, type CommandName, type MinilangCommandName } from './commands.ts';

/** The channel protocol's commands (seed 000) and Arbor's extensions (BRIEF §3), as parsed values. */
export type ShellCommand =
  | { name: 'GOAL'; expr: string; theoremName?: string }
  | { name: 'END' }
  | { name: 'NEXT' }
  | { name: 'CRUSH'; rules: string[] }
  | { name: 'HAVE'; hypName?: string; expr: string }
  | { name: 'OBTAIN'; vars: string[]; type?: string; conds: ObtainCondition[] }
  | { name: 'HAMMER'; timeoutSeconds?: number }
  | { name: 'RULE'; rule: string }
  | { name: 'UNFOLD'; rule: string }
  | { name: 'APPLY'; tactic: string }
  | { name: 'LET'; abbrev: string; term: string }
  | { name: 'PRINT_MODE'; mode: 1 | 2 }
  | { name: 'NEW_CHANNEL' }
  | { name: 'RELEASE_CHANNEL' }
  // Extensions
  | { name: 'CANCEL' }
  | { name: 'STATE' }
  | { name: 'REVERT'; step: number }
  | { name: 'SCRIPT' }
  | { name: 'PRELUDE'; text: string; environment?: string }
  // Proof documents: declarations and look-ups between proofs. `proofLocal`: written without quotes, it is
  // Minilang's own DEFINE (a definition inside the proof; isabelle backend), not a document declaration.
  | { name: 'DEFINE'; text: string; proofLocal?: true }
  | QueryCommand
  // Minilang's commands that the seed lacks (isabelle backend only), arguments in Minilang's own syntax
  | MinilangCommand;

/**
 * Commands of Isabelle/Minilang (v0.6.0, `library/proof.ML`) that the seed does not have (commands.ts lists
 * them). The isabelle backend sends them to Minilang (after its policy checks the arguments); other backends
 * answer `unsupported`.
 */
export interface MinilangCommand { name: MinilangCommandName; args: string }

export function isMinilangName(name: string): name is MinilangCommandName {
  return (MINILANG_COMMAND_NAMES as readonly string[]).includes(name);
}

export function isMinilangCommand(command: { name: string }): command is MinilangCommand {
  return isMinilangName(command.name);
}

/** Look-ups in the channel's environment (at its current state): they never change it. */
export type QueryCommand =
  | { name: 'SEARCH'; pattern: string }
  | { name: 'CHECK'; term: string }
  | { name: 'ABOUT'; ident: string }
  | { name: 'PRINT'; ident: string }
  | { name: 'LOCATE'; ident: string };

export interface ObtainCondition {
  name?: string;
  expr: string;
}

/** Every command of the table has a typed form here, and no other (checked when this file compiles). */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const _everyCommandTyped: Same<ShellCommand['name'], CommandName> = true;
void _everyCommandTyped;

/** One parsed request: the channel it is for, and its command or why it could not be parsed. */
export type ParsedRequest =
  | { channel: number; command: ShellCommand; text: string }
  | { channel: number; error: string; text: string };

/** The one JSON line answering a request. Keys beyond the seed's three are additive (BRIEF §3). */
export interface ShellResponse {
  CHANNEL: number;
  RESPONSE: unknown;
  ERR: string;
  STEP?: number;
  SCRIPT?: string;
  /** On the END that finished a proof: the axioms it depends on (empty: closed under the global context). */
  ASSUMPTIONS?: string[];
  /** On the END that finished a proof whose statement means something else than its text in a clean environment: what Coq elaborated, and what differs. */
  STATEMENT?: StatementMeaning;
  /** On the END that finished a proof inside an open section: the section's hypotheses and variables it is proved under (`proved, assuming …`). */
  PREMISES?: SectionPremise[];
  /** With PREMISES, the result in words: `proved, assuming the section's hypothesis H : False`. */
  CONDITIONAL?: string;
  /** HAMMER, or an END that hammered: its stages, times and outcomes, and what closed the goal. */
  HAMMER_REPORT?: HammerReport;
}
