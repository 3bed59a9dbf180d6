import type { StatementMeaning } from '../../shared/protocol/statement-meaning.ts';
import type { SectionPremise } from '../../shared/protocol/section-premises.ts';
import type { HammerReport } from '../../shared/protocol/hammer-report.ts';
import type { ShellCommand } from '../../shared/protocol/shell-command.ts';
import type { ChannelCommandName } from '../../shared/protocol/commands.ts';
import type { TreeView } from '../../shared/proof-tree/proof-tree.ts';
import type { DerivationNode } from '../../shared/derivation/derivation.ts';
import type { DocumentItem } from '../../shared/derivation/recorded-derivation.ts';
import type { BackendId } from './prover-session.ts';

/** What a channel's engine executes: every command but the shell's own channel management. */
export type EngineCommand = Exclude<ShellCommand, { name: ChannelCommandName }>;

/** What one proof command produced: the protocol's RESPONSE or ERR, plus the additive keys. */
export interface EngineResult {
  response: unknown;
  error: string;
  step?: number;
  script?: string;
  /** On the END that finished a proof: what the theorem depends on beyond the global context (all trusted). */
  assumptions?: string[];
  /** On that END: the statement as elaborated, when it differs from its clean reading. */
  statement?: StatementMeaning;
  /** On that END, inside an open section: the section's hypotheses and variables it is proved under. */
  premises?: SectionPremise[];
  /** HAMMER, or an END that hammered: what each stage did (on failure too). */
  hammerReport?: HammerReport;
  /** `response` is the proof state, built when first read (see `lazily`). */
  isState?: true;
}

/** Which derivation: an item of the document (0-based), or the one holding `step`; up to `step`. */
export interface DerivationQuery {
  item?: number;
  step?: number;
}

/** One item's derivation as the engine recorded it, with the document's items (for an outline). */
export interface ItemDerivation {
  items: DocumentItem[];
  item: number;
  /** The last step the derivation includes. */
  upTo: number;
  /** Absent for a declaration. */
  root?: DerivationNode;
  /** The node that stands for the state's current goal at `upTo`. */
  currentKey?: string;
}

export type DerivationAnswer = ItemDerivation | { unavailable: string };

/** A channel's status as the workbench's channels panel shows it. */
export interface ChannelStatus {
  backend: BackendId;
  pid?: number;
  busy: boolean;
  step: number;
  finished: boolean;
}

/**
 * The semantics behind one channel. `TacticEngine` implements the shell's commands over a
 * `ProverSession` (Coq, eq, Lean); a pass-through engine forwards to a process that speaks the channel
 * protocol itself (Isabelle). Commands arrive one at a time, in order.
 */
export interface ChannelEngine {
  execute(command: EngineCommand): Promise<EngineResult>;
  /**
   * The tree with ids and statuses after `step` (default: the latest), for the workbench; undefined
   * before the first GOAL, after a declaration, or for a step the history no longer has.
   */
  treeView(step?: number): TreeView | undefined;
  /**
   * The derivation of an item of the channel's document as the engine recorded it (every item, every
   * step of its history), or why this engine has none. Optional: an engine without it has none.
   */
  derivation?(query?: DerivationQuery): DerivationAnswer;
  status(): ChannelStatus;
  /** Stop whatever runs now (the running command answers with an error) and release the prover. */
  dispose(): Promise<void>;
  /**
   * Resolves once the engine's prover is up with its prelude, rejects with why it cannot be (a prelude the
   * prover refused): PRELUDE waits for it, so a refused prelude is PRELUDE's own error.
   */
  opened?(): Promise<void>;
}
