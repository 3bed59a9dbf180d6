import WebSocket from 'ws';
import type { ApiEvent, ApiMethod, ApiParams, ApiResults, WsServerFrame } from '../../shared/api/api-contract.ts';
import type { TreeView } from '../../shared/proof-tree/proof-tree.ts';
import type { ShellResponse } from '../../shared/protocol/shell-command.ts';
import type { PortEvent, ShellPort } from './shell-port.ts';

export interface AttachOptions {
  /** The web host's token; sent as `Authorization: Bearer …` (a `token` query parameter in the URL also works). */
  token?: string;
  /** Milliseconds to wait for the connection. */
  connectTimeoutMs?: number;
}

/**
 * `arbor-mcp --attach URL`: a small client of the workbench web host's WebSocket API
 * (`shared/api/api-contract.ts`: frames `{id, method, params}` → `{id, result}` / `{id, error}`, pushed
 * `{event}`). Agents then work on the proof the user has open, and the workbench sees every request.
 */
export async function attachPort(url: string, options: AttachOptions = {}): Promise<ShellPort> {
  const headers: Record<string, string> = {};
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  const socket = new WebSocket(url, { headers });
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      socket.terminate();
      reject(new Error(`cannot attach to ${url}: no connection within ${options.connectTimeoutMs ?? 10_000} ms`));
    }, options.connectTimeoutMs ?? 10_000);
    socket.once('open', () => {
      clearTimeout(timer);
      resolve();
    });
    socket.once('error', (err) => {
      clearTimeout(timer);
      reject(new Error(`cannot attach to ${url}: ${err.message}`));
    });
  });
  let nextId = 1;
  const calls = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  const listeners = new Set<(event: PortEvent) => void>();
  socket.on('message', (data) => {
    let frame: WsServerFrame;
    try {
      frame = JSON.parse(String(data)) as WsServerFrame;
    } catch {
      return;
    }
    if ('event' in frame) {
      const event: ApiEvent = frame.event;
      if (event.kind === 'request' || event.kind === 'response') for (const l of listeners) l(event);
      return;
    }
    const call = calls.get(frame.id);
    if (!call) return;
    calls.delete(frame.id);
    if ('error' in frame) call.reject(new Error(frame.error));
    else call.resolve(frame.result);
  });
  socket.on('close', () => {
    for (const call of calls.values()) call.reject(new Error('the workbench closed the connection'));
    calls.clear();
  });
  const call = <M extends ApiMethod>(method: M, params: ApiParams<M>): Promise<ApiResults[M]> => {
    if (socket.readyState !== WebSocket.OPEN) return Promise.reject(new Error('not attached to the workbench'));
    const id = nextId++;
    return new Promise((resolve, reject) => {
      calls.set(id, { resolve: resolve as (v: unknown) => void, reject });
      socket.send(JSON.stringify({ id, method, params }));
    });
  };
  return {
    submit: (line): Promise<ShellResponse[]> => call('shell.submit', { line }),
    tree: async (channel): Promise<TreeView | undefined> => (await call('shell.tree', { channel })) ?? undefined,
    onEvent: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    close: async () => {
      if (socket.readyState === WebSocket.CLOSED) return;
      await new Promise<void>((resolve) => {
        socket.once('close', () => resolve());
        socket.close();
      });
    },
  };
}
