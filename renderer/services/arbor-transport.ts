import type { ApiEvent, ApiMethod, WsServerFrame } from '../../shared/api/api-contract.ts';

/** How the renderer reaches its host: Electron's preload bridge or the web host's WebSocket. */
export interface ArborTransport {
  call(method: ApiMethod, params: unknown): Promise<unknown>;
  onEvent(listener: (event: ApiEvent) => void): () => void;
}

/** What preload exposes on `window.arbor` (see preload/preload.ts). */
export interface ArborBridge {
  call(method: string, params: unknown): Promise<unknown>;
  onEvent(listener: (event: ApiEvent) => void): () => void;
}

declare global {
  interface Window {
    arbor?: ArborBridge;
  }
}

export function bridgeTransport(bridge: ArborBridge): ArborTransport {
  return { call: (m, p) => bridge.call(m, p), onEvent: (l) => bridge.onEvent(l) };
}

/**
 * The web host's transport: one WebSocket (authenticated by the HttpOnly cookie the host set when the
 * tokened URL was opened), request ids matched to replies, events fanned out; reconnects after a drop.
 */
export function webSocketTransport(url: string): ArborTransport {
  const listeners = new Set<(event: ApiEvent) => void>();
  const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  let nextId = 1;
  let socket: WebSocket | undefined;
  let ready: Promise<WebSocket> | undefined;
  const connect = (): Promise<WebSocket> => {
    ready ??= new Promise<WebSocket>((resolve, reject) => {
      const ws = new WebSocket(url);
      ws.onopen = () => {
        socket = ws;
        resolve(ws);
      };
      ws.onerror = () => reject(new Error('cannot reach the Arbor host'));
      ws.onclose = () => {
        for (const p of pending.values()) p.reject(new Error('connection to the Arbor host closed'));
        pending.clear();
        socket = undefined;
        ready = undefined;
      };
      ws.onmessage = (message) => {
        const frame = JSON.parse(String(message.data)) as WsServerFrame;
        if ('event' in frame) {
          for (const l of listeners) l(frame.event);
          return;
        }
        const p = pending.get(frame.id);
        if (!p) return;
        pending.delete(frame.id);
        if ('error' in frame) p.reject(new Error(frame.error));
        else p.resolve(frame.result);
      };
    });
    return ready;
  };
  return {
    async call(method, params) {
      const ws = socket ?? (await connect());
      const id = nextId++;
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve, reject });
        ws.send(JSON.stringify({ id, method, params }));
      });
    },
    onEvent(listener) {
      listeners.add(listener);
      void connect().catch(() => undefined);
      return () => listeners.delete(listener);
    },
  };
}
