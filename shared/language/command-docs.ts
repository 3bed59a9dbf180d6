import type { CommandName } from '../protocol/shell-command.ts';

/** Hover and completion documentation for every shell command (seed 000 and BRIEF §3 extensions). */
export interface CommandDoc {
  syntax: string;
  summary: string;
  /** A snippet for completion (Monaco snippet syntax). */
  snippet: string;
  /** Part of the proof (answers with STEP) or a channel/extension command. */
  group: 'proof' | 'tactic' | 'channel' | 'extension';
}

export const COMMAND_DOCS: Readonly<Record<CommandName, CommandDoc>> = {
  GOAL: { syntax: 'GOAL [name] "expr"', summary: 'Start a proof of `expr`, as the theorem `name` when named. An unfinished proof before it is discarded; finished theorems and declarations stay available to everything after them.', snippet: 'GOAL ${1:name} "${2:expr}"', group: 'proof' },
  END: { syntax: 'END', summary: 'Close the current goal: if it is not yet proved, HAMMER it first; then remove it from its bundle and normalise. Every HAVE/OBTAIN and every leaf costs one END or NEXT.', snippet: 'END', group: 'proof' },
  NEXT: { syntax: 'NEXT', summary: 'Synonym of END, for the subgoals a tactic produced (`CRUSH; NEXT; NEXT; END`).', snippet: 'NEXT', group: 'proof' },
  CRUSH: { syntax: 'CRUSH [rules]', summary: 'Simplify and split the current goal (Coq: an auto/intuition/lia-style simplifier with a timeout fallback). Fails with `fail` if nothing changes, `timeout` past the limit.', snippet: 'CRUSH', group: 'tactic' },
  HAVE: { syntax: 'HAVE [name] "expr"', summary: 'Suspend the current goal and first prove `expr` in its context; after the block\'s END, `expr` is a hypothesis (named `name`) of the suspended goal.', snippet: 'HAVE ${1:name} "${2:expr}"', group: 'tactic' },
  OBTAIN: { syntax: 'OBTAIN x y [:: type] where [name:] "cond" [and …]', summary: 'Like HAVE with `∃ x y. cond`; after END the witnesses are fixed variables and the conditions hypotheses.', snippet: 'OBTAIN ${1:x} where "${2:cond}"', group: 'tactic' },
  HAMMER: { syntax: 'HAMMER [seconds]', summary: 'Prove the current goal outright: CRUSH, quick tactics per subgoal, then CoqHammer with reconstruction. The goal becomes a proved leaf (True) that END removes.', snippet: 'HAMMER', group: 'tactic' },
  RULE: { syntax: 'RULE rule', summary: 'Resolution with an introduction rule (apply/eapply), or an elimination rule on a matching hypothesis.', snippet: 'RULE ${1:rule}', group: 'tactic' },
  UNFOLD: { syntax: 'UNFOLD rule', summary: 'Unfold a definition, or rewrite with an equation everywhere. Anything else: `bad rule: not an equation`.', snippet: 'UNFOLD ${1:rule}', group: 'tactic' },
  APPLY: { syntax: 'APPLY tactic', summary: 'Apply one prover tactic to the current goal. A tactic containing `;` must be in parentheses: `APPLY (intros; simpl)`.', snippet: 'APPLY ${1:tactic}', group: 'tactic' },
  LET: { syntax: 'LET ?x = "term"', summary: 'A textual abbreviation, expanded in later terms. The proof state is unchanged.', snippet: 'LET ?${1:x} = "${2:term}"', group: 'proof' },
  PRINT_MODE: { syntax: 'PRINT_MODE 1|2', summary: 'How terms are printed in this channel: 1 = the prover\'s pretty printer, 2 = s-expressions with full names.', snippet: 'PRINT_MODE ${1:1}', group: 'channel' },
  NEW_CHANNEL: { syntax: 'NEW_CHANNEL', summary: 'Create a channel; answers `{ID: n}`. Channels run in parallel.', snippet: 'NEW_CHANNEL', group: 'channel' },
  RELEASE_CHANNEL: { syntax: 'n RELEASE_CHANNEL', summary: 'Release channel n and its prover, after the requests sent before it were answered; later requests answer `bad channel`.', snippet: 'RELEASE_CHANNEL', group: 'channel' },
  CANCEL: { syntax: 'n CANCEL', summary: 'Extension, out of band: stop channel n now — its prover is killed, the running and queued requests answer `cancelled`, and the channel is released. Answered at once.', snippet: 'CANCEL', group: 'extension' },
  STATE: { syntax: 'STATE', summary: 'Extension: print the current proof state without changing it.', snippet: 'STATE', group: 'extension' },
  REVERT: { syntax: 'REVERT n', summary: 'Extension: restore the state after step n and discard later steps; the next command is step n+1. The editor uses it to re-check only what changed.', snippet: 'REVERT ${1:n}', group: 'extension' },
  SCRIPT: { syntax: 'SCRIPT', summary: 'Extension: the reproduction script so far, in the prover\'s own language, open goals marked.', snippet: 'SCRIPT', group: 'extension' },
  DEFINE: { syntax: 'DEFINE "declarations"  |  DEFINE x where "x = t" (isabelle)', summary: 'Extension: add definitions, fixpoints, inductive types or notations (Coq vernacular) to the document; later items can use them. Answers what was declared, with types. Without quotes (isabelle backend): Minilang\'s DEFINE, a definition local to the proof.', snippet: 'DEFINE "${1:Definition double (n : nat) := n + n.}"', group: 'proof' },
  SEARCH: { syntax: 'SEARCH pattern', summary: 'Extension: lemmas whose statement matches `pattern` (e.g. `_ ++ [_]`, `length (rev _)`), with their types and where they are defined.', snippet: 'SEARCH ${1:pattern}', group: 'extension' },
  CHECK: { syntax: 'CHECK term', summary: 'Extension: the type of `term` here (inside a proof, its hypotheses are in scope).', snippet: 'CHECK ${1:term}', group: 'extension' },
  ABOUT: { syntax: 'ABOUT name', summary: 'Extension: what `name` is: its type, kind, full name and module.', snippet: 'ABOUT ${1:name}', group: 'extension' },
  PRINT: { syntax: 'PRINT name', summary: 'Extension: the definition of `name` (its body and type).', snippet: 'PRINT ${1:name}', group: 'extension' },
  LOCATE: { syntax: 'LOCATE name', summary: 'Extension: every object `name` may refer to, the one it refers to here first (`LOCATE "++"` for a notation).', snippet: 'LOCATE ${1:name}', group: 'extension' },
  // Minilang's commands (isabelle backend only; arguments in Minilang's syntax, Isabelle/Minilang v0.6.0).
  INDUCT: { syntax: 'INDUCT x [arbitrary: y] [rule: r]', summary: 'Isabelle backend (Minilang): induction on the current goal, with the arguments of Isabelle\'s `induct` method; one subgoal per case.', snippet: 'INDUCT ${1:x}', group: 'tactic' },
  CASE_SPLIT: { syntax: 'CASE_SPLIT x [rule: r]', summary: 'Isabelle backend (Minilang): case analysis on the current goal, with the arguments of Isabelle\'s `cases` method.', snippet: 'CASE_SPLIT ${1:x}', group: 'tactic' },
  INTRO: { syntax: 'INTRO [VARS x y] [PREMISES h1 h2]', summary: 'Isabelle backend (Minilang): move the current goal\'s universal variables and premises into its context (optionally naming them).', snippet: 'INTRO', group: 'tactic' },
  ALL_INTRO: { syntax: 'ALL_INTRO [VARS x y] [PREMISES h1 h2]', summary: 'Isabelle backend (Minilang): INTRO on every subgoal.', snippet: 'ALL_INTRO', group: 'tactic' },
  CONSIDER: { syntax: 'CONSIDER x where "P x" [and …] [| y where "Q y"]…', summary: 'Isabelle backend (Minilang): Isar\'s consider/obtain — prove that one of the cases holds, then continue in each case (OBTAIN maps onto its one-case form).', snippet: 'CONSIDER ${1:x} where "${2:cond}"', group: 'tactic' },
  CHOOSE: { syntax: 'CHOOSE term [and …]', summary: 'Isabelle backend (Minilang): instantiate the existential quantifier of the current goal with `term`.', snippet: 'CHOOSE "${1:term}"', group: 'tactic' },
  NOTATION: { syntax: 'NOTATION [(mode)] const (mixfix) [and …]', summary: 'Isabelle backend (Minilang): a notation for the rest of the proof.', snippet: 'NOTATION ${1:const} (${2:mixfix})', group: 'tactic' },
  OPEN_MODULE: { syntax: 'OPEN_MODULE locale-expression', summary: 'Isabelle backend (Minilang): interpret a locale in the proof; its assumptions become goals.', snippet: 'OPEN_MODULE ${1:locale}', group: 'tactic' },
  CONFIG: { syntax: 'CONFIG name = facts | bundle', summary: 'Isabelle backend (Minilang): name facts, or include a bundle, for the rest of the proof.', snippet: 'CONFIG ${1:bundle}', group: 'tactic' },
  STEP: { syntax: 'STEP [(facts)] "term"', summary: 'Isabelle backend (Minilang): a calculational step — prove `term` from the previous one (and the facts).', snippet: 'STEP "${1:term}"', group: 'tactic' },
  SIMPLIFY: { syntax: 'SIMPLIFY PREMISES h1 h2 [WITH rules]', summary: 'Isabelle backend (Minilang): simplify the named premises of the current goal.', snippet: 'SIMPLIFY PREMISES ${1:h}', group: 'tactic' },
  PRELUDE: { syntax: 'PRELUDE [environment] ["text"]', summary: 'Extension: set this channel\'s prelude (Coq: vernacular such as Require Import) and restart its prover; Coq environments: default, bare (Init only, as coqc), or library sets such as arith,lists.', snippet: 'PRELUDE "${1:Require Import Lia.}"', group: 'extension' },
};
