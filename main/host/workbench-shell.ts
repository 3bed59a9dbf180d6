import type { AppInfo } from '../../shared/api/api-contract.ts';
import type { ChannelEngine } from '../shell/channel-engine.ts';
import type { BackendId, ProjectArgs } from '../shell/prover-session.ts';
import { Shell } from '../shell/shell.ts';
import { findExecutable } from '../provers/lean/find-executable.ts';
import { createLeanBackend } from '../provers/lean/lean-backend.ts';
import type { LeanSettings } from '../provers/lean/lean-config.ts';
import { createProverEngineFactory, loadBackend } from '../supervisor/engine-factory.ts';
import type { EngineFactory } from '../supervisor/engine-factory.ts';
import { createIsabelleFactory } from '../supervisor/isabelle-factory.ts';
import { checkServerConfig } from '../provers/isabelle/isa-repl-server.ts';
import type { IsabelleServerConfig } from '../provers/isabelle/isa-repl-server.ts';
import { splitCommandLine } from '../process/command-line.ts';
import { UnavailableEngine } from './unavailable-engine.ts';

export interface WorkbenchShell {
  shell: Shell;
  backend: BackendId;
  available: boolean;
  problems: string[];
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
  /** The user confirmed the project prelude's assumptions in a native dialog (desktop only). */
  trustProjectAxioms?: boolean;
  /** The workspace's trusted project (a `_CoqProject`'s load paths), read for every new prover; see WorkspaceTrust. */
  project?: () => ProjectArgs | undefined;
  /** The lean backend's settings (the user's, over the environment); default: the environment only. */
  lean?: LeanSettings;
  /** The isabelle backend's Isa-REPL server: an address, or the command that starts one. */
  isabelle?: IsabelleServerConfig;
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
    return { shell, backend: options.backend, available: true, problems: [], dispose: () => shell.close() };
  }
  const problems: string[] = [];
  const factory = options.backend === 'isabelle' ? isabelleFactory(options, problems) : await proverFactory(options, problems);
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
    dispose: async () => {
      await shell.close();
      await factory?.dispose();
    },
  };
}

async function proverFactory(options: WorkbenchShellOptions, problems: string[]): Promise<EngineFactory | undefined> {
  try {
    const backend = options.backend === 'lean' && options.lean ? createLeanBackend(options.lean) : await loadBackend(options.backend);
    const check = await backend.check();
    problems.push(...check.problems);
    if (!check.available) return undefined;
    return createProverEngineFactory(backend, {
      backend: options.backend,
      timeoutMs: options.timeoutMs ?? 10_000,
      poolSize: options.poolSize ?? 1,
      ...(options.prelude !== undefined ? { prelude: options.prelude } : {}),
      ...projectPreludeOption(options),
      ...(options.project !== undefined && options.backend === 'coq' ? { project: options.project } : {}),
    });
  } catch (err) {
    problems.push(`backend ${options.backend} did not load: ${(err as Error).message}`);
    return undefined;
  }
}

/** Isabelle is a client of an Isa-REPL server; a missing or unusable configuration is a problem, not a hang. */
function isabelleFactory(options: WorkbenchShellOptions, problems: string[]): EngineFactory | undefined {
  const server = options.isabelle ?? {};
  const problem = checkServerConfig(server);
  if (problem !== undefined) {
    problems.push(problem);
    return undefined;
  }
  if (server.address === undefined) {
    let executable: string | undefined;
    try {
      executable = splitCommandLine(server.serverCommand as string)[0];
    } catch {
      executable = undefined;
    }
    if (executable === undefined || !findExecutable(executable)) {
      problems.push(`the Isa-REPL server command '${server.serverCommand}' does not start an executable on PATH: fix it on the Provers page`);
      return undefined;
    }
  }
  const prelude = [options.prelude, options.projectPrelude].filter((p) => p !== undefined).join('\n') || undefined;
  return createIsabelleFactory({ ...server, timeoutMs: options.timeoutMs ?? 10_000, ...(prelude !== undefined ? { prelude } : {}) });
}

/** Coq: the project prelude is judged (`projectPrelude`); other backends have no vernacular to judge and read it as their prelude. */
function projectPreludeOption(options: WorkbenchShellOptions): { prelude?: string; projectPrelude?: string; trustProjectAxioms?: boolean } {
  if (options.projectPrelude === undefined) return {};
  if (options.backend === 'coq') return { projectPrelude: options.projectPrelude, ...(options.trustProjectAxioms === true ? { trustProjectAxioms: true } : {}) };
  return { prelude: [options.prelude, options.projectPrelude].filter((p) => p !== undefined).join('\n') };
}

export function appInfo(host: AppInfo['host'], ws: WorkbenchShell, workspace: string, examplesDir: string): AppInfo {
  return { host, version: '0.1.0', backend: ws.backend, backendAvailable: ws.available, problems: ws.problems, workspace, examplesDir };
}
