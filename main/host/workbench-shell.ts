import type { AppInfo } from '../../shared/api/api-contract.ts';
import type { ChannelEngine } from '../shell/channel-engine.ts';
import type { BackendId, ProjectArgs } from '../shell/prover-session.ts';
import { Shell } from '../shell/shell.ts';
import type { LeanSettings } from '../provers/lean/lean-config.ts';
import type { IsabelleServerConfig } from '../provers/isabelle/isa-repl-server.ts';
import { composeBackends, DEFAULT_TIMEOUT_SECONDS, type BackendChoice } from '../supervisor/compose-backends.ts';
import { UnavailableEngine } from './unavailable-engine.ts';

export interface WorkbenchShell {
  shell: Shell;
  backend: BackendId;
  available: boolean;
  problems: string[];
  /** HAMMER's budget in seconds (the agents' HAMMER suggestions use it). */
  hammerSeconds: number;
  dispose(): Promise<void>;
}

export interface WorkbenchShellOptions {
  backend: BackendId;
  timeoutMs?: number;
  poolSize?: number;
  prelude?: string;
  /**
   * The workspace's `arbor.project.json` prelude: text from a folder, not the user's own hand. Coq judges
   * it sentence by sentence with the vernacular policy (purpose `project`) and trusts none of its axioms;
   * other backends read it as their prelude.
   */
  projectPrelude?: string;
  /** The user confirmed the project prelude's assumptions: the desktop's native dialog, or (a function) the web page's confirmation. */
  trustProjectAxioms?: boolean | (() => boolean);
  /** The workspace's trusted project (a `_CoqProject`'s load paths), read for every new prover; see WorkspaceTrust. */
  project?: () => ProjectArgs | undefined;
  /** The lean backend's settings (the user's, over the environment); default: the environment only. */
  lean?: LeanSettings;
  /** The isabelle backend's Isa-REPL server: an address, or the command that starts one. */
  isabelle?: IsabelleServerConfig;
  /** eq: an AIMLEAP advisor (HOST:PORT) HAMMER asks first. */
  advisor?: string;
  /** Tests inject an engine maker (e.g. over a test double); the product always loads the backend. */
  createEngine?: (channel: number, prelude?: string) => ChannelEngine;
  /** Open channels at most (documents, agents' scratch copies); default WORKBENCH_MAX_CHANNELS. */
  maxChannels?: number;
}

/** A workbench holds a channel per open document plus agents' scratch copies: more than a bare shell. */
export const WORKBENCH_MAX_CHANNELS = 16;

/**
 * The shell the workbench drives. A backend that fails to load or check does not stop the workbench: its
 * channels answer `unavailable: …` and the problems show in the UI.
 */
export async function createWorkbenchShell(options: WorkbenchShellOptions): Promise<WorkbenchShell> {
  if (options.createEngine) {
    const shell = new Shell({ createEngine: options.createEngine, maxChannels: options.maxChannels ?? WORKBENCH_MAX_CHANNELS });
    return { shell, backend: options.backend, available: true, problems: [], hammerSeconds: (options.timeoutMs ?? DEFAULT_TIMEOUT_SECONDS * 1000) / 1000, dispose: () => shell.close() };
  }
  const { factory, problems, hammerSeconds } = await composeBackends(backendChoice(options), { check: true });
  const reason = problems[0] ?? `backend ${options.backend} is not available`;
  const shell = new Shell({
    createEngine: (channel, prelude) => factory ? factory.createEngine(channel, prelude) : new UnavailableEngine(options.backend, reason),
    maxChannels: options.maxChannels ?? WORKBENCH_MAX_CHANNELS,
  });
  return {
    shell,
    backend: options.backend,
    available: factory !== undefined,
    problems,
    hammerSeconds,
    dispose: async () => {
      await shell.close();
      await factory?.dispose();
    },
  };
}

export function appInfo(host: AppInfo['host'], ws: WorkbenchShell, workspace: string, examplesDir: string): AppInfo {
  return { host, version: '0.1.0', backend: ws.backend, backendAvailable: ws.available, problems: ws.problems, workspace, examplesDir };
}

/** The workbench's options as the one backend choice every composition root states (supervisor/compose-backends.ts). */
export function backendChoice(options: WorkbenchShellOptions): BackendChoice {
  return {
    backend: options.backend,
    timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_SECONDS * 1000,
    poolSize: options.poolSize ?? 1,
    ...(options.prelude !== undefined ? { prelude: options.prelude } : {}),
    ...(options.projectPrelude !== undefined ? { projectPrelude: options.projectPrelude } : {}),
    ...(options.project !== undefined ? { project: options.project } : {}),
    ...(options.trustProjectAxioms !== undefined && options.trustProjectAxioms !== false ? { trustProjectAxioms: options.trustProjectAxioms } : {}),
    ...(options.advisor !== undefined ? { advisor: options.advisor } : {}),
    ...(options.lean !== undefined ? { lean: options.lean } : {}),
    ...(options.isabelle !== undefined ? { isabelle: options.isabelle } : {}),
  };
}
