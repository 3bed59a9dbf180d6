import type { Settings } from '../../shared/api/api-contract.ts';
import type { ProversReport } from '../../shared/settings/provers-report.ts';
import type { AdvisorSettings } from '../provers/eq/hammer.ts';
import type { ChannelEngine } from '../shell/channel-engine.ts';
import type { BackendId, ProjectArgs } from '../shell/prover-session.ts';
import { DEFAULT_TIMEOUT_SECONDS, isTimeoutSeconds } from '../supervisor/compose-backends.ts';
import { createProversReporter, shellProverOptions } from './provers-reporter.ts';
import { WorkbenchAgent } from './workbench-agent.ts';
import { createWorkbenchShell, type WorkbenchShell, type WorkbenchShellOptions } from './workbench-shell.ts';
import type { Workspace } from './workspace.ts';
import { readWorkspaceProject, type ProjectInfo } from './workspace-project.ts';
import type { WorkspaceTrust } from './workspace-trust.ts';

/** What the command that starts a workbench may say (the web's flags; Electron has none). */
export interface WorkbenchFlags {
  /** `--backend`: below the workspace's project file, above the user's setting. */
  backend?: BackendId;
  /** `--timeout`: above the user's setting. */
  timeoutMs?: number;
  /** `--advisor` (eq): HAMMER and the suggestion panel's eq-advisor both ask it. */
  advisor?: AdvisorSettings;
  /** The workspace's trusted `_CoqProject` load paths, read for every new prover (WorkspaceTrust). */
  project?: () => ProjectArgs | undefined;
  /** Tests only: engines over a test double instead of a real backend. */
  createEngine?: (channel: number, prelude?: string) => ChannelEngine;
}

/**
 * The workbench's shell options, one rule for Electron and the web: the workspace's project file chooses the
 * backend (else the command's flag, else the user's setting, else coq) and adds its prelude; the limit is the
 * flag's, else the user's setting, else 10 s; the advisor reaches HAMMER as it does in arbor-shell.
 */
export function workbenchOptions(settings: Settings, project: ProjectInfo | null, flags: WorkbenchFlags, trustProjectAxioms: boolean | (() => boolean)): WorkbenchShellOptions {
  const setting = typeof settings.backend === 'string' ? (settings.backend as BackendId) : undefined;
  // A setting Arbor cannot keep (NaN, negative, past an hour: Node's timers would fire at once) is the default.
  const seconds = typeof settings.timeoutSeconds === 'number' && isTimeoutSeconds(settings.timeoutSeconds) ? settings.timeoutSeconds : DEFAULT_TIMEOUT_SECONDS;
  return {
    backend: (project?.backend as BackendId | undefined) ?? flags.backend ?? setting ?? 'coq',
    ...shellProverOptions(settings),
    // A folder's text, not the user's: judged by the policy, its axioms trusted only when the user confirmed them.
    ...(project?.prelude !== undefined ? { projectPrelude: project.prelude } : {}),
    ...(trustProjectAxioms !== false ? { trustProjectAxioms } : {}),
    timeoutMs: flags.timeoutMs !== undefined && isTimeoutSeconds(flags.timeoutMs / 1000) ? flags.timeoutMs : seconds * 1000,
    ...(flags.advisor ? { advisor: `${flags.advisor.host}:${flags.advisor.port}` } : {}),
    ...(flags.createEngine ? { createEngine: flags.createEngine } : {}),
    ...(flags.project ? { project: flags.project } : {}),
  };
}

export interface ComposedWorkbench {
  ws: WorkbenchShell;
  agent: WorkbenchAgent;
  project: ProjectInfo | null;
  detectProvers: () => Promise<ProversReport>;
  /** The options the shell was built with (what both roots must agree on). */
  options: WorkbenchShellOptions;
}

/**
 * The workbench's one composition root below its transports (Electron's IPC, the web host's WebSocket):
 * the shell over the chosen backend, the agents' service with the same HAMMER budget and advisor, and the
 * provers report. `trust` is the workspace's one grant: new provers read its load paths, and the project
 * prelude's axioms are trusted while it holds for that prelude (read at each judgement: the web page's yes
 * may come after start); without it nothing is trusted.
 */
export async function composeWorkbench(workspace: Workspace, flags: WorkbenchFlags, trust?: WorkspaceTrust): Promise<ComposedWorkbench> {
  const project = await readWorkspaceProject(workspace.root);
  const prelude = project?.prelude;
  const axioms = trust !== undefined && prelude !== undefined ? () => trust.axiomsTrusted(prelude) : false;
  const withTrust: WorkbenchFlags = trust !== undefined && flags.project === undefined ? { ...flags, project: () => trust.projectArgs() } : flags;
  const options = workbenchOptions(await workspace.settings(), project, withTrust, axioms);
  const ws = await createWorkbenchShell(options);
  if (project?.error !== undefined) ws.problems.push(`${project.error} (ignored)`);
  const agent = new WorkbenchAgent({
    shell: ws.shell, workspace, backend: ws.backend, hammerSeconds: ws.hammerSeconds,
    ...(flags.advisor ? { advisor: flags.advisor } : {}), ...(withTrust.project ? { project: withTrust.project } : {}),
  });
  return { ws, agent, project, detectProvers: createProversReporter(() => workspace.settings(), ws.backend, project), options };
}
