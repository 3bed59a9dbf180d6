import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WebSocket } from 'ws';
import { Shell } from '../../shell/shell.ts';
import { createProverEngineFactory, loadBackend } from '../../supervisor/engine-factory.ts';
import type { EngineFactory } from '../../supervisor/engine-factory.ts';
import { createApiService } from '../api-service.ts';
import type { ApiService } from '../api-service.ts';
import { startWebHost } from '../web-host.ts';
import type { WebHost } from '../web-host.ts';
import { Workspace } from '../workspace.ts';

/** A web host over a real Coq shell, with the user's proof on the host's channel 0: what attached clients attack. */
export interface CoqWebHost {
  dir: string;
  factory: EngineFactory;
  shell: Shell;
  service: ApiService;
  host: WebHost;
  /** A new authenticated WebSocket client of the host's API. */
  open(): Promise<WebSocket>;
  /** The user's channel as the shell sees it: its step and its tree. */
  userState(): { step: number | undefined; tree: string };
  /** Host, service, shell and provers closed (once), then the folder removed. */
  close(): Promise<void>;
}

/** The host's channel 0, on which the user's proof runs. */
export const USER_CHANNEL = 0;

export async function startCoqWebHost(prefix: string, userLines: readonly string[]): Promise<CoqWebHost> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  await mkdir(join(dir, 'static'));
  const factory = createProverEngineFactory(await loadBackend('coq'), { backend: 'coq', timeoutMs: 20_000, poolSize: 0 });
  const shell = new Shell({ createEngine: (ch, prelude) => factory.createEngine(ch, prelude) });
  const service = createApiService({
    shell, workspace: new Workspace({ root: dir, userDir: join(dir, 'user') }),
    info: () => ({ host: 'web', version: '0', backend: 'coq', backendAvailable: true, problems: [], workspace: dir, examplesDir: '' }),
  });
  const host = await startWebHost({ service, staticDir: join(dir, 'static') });
  for (const line of userLines) {
    const [r] = await Promise.all(shell.submitLine(line));
    if (r?.ERR !== '') throw new Error(`the user's proof did not check at ${line}: ${r?.ERR}`);
  }
  let closed: Promise<void> | undefined;
  return {
    dir, factory, shell, service, host,
    open: () => new Promise((resolve, reject) => {
      const sock = new WebSocket(`ws://127.0.0.1:${host.port}/api?token=${host.token}`, { origin: host.origin });
      sock.once('open', () => resolve(sock));
      sock.once('error', reject);
    }),
    userState: () => ({ step: shell.channelStatus(USER_CHANNEL)?.step, tree: JSON.stringify(shell.tree(USER_CHANNEL)) }),
    close: () => (closed ??= (async () => {
      await host.close();
      service.dispose();
      await shell.close();
      await factory.dispose();
      await rm(dir, { recursive: true, force: true });
    })()),
  };
}

let nextId = 1;
/** One API call over the socket; resolves with its answer frame (`result` or `error`). */
export function apiCall(sock: WebSocket, method: string, params: unknown): Promise<{ result?: unknown; error?: string }> {
  const id = nextId++;
  return new Promise((resolve) => {
    const onMessage = (data: unknown): void => {
      const frame = JSON.parse(String(data)) as { id?: number; result?: unknown; error?: string };
      if (frame.id !== id) return;
      sock.off('message', onMessage);
      resolve(frame);
    };
    sock.on('message', onMessage);
    sock.send(JSON.stringify({ id, method, params }));
  });
}
