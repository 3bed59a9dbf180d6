import WebSocket from 'ws';
import type { ApiEvent, ApiMethod, ApiParams, ApiResults, WsServerFrame } from '../../shared/api/api-contract.ts';
import type { TreeView } from '../../shared/proof-tree/proof-tree.ts';
import type { ShellResponse } from '../../shared/protocol/shell-command.ts';
import type { PortEvent, ShellPort } from './shell-port.ts';

export interface AttachOptions {
  /** The web host's token, when the URL does not carry it (`?token=`). */
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
  const target = attachTarget(url, options.token);
  const socket = new WebSocket(target.ws, { origin: target.origin, headers: { authorization: `Bearer ${target.token}` } });
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      socket.terminate();
      reject(new Error(`cannot attach to ${target.origin}: no connection within ${options.connectTimeoutMs ?? 10_000} ms`));
    }, options.connectTimeoutMs ?? 10_000);
    socket.once('open', () => {
      clearTimeout(timer);
      resolve();
    });
    socket.once('error', (err) => {
      clearTimeout(timer);
      reject(new Error(`cannot attach to ${target.origin}: ${err.message}`));
    });
  });
  // After the connection, a malformed or oversized frame from the host (or a reset) is an 'error' that
  // `ws` follows with 'close', which fails the calls under way; without a listener it would kill arbor-mcp.
  socket.on('error', () => undefined);
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
    // A frame that is JSON but not an object (`null`, `5`, `{"event": null}`) would throw here, in a
    // socket listener, and end arbor-mcp: skip it like text that is not JSON.
    if (typeof frame !== 'object' || frame === null) return;
    if ('event' in frame) {
      const event = frame.event as ApiEvent | null;
      if (typeof event !== 'object' || event === null) return;
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
      socket.send(JSON.stringify({ id, method, params }), (err) => {
        if (!err) return;
        calls.delete(id);
        reject(new Error(`cannot send to the workbench: ${err.message}`));
      });
    });
  };
  return {
    submit: (line): Promise<ShellResponse[]> => call('shell.submit', { line }),
    tree: async (channel): Promise<TreeView | undefined> => (await call('shell.tree', { channel }))?.tree ?? undefined,
    // Tries run on forks of the workbench's channel (fork.try runs runForkTry there, as inProcessPort does here).
    tryOnFork: (channel, spec) => call('fork.try', { channel, ...spec }),
    step: async (channel): Promise<number | undefined> => ((await call('shell.channels', {})) as { id: number; step: number }[]).find((c) => c.id === channel)?.step,
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

/**
 * The web host's API socket for a workbench URL as `npm run web` prints it (`http://127.0.0.1:PORT/?token=…`)
 * or as a `ws://…/api` URL: path `/api`, the token as a query parameter, and the host's own origin (the
 * host accepts no other).
 */
export function attachTarget(url: string, token?: string): { ws: string; origin: string; token: string } {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error(`not a URL: ${url}`);
  }
  const secure = parsed.protocol === 'https:' || parsed.protocol === 'wss:';
  if (!['http:', 'https:', 'ws:', 'wss:'].includes(parsed.protocol)) throw new Error(`not an http or ws URL: ${url}`);
  const key = parsed.searchParams.get('token') ?? token;
  if (!key) throw new Error('the workbench token is missing: pass the URL the workbench printed (with ?token=) or --token');
  const ws = new URL(`${secure ? 'wss' : 'ws'}://${parsed.host}/api`);
  ws.searchParams.set('token', key);
  return { ws: ws.toString(), origin: `${secure ? 'https' : 'http'}://${parsed.host}`, token: key };
}
