import type { AdvisorSettings } from '../provers/eq/hammer.ts';
import type { BackendId } from '../shell/prover-session.ts';
import type { ChannelEngine } from '../shell/channel-engine.ts';
import { createApiService } from './api-service.ts';
import { createProversReporter, shellProverOptions } from './provers-reporter.ts';
import { EXAMPLES_DIR, RENDERER_DIST, ensureRendererBuilt } from './renderer-build.ts';
import { WorkbenchAgent } from './workbench-agent.ts';
import { startWebHost } from './web-host.ts';
import { appInfo, createWorkbenchShell } from './workbench-shell.ts';
import { Workspace, defaultUserDir } from './workspace.ts';
import { readWorkspaceProject } from './workspace-project.ts';
import { WorkspaceTrust } from './workspace-trust.ts';
import { openVFile } from './v-file.ts';

export interface WebWorkbenchOptions {
  backend: BackendId;
  workspace: string;
  userDir?: string;
  port?: number;
  token?: string;
  timeoutMs?: number;
  build?: boolean;
  log?: (line: string) => void;
  /** Tests only: engines over a test double instead of a real backend. */
  createEngine?: (channel: number, prelude?: string) => ChannelEngine;
  /** eq backend: an AIMLEAP advisor the suggestion panel's eq-advisor asks (HOST:PORT, already checked). */
  advisor?: AdvisorSettings;
}

export interface WebWorkbench {
  url: string;
  origin: string;
  token: string;
  backendAvailable: boolean;
  problems: string[];
  /** Where MCP agents connect (streamable HTTP on 127.0.0.1, its own bearer token). */
  mcp: { url: string; token: string };
  close(): Promise<void>;
}

/** Everything `npm run web` runs: shell, workspace, API service and web host, wired together. */
export async function startWebWorkbench(options: WebWorkbenchOptions): Promise<WebWorkbench> {
  if (options.build !== false) await ensureRendererBuilt(options.log);
  const workspace = new Workspace({ root: options.workspace, readOnlyRoots: [EXAMPLES_DIR], userDir: options.userDir ?? defaultUserDir() });
  // The shell runs one backend: the workspace's project file chooses it (and its prelude) at start.
  const project = await readWorkspaceProject(workspace.root);
  const backend = (project?.backend as BackendId | undefined) ?? options.backend;
  // The workspace's _CoqProject: its load paths are used once the user trusted it (in-page, with a code
  // printed here on the host's terminal), never because a client asked.
  const trust = new WorkspaceTrust({ root: workspace.root, userDir: options.userDir ?? defaultUserDir(), printCode: options.log ?? ((line) => process.stdout.write(`${line}\n`)) });
  await trust.load();
  const ws = await createWorkbenchShell({
    backend,
    project: () => trust.projectArgs(),
    ...shellProverOptions(await workspace.settings()),
    // A folder's text, not the user's: judged by the policy, its axioms not trusted.
    ...(project?.prelude !== undefined ? { projectPrelude: project.prelude } : {}),
    ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
    ...(options.createEngine ? { createEngine: options.createEngine } : {}),
  });
  if (project?.error !== undefined) ws.problems.push(`${project.error} (ignored)`);
  const detectProvers = createProversReporter(() => workspace.settings(), ws.backend, project);
  const agent = new WorkbenchAgent({ shell: ws.shell, workspace, backend: ws.backend, ...(options.advisor ? { advisor: options.advisor } : {}), hammerSeconds: (options.timeoutMs ?? 10_000) / 1000 });
  const mcp = await agent.startMcp();
  const timeoutMs = options.timeoutMs ?? 10_000;
  const service = createApiService({
    shell: ws.shell, workspace, agent, detectProvers, info: () => appInfo('web', ws, workspace.root, EXAMPLES_DIR), trust,
    ...(backend === 'coq' ? { vFile: (text: string) => openVFile(text, timeoutMs, trust) } : {}),
  });
  const host = await startWebHost({
    service,
    staticDir: RENDERER_DIST,
    ...(options.port !== undefined ? { port: options.port } : {}),
    ...(options.token !== undefined ? { token: options.token } : {}),
  });
  return {
    url: host.url,
    origin: host.origin,
    token: host.token,
    backendAvailable: ws.available,
    problems: ws.problems,
    mcp,
    close: async () => {
      await host.close();
      service.dispose();
      await agent.close();
      await ws.dispose();
    },
  };
}
