import type { Settings } from '../../shared/api/api-contract.ts';
import { proverSettingsFrom } from '../../shared/settings/prover-settings.ts';
import type { ProversReport } from '../../shared/settings/provers-report.ts';
import type { LeanSettings } from '../provers/lean/lean-config.ts';
import { detectBackends } from '../supervisor/backend-detection.ts';
import { sandboxStatus } from '../process/process-manager.ts';
import type { IsabelleServerConfig } from '../provers/isabelle/isa-repl-server.ts';
import { isabelleServerFor, leanSettingsFor } from './prover-config.ts';
import type { ProjectInfo } from './workspace-project.ts';

/** The lean/isabelle options of `createWorkbenchShell` from the user's stored settings. */
export function shellProverOptions(settings: Settings): { lean: LeanSettings; isabelle: IsabelleServerConfig } {
  const user = proverSettingsFrom(settings);
  return { lean: leanSettingsFor(user), isabelle: isabelleServerFor(user) };
}

/** `provers.detect`: detection with the settings as they are now (so a change shows before the next start). */
export function createProversReporter(settings: () => Promise<Settings>, shellBackend: string, project: ProjectInfo | null): () => Promise<ProversReport> {
  return async () => {
    const options = shellProverOptions(await settings());
    return { detections: await detectBackends(options.lean, options.isabelle), shellBackend, project, sandbox: sandboxStatus() };
  };
}
