/**
 * Structured answers to the document commands (`DEFINE`) and the look-ups (`SEARCH`, `CHECK`, `ABOUT`,
 * `PRINT`, `LOCATE`): names, types and where things are defined, never the prover's raw text alone.
 * They are the protocol's `RESPONSE` for those commands, and what the MCP tools and the editor show.
 */

/** One object of the environment. */
export interface EnvironmentEntry {
  /** As the user may write it here (possibly partly qualified, e.g. `Nat.add_comm`). */
  name: string;
  /** Its type (a statement for a lemma). */
  type: string;
  /** The module that defines it (`Coq.Lists.List`), or `document` for the document's own declarations and theorems. */
  module?: string;
  /** Constant, Inductive, Constructor, Notation, … as the prover names the kind. */
  kind?: string;
}

export interface SearchAnswer {
  pattern: string;
  results: EnvironmentEntry[];
  /** More matched than the answer carries (refine the pattern). */
  truncated: boolean;
}

export interface CheckAnswer {
  term: string;
  type: string;
}

export interface AboutAnswer extends EnvironmentEntry {
  /** The fully qualified name (`Coq.Lists.List.app_length`). */
  fullName?: string;
  /** Whether the definition unfolds (`transparent`) or not (`opaque`, e.g. a `Qed` proof). */
  transparent?: boolean;
}

export interface PrintAnswer {
  name: string;
  /** The body (`fun n : nat => n + n`), when the object has one that is printed. */
  body?: string;
  type?: string;
  /** What the prover printed, for objects whose shape is not a body and a type (inductive types). */
  text: string;
}

export interface LocateAnswer {
  name: string;
  results: { kind: string; name: string }[];
}

export interface DefineAnswer {
  /** What the declaration added to the document's environment, in order. */
  declared: EnvironmentEntry[];
}

export type QueryAnswer = SearchAnswer | CheckAnswer | AboutAnswer | PrintAnswer | LocateAnswer;

/** The most results a SEARCH answer carries. */
export const SEARCH_LIMIT = 50;
