/**
 * What the agent side (main/agent) and the workbench's suggestion panel share: suggestions in the queue
 * and records of the edit history. Pure types, so the renderer can import them.
 */
import type { StatementMeaning } from '../protocol/statement-meaning.ts';

export type SuggestionStatus = 'pending' | 'accepted' | 'rejected';

/**
 * `valid`/`invalid`: a hypothesis edit the prover could or could not derive from the old hypothesis.
 * `closes_goal`/`progress`/`invalid`: commands tried on a copy of the state (`closes_goal_different_meaning`: it
 * finished the theorem, but the statement Coq elaborated differs from its text's clean reading).
 */
export type SuggestionLabel = 'valid' | 'invalid' | 'closes_goal' | 'closes_goal_different_meaning' | 'progress';

export interface HypothesisEdit {
  kind: 'hypothesis-edit';
  hypothesisName: string;
  originalValue: string;
  suggestedValue: string;
  /** The name the new form gets when accepted (`H'`): the old hypothesis stays in the context. */
  newName: string;
}

export interface CommandSuggestion {
  kind: 'commands';
  commands: string[];
}

export interface Suggestion {
  id: number;
  /** `agent:NAME` for MCP clients, `source:NAME` for built-in sources. */
  from: string;
  time: number;
  edit: HypothesisEdit | CommandSuggestion;
  reason?: string;
  /** An advisor's estimate of the steps left after the suggestion (equational goals). */
  estimate?: number;
  label: SuggestionLabel;
  /** `closes_goal_different_meaning`: the statement as Coq elaborated it, and what differs from its clean reading. */
  statement?: StatementMeaning;
  /** The prover's message when `invalid`. */
  error?: string;
  /** The goals the suggestion leaves in place of the current goal (`progress`). */
  subgoals?: string[];
  /** The commands that apply the suggestion to the channel when accepted. */
  apply: string[];
  status: SuggestionStatus;
  /** The channel's step the suggestion was checked against. */
  step: number;
  /** A suggested `GOAL "…"` checked against the proof's reference statement (quick tiers only). */
  fidelity?: SuggestionFidelity;
}

/** The verdict of a suggested goal against the reference statement (see shared/fidelity). */
export interface SuggestionFidelity {
  verdict: 'equivalent' | 'not_equivalent' | 'ill_typed' | 'unknown';
  tier: string | null;
  reason: string;
}

/** `undone`: an accepted suggestion's line taken out again by the user's undo. */
export type EditOutcome = 'accepted' | 'rejected' | 'manual' | 'undone';

/** One entry of a proof's edit history (seed 003). */
export interface EditRecord {
  /** The left-hand side as shown: `H : n + 0 = n` for a hypothesis edit, else the text replaced. */
  lhs: string;
  rhs: string;
  outcome: EditOutcome;
  /** `agent:NAME`, `source:NAME` (built-in suggestion sources) or `user`. */
  source: string;
  /** Milliseconds since the epoch. */
  time: number;
  hypothesisName?: string;
  reason?: string;
  /** The suggestion this edit decided, when it was one. */
  suggestionId?: number;
}
