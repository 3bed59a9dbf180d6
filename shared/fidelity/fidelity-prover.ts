import type { FidelityContext } from './fidelity-context.ts';
import type { FidelityRequest } from './fidelity-types.ts';

/** One statement pair as the proof tiers see it (raw text: the prover parses, not Arbor). */
export interface ProverTask { request: FidelityRequest; context: FidelityContext }

export type TypeCheck = { ok: true } | { ok: false; statement: 'canonical' | 'candidate' | 'context' | 'input'; message: string };

export interface StandaloneStatus { provable: string | null; refutable: string | null }

/** Scripts of the directions that were proved (null = not proved). */
export interface DirectionScripts { forward: string | null; backward: string | null; detail?: string }

/**
 * What the pipeline needs from a proof backend. The Coq implementation lives in `main/fidelity`; a
 * backend that is not configured simply has no prover, and the proof tiers report `unknown`.
 */
export interface FidelityProver {
  readonly backend: 'coq' | 'lean';
  /** The import header refutation files start with (imports depend on what the statements mention). */
  header(task: ProverTask): string;
  typeCheck(task: ProverTask): Promise<TypeCheck>;
  /** S3-lite: `canonical ↔ candidate` with logic-only tactics. */
  s3Lite(task: ProverTask): Promise<DirectionScripts>;
  /** BEq+: each direction separately with the fixed bundle. */
  beqPlus(task: ProverTask): Promise<DirectionScripts>;
  /**
   * The guard: is the statement provable, or refutable, on its own with the strongest bundle? Scripts that
   * the prover re-checked alone are returned as they are; others are prefixed `(unchecked) ` — they still
   * block `equivalent`, but are never evidence for `not_equivalent`.
   */
  standalone(task: ProverTask, which: 'canonical' | 'candidate'): Promise<StandaloneStatus>;
  /** Check a self-contained file (refutations). */
  checkFile(source: string): Promise<{ ok: boolean; message: string }>;
}
