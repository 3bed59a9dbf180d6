import { z } from 'zod';
import { tierIds } from '../fidelity/fidelity-types.ts';

/** What `arbor batch` runs: one job per item of an input file (or folder). */
export const batchKinds = ['fidelity', 'aim', 'hammer', 'check'] as const;
export type BatchKind = (typeof batchKinds)[number];

/**
 * What a job needs of the worker that runs it. `builtin` is what every Arbor worker has (the equational
 * engine, the S0/S1 normalisers); `coq` needs coqidetop and coqc. Each has a queue of its own, so a job
 * never reaches a worker that lacks its prover.
 */
export const batchBackends = ['builtin', 'coq'] as const;
export type BatchBackend = (typeof batchBackends)[number];

const id = z.string().min(1).max(500);
const text = (max: number) => z.string().max(max);

/**
 * One job's data, as it crosses process and machine boundaries (stdin of a pool worker, a Redis hash):
 * validated on arrival like any untrusted input. Everything a worker needs travels with the job — a
 * worker on another machine has none of the batch's files.
 */
export const batchJobSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('fidelity'),
    id,
    canonical: text(65_536).min(1),
    candidate: text(65_536).min(1),
    context: text(1 << 20).optional(),
    truth: z.string().max(40).optional(),
    backend: z.enum(['coq', 'lean']),
    tiers: z.array(z.enum(tierIds)).optional(),
    timeoutMs: z.number().int().positive().max(600_000),
    classical: z.boolean(),
  }),
  z.object({
    kind: z.literal('aim'),
    id,
    /** The ARTICLE preamble (axioms, definitions, known lemmas) the theorem is proved from. */
    preamble: text(1 << 20),
    /** The `Theorem NAME: lhs = rhs.` line. */
    theorem: text(65_536).min(1),
    limitMs: z.number().int().positive().max(3_600_000),
    /** Let E prover run beside Arbor's own completion where the worker has it. */
    useE: z.boolean(),
  }),
  z.object({
    kind: z.literal('hammer'),
    id,
    statement: text(65_536).min(1),
    /** Coq declarations the statement uses (sent as DEFINE, through the vernacular policy). */
    context: text(1 << 20).optional(),
    seconds: z.number().positive().max(3600),
  }),
  z.object({
    kind: z.literal('check'),
    id,
    /** The proof document (`.arbor`), checked to the end through the shell. */
    document: text(4 << 20),
    timeoutMs: z.number().int().positive().max(3_600_000),
  }),
]);
export type BatchJob = z.infer<typeof batchJobSchema>;

/** The prover a job needs (fidelity with only the syntactic tiers, or on Lean statements, needs none). */
export function jobBackend(job: BatchJob): BatchBackend {
  switch (job.kind) {
    case 'aim': return 'builtin';
    case 'fidelity': return job.backend === 'coq' && (job.tiers === undefined || job.tiers.some((t) => t !== 's0' && t !== 's1')) ? 'coq' : 'builtin';
    case 'hammer':
    case 'check': return 'coq';
  }
}

/**
 * What a worker says about one job: `outcome` is the kind's verdict (`proved`, `equivalent`, `verified`, …)
 * or `error` (the item could not be run: refused input, a prover that failed, a worker that kept dying);
 * `evidence` is what backs it (a checked script, a counterexample, the failing line); `ms` is the job's own
 * time on the worker.
 */
export const jobOutcomeSchema = z.object({
  outcome: z.string().min(1).max(40),
  evidence: z.unknown(),
  ms: z.number().nonnegative(),
  worker: z.string().max(200),
});
export type JobOutcome = z.infer<typeof jobOutcomeSchema>;

/** The outcome of an item that could not be run at all. */
export const ERROR_OUTCOME = 'error';

/** What a worker says while a job runs (BullMQ progress data; a pool worker's progress message). */
export const jobProgressSchema = z.object({
  worker: z.string().max(200),
  /** `started` when the worker takes the job; then the share done, where the kind knows it (lines of a document). */
  phase: z.enum(['started', 'running']),
  fraction: z.number().min(0).max(1).optional(),
});
export type JobProgress = z.infer<typeof jobProgressSchema>;
