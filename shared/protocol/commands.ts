/**
 * The one table of Arbor's shell commands (seed 000, BRIEF §3 extensions, Minilang's commands): each command
 * with its attributes. The parser, the hover and completion docs, the agents' rules, the document's routing
 * and the derivation read them from here; no other file lists command names (commands.test.ts checks it).
 * The typed commands themselves (their parsed arguments) are `ShellCommand` in shell-command.ts.
 */

/** How a command's arguments are written (parse-request.ts reads each shape). */
export type ArgumentShape =
  | 'none'
  /** `[name] "expr"` */
  | 'goal' | 'hypothesis'
  /** `x y [:: type] where [name:] "cond" [and …]` */
  | 'obtain'
  /** `"text"`, or unquoted: Minilang's proof-local DEFINE */
  | 'declarations'
  /** `"text"` */
  | 'prelude'
  /** `[rule, …]` */
  | 'rules'
  /** `[seconds]` */
  | 'seconds'
  /** the rest of the line, required */
  | 'rule' | 'tactic'
  /** `?x = "term"` */
  | 'abbreviation'
  /** `1|2` */
  | 'print-mode'
  /** a step number */
  | 'step'
  /** quoted, or the rest of the line */
  | 'pattern' | 'term'
  /** an identifier (LOCATE: or a notation in quotes) */
  | 'name' | 'name-or-notation'
  /** Minilang's own syntax, kept as written (optional: may be empty) */
  | 'minilang' | 'minilang-optional';

/**
 * Where a command acts: the document's items (`GOAL`, `DEFINE`), the current proof (tactics, `END`, `LET`,
 * `STATE`, `REVERT`, `SCRIPT`), the channel's settings (`PRELUDE`, `PRINT_MODE`), the channel itself
 * (`NEW_CHANNEL`, `RELEASE_CHANNEL`, `CANCEL`), or a look-up.
 */
export type CommandLevel = 'document' | 'proof' | 'setting' | 'channel' | 'query';

export interface CommandDoc {
  syntax: string;
  summary: string;
  /** A snippet for completion (Monaco snippet syntax). */
  snippet: string;
  /** How the reference groups it: part of the proof (answers with STEP), a tactic, a channel or an extension command. */
  group: 'proof' | 'tactic' | 'channel' | 'extension';
}

export interface CommandSpec {
  args: ArgumentShape;
  level: CommandLevel;
  /** Acts on the current goal: the derivation makes it a step of the goal's node (LET, PRINT_MODE, queries do not). */
  actsOnGoal?: true;
  /** Closes the current goal (removes it from its bundle). */
  closesGoal?: true;
  /** Opens a block of lines that its `END` closes (indentation). */
  opensBlock?: true;
  /** The shell answers it at once, before the channel's queue (NEW_CHANNEL, CANCEL). */
  outOfBand?: true;
  /** Ends the channel: its proof and script are gone (RELEASE_CHANNEL, CANCEL). */
  endsChannel?: true;
  /** Adds a step to the channel's history (what it did to the tree is recorded); REVERT, settings, STATE, SCRIPT and look-ups do not. */
  newStep?: true;
  /** Works on the channel's proof, so answers with a `STEP`. */
  step?: true;
  /** A line of a proof document: another client's command becomes a line of the editor's text. */
  line?: true;
  /** The backends that run it: every one, or only those listed (others answer `unsupported`). */
  backends: 'all' | readonly ['isabelle'];
  doc: CommandDoc;
}

export const COMMANDS = {
  GOAL: {
    args: 'goal', level: 'document', opensBlock: true, newStep: true, step: true, line: true, backends: 'all',
    doc: { syntax: 'GOAL [name] "expr"', summary: 'Start a proof of `expr`, as the theorem `name` when named. An unfinished proof before it is discarded; finished theorems and declarations stay available to everything after them.', snippet: 'GOAL ${1:name} "${2:expr}"', group: 'proof' },
  },
  END: {
    args: 'none', level: 'proof', actsOnGoal: true, closesGoal: true, newStep: true, step: true, line: true, backends: 'all',
    doc: { syntax: 'END', summary: 'Close the current goal: if it is not yet proved, HAMMER it first; then remove it from its bundle and normalise. Every HAVE/OBTAIN and every leaf costs one END or NEXT.', snippet: 'END', group: 'proof' },
  },
  NEXT: {
    args: 'none', level: 'proof', actsOnGoal: true, closesGoal: true, newStep: true, step: true, line: true, backends: 'all',
    doc: { syntax: 'NEXT', summary: 'Synonym of END, for the subgoals a tactic produced (`CRUSH; NEXT; NEXT; END`).', snippet: 'NEXT', group: 'proof' },
  },
  CRUSH: {
    args: 'rules', level: 'proof', actsOnGoal: true, newStep: true, step: true, line: true, backends: 'all',
    doc: { syntax: 'CRUSH [rules]', summary: 'Simplify and split the current goal (Coq: an auto/intuition/lia-style simplifier with a timeout fallback). Fails with `fail` if nothing changes, `timeout` past the limit.', snippet: 'CRUSH', group: 'tactic' },
  },
  HAVE: {
    args: 'hypothesis', level: 'proof', actsOnGoal: true, opensBlock: true, newStep: true, step: true, line: true, backends: 'all',
    doc: { syntax: 'HAVE [name] "expr"', summary: 'Suspend the current goal and first prove `expr` in its context; after the block\'s END, `expr` is a hypothesis (named `name`) of the suspended goal.', snippet: 'HAVE ${1:name} "${2:expr}"', group: 'tactic' },
  },
  OBTAIN: {
    args: 'obtain', level: 'proof', actsOnGoal: true, opensBlock: true, newStep: true, step: true, line: true, backends: 'all',
    doc: { syntax: 'OBTAIN x y [:: type] where [name:] "cond" [and …]', summary: 'Like HAVE with `∃ x y. cond`; after END the witnesses are fixed variables and the conditions hypotheses.', snippet: 'OBTAIN ${1:x} where "${2:cond}"', group: 'tactic' },
  },
  HAMMER: {
    args: 'seconds', level: 'proof', actsOnGoal: true, newStep: true, step: true, line: true, backends: 'all',
    doc: { syntax: 'HAMMER [seconds]', summary: 'Prove the current goal outright: CRUSH, quick tactics per subgoal, then CoqHammer with reconstruction. The goal becomes a proved leaf (True) that END removes.', snippet: 'HAMMER', group: 'tactic' },
  },
  RULE: {
    args: 'rule', level: 'proof', actsOnGoal: true, newStep: true, step: true, line: true, backends: 'all',
    doc: { syntax: 'RULE rule', summary: 'Resolution with an introduction rule (apply/eapply), or an elimination rule on a matching hypothesis.', snippet: 'RULE ${1:rule}', group: 'tactic' },
  },
  UNFOLD: {
    args: 'rule', level: 'proof', actsOnGoal: true, newStep: true, step: true, line: true, backends: 'all',
    doc: { syntax: 'UNFOLD rule', summary: 'Unfold a definition, or rewrite with an equation everywhere. Anything else: `bad rule: not an equation`.', snippet: 'UNFOLD ${1:rule}', group: 'tactic' },
  },
  APPLY: {
    args: 'tactic', level: 'proof', actsOnGoal: true, newStep: true, step: true, line: true, backends: 'all',
    doc: { syntax: 'APPLY tactic', summary: 'Apply one prover tactic to the current goal. A tactic containing `;` must be in parentheses: `APPLY (intros; simpl)`.', snippet: 'APPLY ${1:tactic}', group: 'tactic' },
  },
  LET: {
    args: 'abbreviation', level: 'proof', newStep: true, step: true, line: true, backends: 'all',
    doc: { syntax: 'LET ?x = "term"', summary: 'A textual abbreviation, expanded in later terms. The proof state is unchanged.', snippet: 'LET ?${1:x} = "${2:term}"', group: 'proof' },
  },
  PRINT_MODE: {
    args: 'print-mode', level: 'setting', step: true, backends: 'all',
    doc: { syntax: 'PRINT_MODE 1|2', summary: 'How terms are printed in this channel: 1 = the prover\'s pretty printer, 2 = s-expressions with full names.', snippet: 'PRINT_MODE ${1:1}', group: 'channel' },
  },
  NEW_CHANNEL: {
    args: 'none', level: 'channel', outOfBand: true, backends: 'all',
    doc: { syntax: 'NEW_CHANNEL', summary: 'Create a channel; answers `{ID: n}`. Channels run in parallel.', snippet: 'NEW_CHANNEL', group: 'channel' },
  },
  RELEASE_CHANNEL: {
    args: 'none', level: 'channel', endsChannel: true, backends: 'all',
    doc: { syntax: 'n RELEASE_CHANNEL', summary: 'Release channel n and its prover, after the requests sent before it were answered; later requests answer `bad channel`.', snippet: 'RELEASE_CHANNEL', group: 'channel' },
  },
  STATE: {
    args: 'none', level: 'proof', step: true, backends: 'all',
    doc: { syntax: 'STATE', summary: 'Extension: print the current proof state without changing it.', snippet: 'STATE', group: 'extension' },
  },
  REVERT: {
    args: 'step', level: 'proof', step: true, backends: 'all',
    doc: { syntax: 'REVERT n', summary: 'Extension: restore the state after step n and discard later steps; the next command is step n+1. The editor uses it to re-check only what changed.', snippet: 'REVERT ${1:n}', group: 'extension' },
  },
  SCRIPT: {
    args: 'none', level: 'proof', backends: 'all',
    doc: { syntax: 'SCRIPT', summary: 'Extension: the reproduction script so far, in the prover\'s own language, open goals marked.', snippet: 'SCRIPT', group: 'extension' },
  },
  PRELUDE: {
    args: 'prelude', level: 'setting', backends: 'all',
    doc: { syntax: 'PRELUDE [environment] ["text"]', summary: 'Extension: set this channel\'s prelude (Coq: vernacular such as Require Import) and restart its prover; Coq environments: default, bare (Init only, as coqc), or library sets such as arith,lists.', snippet: 'PRELUDE "${1:Require Import Lia.}"', group: 'extension' },
  },
  // Out of band: answered at once, before the channel's queue.
  CANCEL: {
    args: 'none', level: 'channel', outOfBand: true, endsChannel: true, backends: 'all',
    doc: { syntax: 'n CANCEL', summary: 'Extension, out of band: stop channel n now — its prover is killed, the running and queued requests answer `cancelled`, and the channel is released. Answered at once.', snippet: 'CANCEL', group: 'extension' },
  },
  DEFINE: {
    args: 'declarations', level: 'document', newStep: true, step: true, line: true, backends: 'all',
    doc: { syntax: 'DEFINE "declarations"  |  DEFINE x where "x = t" (isabelle)', summary: 'Extension: add definitions, fixpoints, inductive types or notations (Coq vernacular) to the document; later items can use them. Answers what was declared, with types. Without quotes (isabelle backend): Minilang\'s DEFINE, a definition local to the proof.', snippet: 'DEFINE "${1:Definition double (n : nat) := n + n.}"', group: 'proof' },
  },
  // Look-ups in the channel's environment at its current state: they never change it.
  SEARCH: {
    args: 'pattern', level: 'query', backends: 'all',
    doc: { syntax: 'SEARCH pattern', summary: 'Extension: lemmas whose statement matches `pattern` (e.g. `_ ++ [_]`, `length (rev _)`), with their types and where they are defined.', snippet: 'SEARCH ${1:pattern}', group: 'extension' },
  },
  CHECK: {
    args: 'term', level: 'query', backends: 'all',
    doc: { syntax: 'CHECK term', summary: 'Extension: the type of `term` here (inside a proof, its hypotheses are in scope).', snippet: 'CHECK ${1:term}', group: 'extension' },
  },
  ABOUT: {
    args: 'name', level: 'query', backends: 'all',
    doc: { syntax: 'ABOUT name', summary: 'Extension: what `name` is: its type, kind, full name and module.', snippet: 'ABOUT ${1:name}', group: 'extension' },
  },
  PRINT: {
    args: 'name', level: 'query', backends: 'all',
    doc: { syntax: 'PRINT name', summary: 'Extension: the definition of `name` (its body and type).', snippet: 'PRINT ${1:name}', group: 'extension' },
  },
  LOCATE: {
    args: 'name-or-notation', level: 'query', backends: 'all',
    doc: { syntax: 'LOCATE name', summary: 'Extension: every object `name` may refer to, the one it refers to here first (`LOCATE "++"` for a notation).', snippet: 'LOCATE ${1:name}', group: 'extension' },
  },
  // Minilang's commands (Isabelle/Minilang v0.6.0, `library/proof.ML`) the seed lacks: the isabelle backend sends
  // them to Minilang after its policy checks the arguments (Minilang's own syntax); other backends answer `unsupported`.
  INDUCT: {
    args: 'minilang', level: 'proof', actsOnGoal: true, newStep: true, step: true, backends: ['isabelle'],
    doc: { syntax: 'INDUCT x [arbitrary: y] [rule: r]', summary: 'Isabelle backend (Minilang): induction on the current goal, with the arguments of Isabelle\'s `induct` method; one subgoal per case.', snippet: 'INDUCT ${1:x}', group: 'tactic' },
  },
  CASE_SPLIT: {
    args: 'minilang', level: 'proof', actsOnGoal: true, newStep: true, step: true, backends: ['isabelle'],
    doc: { syntax: 'CASE_SPLIT x [rule: r]', summary: 'Isabelle backend (Minilang): case analysis on the current goal, with the arguments of Isabelle\'s `cases` method.', snippet: 'CASE_SPLIT ${1:x}', group: 'tactic' },
  },
  INTRO: {
    args: 'minilang-optional', level: 'proof', actsOnGoal: true, newStep: true, step: true, backends: ['isabelle'],
    doc: { syntax: 'INTRO [VARS x y] [PREMISES h1 h2]', summary: 'Isabelle backend (Minilang): move the current goal\'s universal variables and premises into its context (optionally naming them).', snippet: 'INTRO', group: 'tactic' },
  },
  ALL_INTRO: {
    args: 'minilang-optional', level: 'proof', actsOnGoal: true, newStep: true, step: true, backends: ['isabelle'],
    doc: { syntax: 'ALL_INTRO [VARS x y] [PREMISES h1 h2]', summary: 'Isabelle backend (Minilang): INTRO on every subgoal.', snippet: 'ALL_INTRO', group: 'tactic' },
  },
  CONSIDER: {
    args: 'minilang', level: 'proof', actsOnGoal: true, newStep: true, step: true, backends: ['isabelle'],
    doc: { syntax: 'CONSIDER x where "P x" [and …] [| y where "Q y"]…', summary: 'Isabelle backend (Minilang): Isar\'s consider/obtain — prove that one of the cases holds, then continue in each case (OBTAIN maps onto its one-case form).', snippet: 'CONSIDER ${1:x} where "${2:cond}"', group: 'tactic' },
  },
  CHOOSE: {
    args: 'minilang', level: 'proof', actsOnGoal: true, newStep: true, step: true, backends: ['isabelle'],
    doc: { syntax: 'CHOOSE term [and …]', summary: 'Isabelle backend (Minilang): instantiate the existential quantifier of the current goal with `term`.', snippet: 'CHOOSE "${1:term}"', group: 'tactic' },
  },
  NOTATION: {
    args: 'minilang', level: 'proof', newStep: true, step: true, backends: ['isabelle'],
    doc: { syntax: 'NOTATION [(mode)] const (mixfix) [and …]', summary: 'Isabelle backend (Minilang): a notation for the rest of the proof.', snippet: 'NOTATION ${1:const} (${2:mixfix})', group: 'tactic' },
  },
  OPEN_MODULE: {
    args: 'minilang', level: 'proof', newStep: true, step: true, backends: ['isabelle'],
    doc: { syntax: 'OPEN_MODULE locale-expression', summary: 'Isabelle backend (Minilang): interpret a locale in the proof; its assumptions become goals.', snippet: 'OPEN_MODULE ${1:locale}', group: 'tactic' },
  },
  CONFIG: {
    args: 'minilang', level: 'proof', newStep: true, step: true, backends: ['isabelle'],
    doc: { syntax: 'CONFIG name = facts | bundle', summary: 'Isabelle backend (Minilang): name facts, or include a bundle, for the rest of the proof.', snippet: 'CONFIG ${1:bundle}', group: 'tactic' },
  },
  STEP: {
    args: 'minilang', level: 'proof', newStep: true, step: true, backends: ['isabelle'],
    doc: { syntax: 'STEP [(facts)] "term"', summary: 'Isabelle backend (Minilang): a calculational step — prove `term` from the previous one (and the facts).', snippet: 'STEP "${1:term}"', group: 'tactic' },
  },
  SIMPLIFY: {
    args: 'minilang', level: 'proof', newStep: true, step: true, backends: ['isabelle'],
    doc: { syntax: 'SIMPLIFY PREMISES h1 h2 [WITH rules]', summary: 'Isabelle backend (Minilang): simplify the named premises of the current goal.', snippet: 'SIMPLIFY PREMISES ${1:h}', group: 'tactic' },
  },
} as const satisfies Record<string, CommandSpec>;

export type CommandName = keyof typeof COMMANDS;

/** The names of the commands whose attribute `K` is `V`, as a type. */
type NamesWith<K extends keyof CommandSpec, V> = { [N in CommandName]: (typeof COMMANDS)[N] extends Record<K, V> ? N : never }[CommandName];

/** The commands only Minilang runs (isabelle backend). */
export type MinilangCommandName = NamesWith<'backends', readonly ['isabelle']>;
/** The commands that manage channels (no engine ever sees them). */
export type ChannelCommandName = NamesWith<'level', 'channel'>;
/** The commands written without arguments. */
export type BareCommandName = NamesWith<'args', 'none'>;
/** The commands the shell answers at once. */
export type OutOfBandName = NamesWith<'outOfBand', true>;

const SPECS: Readonly<Record<CommandName, CommandSpec>> = COMMANDS;

export const COMMAND_NAMES: readonly CommandName[] = Object.keys(COMMANDS) as CommandName[];

const where = (test: (spec: CommandSpec) => boolean): ReadonlySet<CommandName> => new Set(COMMAND_NAMES.filter((n) => test(SPECS[n])));

export const commandSpec = (name: CommandName): CommandSpec => SPECS[name];

/** `name` is a command of the table (the parser's first check). */
export const isCommandName = (name: string): name is CommandName => Object.hasOwn(COMMANDS, name);

export const takesNoArguments = (name: CommandName): name is BareCommandName => SPECS[name].args === 'none';

/** A command the shell answers out of band (NEW_CHANNEL, CANCEL), by its type. */
export const isOutOfBand = <C extends { name: CommandName }>(command: C): command is Extract<C, { name: OutOfBandName }> => SPECS[command.name].outOfBand === true;

/** A command that manages channels (no engine ever sees one), by its type. */
export const managesChannel = <C extends { name: CommandName }>(command: C): command is Extract<C, { name: ChannelCommandName }> => SPECS[command.name].level === 'channel';

/** The command a line of text starts with (`  HAVE h "…"` → HAVE), if it is one. */
export function commandAt(text: string): CommandSpec | undefined {
  const word = /^\s*([A-Z_]+)\b/.exec(text)?.[1];
  return word !== undefined && isCommandName(word) ? SPECS[word] : undefined;
}

/** A pattern for a line that starts with one of the commands `test` picks (Monaco's indentation rules take patterns). */
export function linePattern(test: (spec: CommandSpec) => boolean): RegExp {
  const names = COMMAND_NAMES.filter((n) => test(SPECS[n])).map((n) => n.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`^\\s*(${names.join('|')})\\b`);
}

/** Commands that add no step to a channel's history (or refresh the last one in place). */
export const NO_NEW_STEP = where((c) => c.newStep !== true);
/** Commands that work on the channel's proof and so answer with a `STEP`. */
export const PROOF_COMMANDS = where((c) => c.step === true);
/** Look-ups in the channel's environment: they never change it. */
export const QUERY_NAMES = where((c) => c.level === 'query');
/** Minilang's commands (isabelle backend only). */
export const MINILANG_COMMAND_NAMES: readonly MinilangCommandName[] = COMMAND_NAMES.filter((n): n is MinilangCommandName => SPECS[n].backends !== 'all');
/** Lines of a proof document: another client's become lines of the editor's text. */
export const DOCUMENT_COMMANDS = where((c) => c.line === true);
/** What an agent may propose as a suggestion: a line of the current proof (never GOAL, DEFINE, PRELUDE or channel management). */
export const AGENT_PROPOSALS = where((c) => c.line === true && c.level === 'proof');
/** What an agent's session may send at all: anything but managing channels, which would leave the session's own. */
export const AGENT_SESSION_COMMANDS = where((c) => c.level !== 'channel');
/** What an agent's try may contain (a scratch copy of the proof): proof steps and look-ups, never the document's items or the channel's settings. */
export const TRY_COMMANDS = where((c) => c.level === 'proof' || c.level === 'query');
