import type { TreeView } from '../../../shared/proof-tree/proof-tree.ts';
import type { GoalInContext } from '../../../shared/proof-tree/tree-view-queries.ts';

/** What a suggestion source sees: the state and the same texts the MCP tools give agents. */
export interface SourceContext {
  tree: TreeView;
  current: GoalInContext;
  stateText: string;
  contextText: string;
  historyText: string;
  structureText: string;
}

/** A command sequence a source proposes for the current goal (checked by the prover before it is shown). */
export interface Proposal {
  commands: string[];
  reason?: string;
  /** Estimated steps left after the commands (an equational advisor's distance), shown with the suggestion. */
  estimate?: number;
}

/** A producer of proposals: built-in (hammer portfolio, quick tactics) or a chat model. */
export interface SuggestionSource {
  readonly name: string;
  propose(context: SourceContext, signal?: AbortSignal): Promise<Proposal[]>;
}
