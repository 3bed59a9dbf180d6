import type { BatchBackend } from '../../shared/batch/batch-job.ts';
import type { ProjectArgs } from '../shell/prover-session.ts';
import { detectCoq, detectEq } from '../supervisor/backend-detection.ts';

/** What a worker can run: the queues it listens on, whether E prover is there for AIM, and what it found. */
export interface WorkerProvers {
  backends: BatchBackend[];
  eprover: boolean;
  /** One line per tool, for the worker's start-up line. */
  details: string[];
  /** `--workspace`: that workspace's trusted project (its stored grant); every coqidetop and coqc run gets its load paths. */
  project?: ProjectArgs;
}

/**
 * `--workspace DIR` of `arbor batch`/`worker`/`fidelity`: DIR's trusted load paths from the grant the user gave in
 * the workbench (WorkspaceTrust); rejects with the reason when there is none. A command line never grants trust.
 */
export type TrustedProject = (dir: string) => Promise<ProjectArgs | undefined>;

/**
 * Detects this machine's provers: `builtin` always (Arbor's own engines), `coq` when coqidetop and coqc are
 * both on PATH (HAMMER and documents need the first, scripts and fidelity tiers the second).
 */
export async function detectWorkerProvers(): Promise<WorkerProvers> {
  const [coq, eq] = await Promise.all([detectCoq(), detectEq()]);
  const hasCoq = coq.tools.every((t) => t.path !== undefined);
  const eprover = eq.tools.some((t) => t.name === 'eprover' && t.path !== undefined);
  const details = [...coq.tools, ...eq.tools].map((t) => `${t.name} ${t.path ? (t.version ?? 'found') : 'missing'}`);
  return { backends: hasCoq ? ['builtin', 'coq'] : ['builtin'], eprover, details };
}
