import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { WebSocketServer } from 'ws';
import type { WebSocket } from 'ws';
import { wsClientFrame } from '../../shared/api/api-contract.ts';
import type { WsServerFrame } from '../../shared/api/api-contract.ts';
import type { ApiService } from './api-service.ts';
import { ChannelOwnership } from './channel-ownership.ts';
import type { ApiCaller } from './fork-access.ts';
import { SECURITY_HEADERS } from './csp.ts';

export interface WebHostOptions {
  service: ApiService;
  /** The renderer's build output (vite build). */
  staticDir: string;
  /** 0 picks a free port. */
  port?: number;
  /** Fixed token (tests); default: 32 random bytes. */
  token?: string;
}

export interface WebHost {
  /** The URL to open, with the token. */
  url: string;
  origin: string;
  port: number;
  token: string;
  close(): Promise<void>;
}

const COOKIE = 'arbor_token';

/**
 * The largest frame a client may send: a whole document (`text` is at most 16 MiB of characters) after
 * JSON escaping. Past it `ws` closes that socket with 1009; the host and every other client go on.
 */
export const WS_MAX_PAYLOAD = 32 << 20;

/**
 * The most a client may leave unread (answers and events queued for it). A client that stops reading (a
 * frozen tab, a stopped process) would otherwise make the host hold every later event for it, without end.
 */
export const WS_MAX_BACKLOG = 2 * WS_MAX_PAYLOAD;

/** WebSocket close codes the host uses (RFC 6455 §7.4.1). */
export const WS_CLOSE = { tooBig: 1009, invalidPayload: 1007, policy: 1008 } as const;
const MIME: Record<string, string> = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8', '.json': 'application/json', '.svg': 'image/svg+xml', '.png': 'image/png',
  '.ttf': 'font/ttf', '.woff': 'font/woff', '.woff2': 'font/woff2', '.ico': 'image/x-icon', '.map': 'application/json',
};

/**
 * The web host: the renderer build and the workbench API over a WebSocket, on 127.0.0.1 only. Every
 * request needs the token (from the printed URL once, then an HttpOnly same-site cookie); the WebSocket
 * also needs our own Origin, and every request our own Host (no DNS rebinding). Nothing else is served.
 */
export async function startWebHost(options: WebHostOptions): Promise<WebHost> {
  const token = options.token ?? randomBytes(32).toString('hex');
  const staticDir = resolve(options.staticDir);
  const wss = new WebSocketServer({ noServer: true, maxPayload: WS_MAX_PAYLOAD });
  const clients = new Set<WebSocket>();
  let sockets = 0;
  let port = 0;
  const origins = (): string[] => [`http://127.0.0.1:${port}`, `http://localhost:${port}`];
  const hostOk = (req: IncomingMessage): boolean => req.headers.host === `127.0.0.1:${port}` || req.headers.host === `localhost:${port}`;
  const tokenOk = (candidate: string | undefined): boolean => {
    if (!candidate) return false;
    const a = Buffer.from(candidate);
    const b = Buffer.from(token);
    return a.length === b.length && timingSafeEqual(a, b);
  };
  const cookieToken = (req: IncomingMessage): string | undefined =>
    (req.headers.cookie ?? '').split(';').map((c) => c.trim().split('=')).find(([k]) => k === COOKIE)?.[1];

  const server = createServer((req, res) => {
    void serve(req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });

  async function serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (!hostOk(req)) return deny(res, 421, 'wrong host');
    if (req.method !== 'GET' && req.method !== 'HEAD') return deny(res, 405, 'method not allowed');
    const url = new URL(req.url ?? '/', `http://127.0.0.1:${port}`);
    const queryToken = url.searchParams.get('token') ?? undefined;
    if (queryToken !== undefined) {
      if (!tokenOk(queryToken)) return deny(res, 403, 'bad token');
      // Trade the token in the URL for a cookie and drop it from the address bar (and history).
      url.searchParams.delete('token');
      res.writeHead(303, {
        ...SECURITY_HEADERS,
        'Set-Cookie': `${COOKIE}=${token}; HttpOnly; SameSite=Strict; Path=/`,
        Location: `${url.pathname}${url.search}`,
      });
      res.end();
      return;
    }
    if (!tokenOk(cookieToken(req))) return deny(res, 403, 'Open the URL that `npm run web` printed (it carries the access token).');
    const rel = decodeURIComponent(url.pathname === '/' ? '/index.html' : url.pathname);
    const file = normalize(join(staticDir, rel));
    if (file !== staticDir && !file.startsWith(staticDir + sep)) return deny(res, 404, 'not found');
    const info = await stat(file).catch(() => undefined);
    if (!info?.isFile()) return deny(res, 404, 'not found');
    res.writeHead(200, {
      ...SECURITY_HEADERS,
      'Content-Type': MIME[extname(file)] ?? 'application/octet-stream',
      'Content-Length': info.size,
      'Cache-Control': rel === '/index.html' ? 'no-store' : 'private, max-age=3600',
    });
    if (req.method === 'HEAD') res.end();
    else createReadStream(file).pipe(res);
  }

  // A client that breaks its connection mid-request must not take the host with it.
  server.on('clientError', (_err, socket) => socket.destroy());

  server.on('upgrade', (req, socket, head) => {
    // Node drops its own 'error' listener on upgraded sockets; a reset before `ws` adopts it would throw.
    socket.on('error', () => socket.destroy());
    const url = new URL(req.url ?? '/', `http://127.0.0.1:${port}`);
    const ok = hostOk(req) && url.pathname === '/api' && origins().includes(req.headers.origin ?? '') &&
      (tokenOk(cookieToken(req)) || tokenOk(url.searchParams.get('token') ?? undefined));
    if (!ok) {
      socket.write('HTTP/1.1 403 Forbidden\r\nConnection: close\r\n\r\n');
      socket.destroy();
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      const ownership = new ChannelOwnership();
      const caller: ApiCaller = { id: `ws-${++sockets}`, owns: (channel) => ownership.owns(channel) };
      clients.add(ws);
      ws.on('close', () => {
        clients.delete(ws);
        void ownership.releaseAll(options.service);
      });
      // Without an 'error' listener one malformed frame (invalid UTF-8, over WS_MAX_PAYLOAD) throws in
      // the host and ends every document. With one, `ws` itself closes just this socket (1007, 1009)
      // and its close timer ends a client that never answers; nothing else to do here.
      ws.on('error', ignoreSocketError);
      ws.on('message', (data, isBinary) => {
        if (isBinary) {
          ws.close(WS_CLOSE.policy, 'binary frames are not accepted: send JSON text');
          return;
        }
        void handleFrame(ws, data.toString(), ownership, caller).catch(() => ws.close(WS_CLOSE.policy, 'internal error'));
      });
    });
  });

  async function handleFrame(ws: WebSocket, raw: string, ownership: ChannelOwnership, caller: ApiCaller): Promise<void> {
    let frame;
    try {
      frame = wsClientFrame.parse(JSON.parse(raw));
    } catch {
      ws.close(WS_CLOSE.policy, 'bad frame: expected JSON {id, method, params}');
      return;
    }
    let reply: WsServerFrame;
    try {
      const result = await options.service.call(frame.method, frame.params, caller);
      ownership.observe(frame.method, frame.params, result);
      // The client left while this call ran: what it just opened (a channel, a document) is released now,
      // since its 'close' handler has already run.
      if (ws.readyState === ws.CLOSED) void ownership.releaseAll(options.service);
      reply = { id: frame.id, result };
    } catch (err) {
      reply = { id: frame.id, error: err instanceof Error ? err.message : String(err) };
    }
    sendTo(ws, JSON.stringify(reply));
  }

  /** Sends unless the client has stopped reading: past WS_MAX_BACKLOG unread it is cut off (its 'close' cleans up). */
  function sendTo(ws: WebSocket, text: string): void {
    if (ws.readyState !== ws.OPEN) return;
    if (ws.bufferedAmount > WS_MAX_BACKLOG) {
      ws.terminate();
      return;
    }
    ws.send(text, ignoreSendError);
  }

  const unsubscribe = options.service.onEvent((event) => {
    const text = JSON.stringify({ event } satisfies WsServerFrame);
    for (const ws of clients) sendTo(ws, text);
  });

  await new Promise<void>((resolveListen, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolveListen());
  });
  port = (server.address() as AddressInfo).port;
  const origin = `http://127.0.0.1:${port}`;
  return {
    url: `${origin}/?token=${token}`,
    origin,
    port,
    token,
    close: async () => {
      unsubscribe();
      for (const ws of clients) ws.terminate();
      wss.close();
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

/** A send to a socket that is closing fails; its 'close' handler already cleans up. */
function ignoreSendError(): void {}

/** See the 'error' listener above: `ws` has already closed the socket with the right code. */
function ignoreSocketError(): void {}

function deny(res: ServerResponse, status: number, message: string): void {
  res.writeHead(status, { ...SECURITY_HEADERS, 'Content-Type': 'text/plain; charset=utf-8' });
  res.end(`${message}\n`);
}
