import type { StatementMeaning } from '../../shared/protocol/statement-meaning.ts';
import type { SectionPremise } from '../../shared/protocol/section-premises.ts';
import type { HammerReport } from '../../shared/protocol/hammer-report.ts';
import type { OpenGoal } from '../../shared/proof-tree/proof-state.ts';
import type { QueryCommand } from '../../shared/protocol/shell-command.ts';
import type { DefineAnswer, QueryAnswer } from '../../shared/protocol/query-answer.ts';

/**
 * The backends Arbor knows. `isabelle` is a client of the Isa-REPL server with Isabelle/Minilang's REPL app;
 * `external` is any process that already speaks the channel protocol (a pass-through).
 */
export type BackendId = 'coq' | 'eq' | 'lean' | 'isabelle' | 'external';

/** Term printing: 1 = the prover's pretty printer, 2 = s-expressions with full names and de Bruijn indices. */
export type PrintMode = 1 | 2;

/**
 * One structural or tactic step on the current goal (the prover's first open goal). Terms arrive with
 * `LET` abbreviations already expanded and have been checked for injection by the shell.
 */
export type ProofStep =
  | { kind: 'have'; name: string; expr: string }
  | { kind: 'obtain'; name: string; vars: string[]; type?: string; conds: { name: string; expr: string }[] }
  | { kind: 'crush'; rules: string[] }
  | { kind: 'hammer'; timeoutMs: number }
  | { kind: 'rule'; rule: string }
  | { kind: 'unfold'; rule: string }
  | { kind: 'apply'; tactic: string };

/** What a successful step leaves behind. */
export interface StepOutcome {
  /** Every open goal after the step, in the prover's order; the step's new goals come first. */
  goals: OpenGoal[];
  /**
   * The step's contribution to the reproduction script, in the backend's own language, already free
   * of automation calls that the prover cannot check alone (e.g. Coq `hammer` replaced by its reconstruction).
   */
  script: string[];
  /** An opaque handle to the prover state after this step, for `restore`. */
  checkpoint: Checkpoint;
  /** Informational messages from the prover (e.g. which ATP found the proof). */
  messages?: string[];
  /** A hammering step's stages (HAMMER, END that hammered). */
  report?: HammerReport;
}

export type Checkpoint = unknown;

export interface DefineOutcome extends DefineAnswer {
  checkpoint: Checkpoint;
  /** The declaration as it goes into the reproduction script. */
  script: string[];
  /**
   * The sections and modules open after it, outermost first, as the prover says (Coq's `Arbor_blocks`): the
   * reproduction script closes them. Absent where the backend cannot say (the script's own reading then decides).
   */
  openAfter?: string[];
}

/** One item of a document's reproduction script. */
export type ScriptItem =
  | { kind: 'define'; script: string[]; /** DefineOutcome.openAfter. */ openAfter?: string[] }
  | { kind: 'proof'; name: string; goal: string; steps: string[][]; openGoals: number; /** Why the kernel refused its `Qed` (END failed after every goal closed). */ kernelRefused?: string };

/** A prover process may use this much address space by default: CoqHammer's runs fit, a runaway tactic does not take the machine. */
export const DEFAULT_PROVER_MEMORY_MB = 4096;

/** A proof the prover itself closed. */
export interface FinishedProof {
  /**
   * What the theorem depends on beyond the global context (every one of them allowed), e.g. `classic : forall P : Prop, P \/ ~ P`.
   * Absent when the backend could not read them (Lean without `lean` installed): then no `ASSUMPTIONS` is claimed.
   */
  assumptions?: string[];
  /** The statement as the prover elaborated it, when that differs from how its text reads in a clean environment. */
  statement?: StatementMeaning;
  /** Finished inside an open section: the section's hypotheses and variables it is proved under (a conditional result). */
  premises?: SectionPremise[];
  /** The prover state with the proof closed. */
  checkpoint: Checkpoint;
}

/** Stable error codes; the shell turns them into the protocol's `ERR` strings. */
export type ProverErrorCode =
  | 'timeout' // the step ran past its limit (the session is still usable, restored to before the step)
  | 'fail' // the tactic failed or made no progress
  | 'bad rule' // UNFOLD with something that is neither a definition nor an equation
  | 'parse' // the prover could not parse a term or tactic
  | 'prover' // any other prover message
  | 'crashed' // the prover process died; the session is unusable
  | 'unavailable' // the prover is not installed or cannot start
  | 'unsound' // the kernel accepted the proof, but it depends on assumptions the user did not trust
  | 'refused'; // a new item (GOAL, DEFINE) was refused before anything changed: the document is as it was

export class ProverError extends Error {
  readonly code: ProverErrorCode;
  /** A failed hammering step's stages: the failure explains itself. */
  report?: HammerReport;
  constructor(code: ProverErrorCode, message: string, report?: HammerReport) {
    super(message);
    this.name = 'ProverError';
    this.code = code;
    if (report) this.report = report;
  }
}

/**
 * One prover process (or in-process engine) serving one channel. Every step acts on the first open goal.
 * Implementations: Coq (`coqidetop`), eq (AIM engine), Lean (Pantograph). A failed step must leave the
 * prover where it was before the step.
 */
export interface ProverSession {
  readonly backend: BackendId;
  /**
   * Discard any unfinished proof and start proving `goal` as the theorem `name` (backends without named
   * theorems ignore it). Finished proofs and declarations before it stay in the environment.
   */
  start(goal: string, name?: string): Promise<StepOutcome>;
  /**
   * A declaration of the document (`DEFINE`): untrusted text. Coq sessions have Coq delimit it and the one
   * vernacular policy judge each sentence before it runs (docs/untrusted-text.md). Discards an unfinished
   * proof, like `start`; refused text changes nothing.
   */
  define?(text: string): Promise<DefineOutcome>;
  /** A look-up at the current state; never changes it. */
  query?(query: QueryCommand): Promise<QueryAnswer>;
  /** The whole document (declarations, finished theorems, the proof in progress) as one script the prover checks alone. */
  renderDocument?(items: ScriptItem[]): string;
  step(step: ProofStep): Promise<StepOutcome>;
  /** Go back to a state returned by `start`/`step` (later states are discarded). */
  restore(checkpoint: Checkpoint): Promise<void>;
  /** Re-print the open goals (e.g. after a print-mode change). */
  goals(): Promise<OpenGoal[]>;
  setPrintMode(mode: PrintMode): Promise<void>;
  /**
   * A complete script the prover checks alone. `steps` are the script fragments of every step so far;
   * `openGoals` > 0 means the proof is unfinished and the script must mark where.
   */
  renderScript(goal: string, steps: string[][], openGoals: number): string;
  /**
   * Closes a proof whose goals are all done in the prover itself (Coq: `Qed`, the kernel's check) and
   * reads what it depends on (`Print Assumptions`). Throws `unsound` when it depends on anything the
   * user did not trust, or `fail` when the prover refuses to close it; the session is then as before.
   * Backends without a kernel-level check of their own leave it out.
   */
  finish?(): Promise<FinishedProof>;
  /** Operating-system process id, when there is one (shown in the channels panel). */
  readonly pid?: number;
  /** False once the prover process is gone (a warm session killed while it waited): such a session is never handed out. */
  readonly alive?: boolean;
  dispose(): Promise<void>;
}

export interface SessionOptions {
  /**
   * Backend-specific preamble the user chose (Coq: vernacular sentences run before every proof), from a
   * `--prelude` file or a project file the user opened: its axioms are trusted.
   */
  prelude?: string;
  /**
   * The prelude of the workspace's `arbor.project.json`: a folder's text, so Coq judges it sentence by
   * sentence with the vernacular policy (purpose `project`: it may declare axioms), run after `prelude`;
   * its axioms are not trusted (trusting them needs the user's explicit confirmation, not a file).
   */
  projectPrelude?: string;
  /**
   * The user confirmed, in a dialog of Arbor's own (never through the API), that the assumptions the project
   * prelude declares are trusted: Coq sessions then accept proofs that use them. A function is read at each
   * judgement (the web page's confirmation may come after the session started).
   */
  trustProjectAxioms?: boolean | (() => boolean);
  /** A preamble from a client (`PRELUDE`): run after `prelude`, judged by the backend's policy, its axioms never trusted. */
  untrustedPrelude?: string;
  /**
   * The environment the document starts from (`PRELUDE bare …`; Coq: `default`, `bare` = Init only, or named
   * library sets, see provers/coq/environments.ts). Absent: the backend's default.
   */
  environment?: string;
  /** Default limit for `HAMMER`, `END` and `CRUSH`'s fallback, in milliseconds. */
  timeoutMs: number;
  /** Address-space cap of each prover process, in MB (DEFAULT_PROVER_MEMORY_MB when absent; 0: none). */
  memoryLimitMb?: number;
  printMode?: PrintMode;
  /**
   * Refutation first (HAMMER): a closed statement's counterexample, checked by the prover, or undefined.
   * Given by the supervisor (the fidelity engine's search); backends without it skip the stage.
   */
  refute?: (statement: string, timeoutMs: number) => Promise<{ summary: string } | undefined>;
  /** Backend-specific settings from the command line (eq: `advisor` = `HOST:PORT`); backends ignore keys they do not know. */
  backendOptions?: Record<string, string>;
  /**
   * The user's project, once the user trusted it (Coq: a `_CoqProject`'s load paths): arguments for the
   * prover's command line and the host directories its sandbox may read. Never from a client's text.
   */
  project?: ProjectArgs;
}

/** A trusted project's prover arguments (Coq: `-Q dir Lib`, `-R dir Lib`, allowed `-arg` options) and the directories they name. */
export interface ProjectArgs {
  args: readonly string[];
  /** Absolute host directories bound read-only into the sandbox at the same path. */
  readOnly: readonly string[];
}

/** What `arbor-shell --check` and the provers settings page report for a backend. */
export interface BackendCheck {
  backend: BackendId;
  available: boolean;
  /** e.g. the `coqidetop` path and version, and which ATPs CoqHammer can use. */
  details: string[];
  /** What is missing and the exact fix, when not available (or degraded). */
  problems: string[];
}

export interface ProverBackend {
  readonly id: BackendId;
  check(): Promise<BackendCheck>;
  /**
   * Why a prelude sent through the protocol (`PRELUDE`, possibly by an agent) is refused before the prover
   * reads it, or undefined (Coq: size and control characters; the session judges its sentences as it boots).
   * Preludes from the command line (`--prelude FILE`) are the user's own and are not checked.
   */
  checkPrelude?(text: string): string | undefined;
  /** Why an environment name (`PRELUDE bare`) is not one this backend knows, or undefined. Backends without it have none. */
  checkEnvironment?(name: string): string | undefined;
  open(options: SessionOptions): Promise<ProverSession>;
  /** Stops what the backend's sessions share (e.g. Coq's clean environment); it starts again when next needed. */
  dispose?(): Promise<void>;
}
