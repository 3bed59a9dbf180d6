import type { OpenGoal } from '../../../../shared/proof-tree/proof-state.ts';
import type { Premise } from './premise-selection.ts';
import type { ProverError, SessionOptions } from '../../../shell/prover-session.ts';

/** A goal as coqidetop printed it (the session's `RawGoal`): hypothesis lines as Coq grouped them. */
export interface HammerGoal {
  hyps: string[];
  goal: string;
}

/** A tactic run on the tip: a Coq failure or an interrupted timeout is an answer, the document restored. */
export type HammerAttempt = { ok: true; goals: HammerGoal[]; messages: { text: string }[] } | { ok: false; error: unknown };

/**
 * What HAMMER's pipeline may do to the Coq session it runs in (the session implements it): run sentences on
 * the tip within a limit, go back, ask, and read its goals, its document and its deadline. The pipeline
 * never sees coqidetop, the log or the preludes; it depends on nothing else of the Coq backend, which is
 * why the few syntax checks it needs come through here too.
 */
export interface HammerPort {
  /** The channel's per-tactic limit (`--timeout`). */
  readonly timeoutMs: number;
  /** Whether CoqHammer's plugin (the `hammer` tactic) loaded; without it only the quick tactics run. */
  plugin(): boolean;
  /** The supervisor's counterexample search (the fidelity engine's), if any. */
  readonly refute: SessionOptions['refute'];
  /** The wall-clock instant the user's budget ends: no call runs past it. */
  deadline(): number | undefined;
  /** The open goals now. */
  current(): readonly HammerGoal[];
  /** The document's length in sentences: `rewind(length())` later undoes what ran since. */
  length(): number;
  /** Sentences added on the tip and executed, each call cut at the deadline. */
  attempt(sentences: string[], wantedMs: number): Promise<HammerAttempt>;
  /** Back to the document's first `len` sentences. */
  rewind(len: number): Promise<void>;
  /** The goals as they are now; calling the result puts them back after a look-ahead was rewound. */
  keepGoals(): () => void;
  /** A query at the tip (`Print t.`): every message's text. */
  query(sentence: string): Promise<string>;
  /** Premise selection (the session's premise-search.ts): the lemmas in scope ranked for the first goal, and the constants searched. */
  premises(deadline: number): Promise<{ constants: string[]; premises: Premise[] }>;
  /** Goals as Arbor shows them (each context entry a `var` or a `hyp`). */
  classify(goals: readonly HammerGoal[]): Promise<OpenGoal[]>;
  /** A hypothesis line split into its names (`x, y : nat`; a let-bound `x := 5 : nat` has a body). */
  hypotheses(line: string): { name: string; body?: string }[];
  /** CRUSH on the first goal: the script line, or `fail`/`timeout`. */
  crush(rules: string[], limitMs: number): Promise<string>;
  /** The sentences of the preludes and of the document's DEFINEs. */
  declarations(): string[];
  /** The names of the document's finished theorems, oldest first. */
  theorems(): string[];
  /** Whether the document declares nothing of its own (no prelude, no DEFINE). */
  declaresNothing(): boolean;
  /** Coq's answers and the client's failures as the shell's error codes. */
  toProverError(e: unknown): ProverError;
  /** A failure that ends the HAMMER whatever stage it came from (the prover died or was killed). */
  fatal(e: unknown): boolean;
  /** Why `text` is not one sentence fragment (the injection guard), or undefined. */
  fragmentProblem(text: string): string | undefined;
  isIdent(name: string): boolean;
  /** `Inductive t := A : t | B : t -> t` (as `Print` shows it) → its constructors and their types. */
  /** `name`'s own constructors in a printed (possibly mutual) inductive block. */
  constructorsOf(printed: string, name?: string): { name: string; type: string }[];
}
