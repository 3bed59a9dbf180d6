import type { HammerReport } from './hammer-report.ts';
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
  | { name: 'PRELUDE'; text: string }
  // Proof documents: declarations and look-ups between proofs
  | { name: 'DEFINE'; text: string }
  | QueryCommand;

/** Look-ups in the channel's environment (at its current state): they never change it. */
export type QueryCommand =
  | { name: 'SEARCH'; pattern: string }
  | { name: 'CHECK'; term: string }
  | { name: 'ABOUT'; ident: string }
  | { name: 'PRINT'; ident: string }
  | { name: 'LOCATE'; ident: string };

export const QUERY_NAMES: ReadonlySet<CommandName> = new Set<CommandName>(['SEARCH', 'CHECK', 'ABOUT', 'PRINT', 'LOCATE']);

export interface ObtainCondition {
  name?: string;
  expr: string;
}

export type CommandName = ShellCommand['name'];

export const COMMAND_NAMES: readonly CommandName[] = [
  'GOAL', 'END', 'NEXT', 'CRUSH', 'HAVE', 'OBTAIN', 'HAMMER', 'RULE', 'UNFOLD', 'APPLY', 'LET',
  'PRINT_MODE', 'NEW_CHANNEL', 'RELEASE_CHANNEL', 'STATE', 'REVERT', 'SCRIPT', 'PRELUDE', 'CANCEL',
  'DEFINE', 'SEARCH', 'CHECK', 'ABOUT', 'PRINT', 'LOCATE',
];

/** Commands that work on the channel's proof and so answer with a `STEP`. */
export const PROOF_COMMANDS: ReadonlySet<CommandName> = new Set<CommandName>([
  'GOAL', 'END', 'NEXT', 'CRUSH', 'HAVE', 'OBTAIN', 'HAMMER', 'RULE', 'UNFOLD', 'APPLY', 'LET',
  'PRINT_MODE', 'STATE', 'REVERT', 'DEFINE',
]);

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
  /** HAMMER, or an END that hammered: its stages, times and outcomes, and what closed the goal. */
  HAMMER_REPORT?: HammerReport;
}
