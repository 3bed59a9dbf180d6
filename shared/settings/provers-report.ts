import type { SandboxStatus } from './sandbox-status.ts';

/** One backend as the Provers page shows it (from the host's `detectBackends()`). */
export interface ProverDetection {
  backend: string;
  found: boolean;
  tools: { name: string; path?: string; version?: string }[];
  /** What is missing, each with the exact fix. */
  missing: string[];
}

/** A folder's `arbor.project.json` as the host read it (`error` when it did not validate; then it is ignored). */
export interface ProjectInfo { path: string; backend?: string; prelude?: string; error?: string }

/** What `provers.detect` answers: every backend, and how this workbench's shell was started. */
export interface ProversReport {
  detections: ProverDetection[];
  /** The one backend this host's shell runs (chosen at start: the workspace's project file, else the command line). */
  shellBackend: string;
  /** The workspace's `arbor.project.json`, if any (`error` when it did not validate; then it was ignored). */
  project: ProjectInfo | null;
  /** Whether provers run inside the operating system's sandbox (never silent when they do not). */
  sandbox: SandboxStatus;
}
