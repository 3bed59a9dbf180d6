import type { VFileProgress, VFileReport } from '../../shared/derivation/v-file-derivation.ts';
import { vFileDerivations } from '../provers/coq/v-file-derivations.ts';
import type { WorkspaceTrust } from './workspace-trust.ts';

/** What the workbench gives a `.v` run: Cancel, and where its progress goes. */
export interface VFileHooks {
  signal?: AbortSignal;
  onProgress?: (p: VFileProgress) => void;
}

/**
 * The whole run's limit: the standard library's Lists/List.v (3,399 lines) reads in about two minutes on a
 * loaded machine; past ten, running stops with a clear message and what was read is shown.
 */
export const V_FILE_WALL_CLOCK_MS = 600_000;

/**
 * A `.v` file opened in the workbench: run in a sandboxed coqidetop of its own (with the workspace's
 * project load paths only when trusted). Each sentence gets the workbench's per-step limit, at least 30 s
 * (a development's automation can be slower than a document's steps).
 */
export const openVFile = (text: string, timeoutMs: number, trust: WorkspaceTrust, hooks: VFileHooks = {}): Promise<VFileReport> => {
  const project = trust.projectArgs();
  return vFileDerivations(text, {
    timeoutMs: Math.max(timeoutMs, 30_000), wallClockMs: V_FILE_WALL_CLOCK_MS,
    ...(project !== undefined ? { project } : {}),
    ...(hooks.signal !== undefined ? { signal: hooks.signal } : {}),
    ...(hooks.onProgress !== undefined ? { onProgress: hooks.onProgress } : {}),
  });
};
