import { createHash, randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { Shell } from '../shell/shell.ts';
import { AgentSession } from './agent-session.ts';
import type { AgentSessionOptions } from './agent-session.ts';
import { inProcessPort } from './in-process-port.ts';
import { readJsonBody } from './json-body.ts';
import { createArborMcpServer } from './mcp-server.ts';
import type { SessionRef, ToolOptions } from './mcp-tools.ts';
import type { SuggestionSource } from './sources/suggestion-source.ts';

export interface McpHttpHandlerOptions {
  /** The shared session, or a lookup per tool call (the workbench's session follows the active editor). */
  session: AgentSession | SessionRef;
  /** Every request must carry `Authorization: Bearer TOKEN`. */
  token: string;
  /** Browser origins allowed to call (exact match). A request without `Origin` (any non-browser MCP client) passes. */
  allowedOrigins?: readonly string[];
  /** Accepted `Host` headers (DNS-rebinding defence); undefined when the mounting server checks them itself. */
  allowedHosts?: readonly string[];
  sources?: readonly SuggestionSource[];
  project?: ToolOptions['project'];
  /** MCP sessions open at once at most (default 32): a new initialize beyond answers 503. */
  maxSessions?: number;
  /** A session no request has used for this long is closed (default 30 minutes). */
  idleMs?: number;
}

export const DEFAULT_MCP_MAX_SESSIONS = 32;
export const DEFAULT_MCP_IDLE_MS = 30 * 60_000;

export interface McpHttpHandler {
  /** Serves one HTTP request of the MCP streamable-HTTP transport (mount it at a path such as `/mcp`). */
  handle(req: IncomingMessage, res: ServerResponse): Promise<void>;
  /** MCP sessions (connected clients) open now. */
  sessionCount(): number;
  close(): Promise<void>;
}

/**
 * The MCP streamable-HTTP transport for a shared agent session: one MCP server per client session (so
 * each client's name tags its suggestions), all on the same proof. Requests must carry the bearer token
 * and, from a browser, an allowed Origin.
 */
export function createArborMcpHttpHandler(options: McpHttpHandlerOptions): McpHttpHandler {
  if (options.token.length < 16) throw new Error('the MCP token must be at least 16 characters');
  const expected = digest(`Bearer ${options.token}`);
  const transports = new Map<string, StreamableHTTPServerTransport>();
  const lastUsed = new Map<string, number>();
  const maxSessions = options.maxSessions ?? DEFAULT_MCP_MAX_SESSIONS;
  const idleMs = options.idleMs ?? DEFAULT_MCP_IDLE_MS;
  // Sessions are kept for clients that come back, but not forever: idle ones are closed.
  const sweep = setInterval(() => {
    const now = Date.now();
    for (const [id, at] of lastUsed) {
      if (now - at < idleMs) continue;
      const t = transports.get(id);
      transports.delete(id);
      lastUsed.delete(id);
      void t?.close();
    }
  }, Math.max(1000, Math.min(60_000, Math.floor(idleMs / 4))));
  sweep.unref();
  const refuse = (res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}): void => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
  };
  /** A POST's body, read and judged here (depth, size) before the SDK sees it; undefined when refused (answered). */
  const body = async (req: IncomingMessage, res: ServerResponse): Promise<{ value: unknown } | undefined> => {
    if (req.method !== 'POST') return { value: undefined };
    const read = await readJsonBody(req);
    if (read.ok) return { value: read.value };
    res.writeHead(read.status, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: read.code, message: read.message }, id: null }));
    return undefined;
  };
  return {
    async handle(req, res) {
      const host = req.headers.host ?? '';
      if (options.allowedHosts && !options.allowedHosts.includes(host)) return refuse(res, 403, 'forbidden host');
      const origin = req.headers.origin;
      if (origin !== undefined && !(options.allowedOrigins ?? []).includes(origin)) return refuse(res, 403, 'forbidden origin');
      const auth = req.headers.authorization ?? '';
      if (!timingSafeEqual(digest(auth), expected)) return refuse(res, 401, 'missing or wrong bearer token', { 'www-authenticate': 'Bearer' });
      const sessionId = req.headers['mcp-session-id'];
      if (typeof sessionId === 'string') {
        const transport = transports.get(sessionId);
        if (!transport) return refuse(res, 404, 'unknown MCP session (closed after being idle, or never opened)');
        lastUsed.set(sessionId, Date.now());
        const b = await body(req, res);
        if (!b) return;
        return transport.handleRequest(req, res, b.value);
      }
      if (req.method !== 'POST') return refuse(res, 400, 'no MCP session: initialize with POST first');
      if (transports.size >= maxSessions) return refuse(res, 503, `too many MCP sessions (limit ${maxSessions}); close one (DELETE) or wait for idle ones to expire`, { 'retry-after': '60' });
      const b = await body(req, res);
      if (!b) return;
      const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => {
          transports.set(id, transport);
          lastUsed.set(id, Date.now());
        },
      });
      transport.onclose = () => {
        if (transport.sessionId !== undefined) {
          transports.delete(transport.sessionId);
          lastUsed.delete(transport.sessionId);
        }
      };
      const server = createArborMcpServer(options.session, { ...(options.sources ? { sources: options.sources } : {}), ...(options.project ? { project: options.project } : {}) });
      await server.connect(transport);
      await transport.handleRequest(req, res, b.value);
      // Anything but a successful initialize leaves no session behind.
      if (transport.sessionId === undefined || !transports.has(transport.sessionId)) await server.close();
    },
    sessionCount: () => transports.size,
    async close() {
      clearInterval(sweep);
      const all = [...transports.values()];
      transports.clear();
      lastUsed.clear();
      await Promise.all(all.map((t) => t.close()));
    },
  };
}

export interface ArborMcpHttpServerOptions {
  /** The shell to serve (the workbench's own, or one `arbor-mcp --http` started). */
  shell: Shell;
  token: string;
  /** Port on 127.0.0.1 (default 0: any free port). */
  port?: number;
  /** Path of the MCP endpoint (default `/mcp`). */
  path?: string;
  allowedOrigins?: readonly string[];
  /** An existing session, or a lookup per call (the workbench's, which follows its active editor); otherwise one is made. */
  session?: AgentSession | SessionRef;
  sessionOptions?: Omit<AgentSessionOptions, 'port'>;
  sources?: readonly SuggestionSource[];
  project?: ToolOptions['project'];
  /** See McpHttpHandlerOptions. */
  maxSessions?: number;
  idleMs?: number;
}

export interface ArborMcpHttpServer {
  url: string;
  port: number;
  session: AgentSession;
  /** MCP sessions (connected clients) open now. */
  sessionCount(): number;
  close(): Promise<void>;
}

/** Listens on 127.0.0.1 only and serves the MCP endpoint; everything else is 404. */
export async function createArborMcpHttpServer(options: ArborMcpHttpServerOptions): Promise<ArborMcpHttpServer> {
  const given = options.session;
  const own = given === undefined ? new AgentSession({ ...options.sessionOptions, port: inProcessPort(options.shell) }) : undefined;
  const session: SessionRef = typeof given === 'function' ? given : () => given ?? (own as AgentSession);
  const path = options.path ?? '/mcp';
  const hosts: string[] = [];
  const handler = createArborMcpHttpHandler({
    session,
    token: options.token,
    allowedHosts: hosts,
    ...(options.allowedOrigins ? { allowedOrigins: options.allowedOrigins } : {}),
    ...(options.sources ? { sources: options.sources } : {}),
    ...(options.project ? { project: options.project } : {}),
    ...(options.maxSessions !== undefined ? { maxSessions: options.maxSessions } : {}),
    ...(options.idleMs !== undefined ? { idleMs: options.idleMs } : {}),
  });
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname !== path) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    handler.handle(req, res).catch((err: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(`internal error: ${err instanceof Error ? err.message : String(err)}`);
    });
  });
  // A client that breaks its connection mid-request must not take the server with it.
  server.on('clientError', (_err, socket) => socket.destroy());
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  hosts.push(`127.0.0.1:${port}`, `localhost:${port}`);
  return {
    url: `http://127.0.0.1:${port}${path}`,
    port,
    get session() {
      return session();
    },
    sessionCount: () => handler.sessionCount(),
    async close() {
      await handler.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await own?.close();
    },
  };
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}
