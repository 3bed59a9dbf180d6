import type { AdvisorSettings } from '../provers/eq/hammer.ts';
import type { BackendId } from '../shell/prover-session.ts';
import type { ChannelEngine } from '../shell/channel-engine.ts';
import { createApiService } from './api-service.ts';
import { EXAMPLES_DIR, RENDERER_DIST, ensureRendererBuilt } from './renderer-build.ts';
import { startWebHost } from './web-host.ts';
import { appInfo } from './workbench-shell.ts';
import { composeWorkbench } from './compose-workbench.ts';
import { Workspace, defaultUserDir } from './workspace.ts';
import { WorkspaceTrust } from './workspace-trust.ts';
import { openVFile, type VFileHooks } from './v-file.ts';

export interface WebWorkbenchOptions {
  /** `--backend`: the workspace's project file still chooses first; default the user's setting, else coq. */
  backend?: BackendId;
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
  // The workspace's one grant (_CoqProject's load paths, arbor.project.json's axioms): used once the user
  // trusted it in the page with a code printed here on the host's terminal, never because a client asked.
  const trust = new WorkspaceTrust({ root: options.workspace, userDir: options.userDir ?? defaultUserDir(), printCode: options.log ?? ((line) => process.stdout.write(`${line}\n`)) });
  await trust.load();
  const workspace = new Workspace({ root: options.workspace, readOnlyRoots: [EXAMPLES_DIR], userDir: options.userDir ?? defaultUserDir(), writeRefusal: (p) => trust.writeRefusal(p) });
  // The one composition with Electron's (compose-workbench.ts): backend, limits, HAMMER options, agents.
  const { ws, agent, detectProvers } = await composeWorkbench(workspace, {
    ...(options.backend !== undefined ? { backend: options.backend } : {}),
    ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
    ...(options.advisor ? { advisor: options.advisor } : {}),
    ...(options.createEngine ? { createEngine: options.createEngine } : {}),
  }, trust);
  const mcp = await agent.startMcp();
  const timeoutMs = ws.hammerSeconds * 1000;
  const service = createApiService({
    shell: ws.shell, workspace, agent, detectProvers, info: () => appInfo('web', ws, workspace.root, EXAMPLES_DIR), trust,
    ...(ws.backend === 'coq' ? { vFile: (text: string, hooks: VFileHooks) => openVFile(text, timeoutMs, trust, hooks) } : {}),
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
