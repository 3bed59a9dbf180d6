import type { VFileReport } from '../../shared/derivation/v-file-derivation.ts';
import { vFileDerivations } from '../provers/coq/v-file-derivations.ts';
import type { WorkspaceTrust } from './workspace-trust.ts';

/**
 * A `.v` file opened in the workbench: run in a sandboxed coqidetop of its own (with the workspace's
 * project load paths only when trusted). Each sentence gets the workbench's per-step limit, at least 30 s
 * (a development's automation can be slower than a document's steps).
 */
export const openVFile = (text: string, timeoutMs: number, trust: WorkspaceTrust): Promise<VFileReport> => {
  const project = trust.projectArgs();
  return vFileDerivations(text, { timeoutMs: Math.max(timeoutMs, 30_000), ...(project !== undefined ? { project } : {}) });
};
