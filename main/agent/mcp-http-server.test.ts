import { request } from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChannelEngine, EngineResult } from '../shell/channel-engine.ts';
import { Shell } from '../shell/shell.ts';
import { createArborMcpHttpServer } from './mcp-http-server.ts';
import type { ArborMcpHttpServer } from './mcp-http-server.ts';

/**
 * A unit-test double of a channel engine with no prover behind it (never used by the product): every
 * command fails and there is never a tree. These tests cover the HTTP transport, authentication and
 * argument validation, which answer before any prover work; the prover-backed behaviour of every tool
 * is tested against real coqidetop in mcp-coq.test.ts.
 */
class NoProverEngineDouble implements ChannelEngine {
  async execute(): Promise<EngineResult> {
    return { response: null, error: 'no goal' };
  }
  treeView(): undefined {
    return undefined;
  }
  status() {
    return { backend: 'coq' as const, busy: false, step: 0, finished: false };
  }
  async dispose(): Promise<void> {}
}

const TOKEN = 'test-token-0123456789abcdef';
const TOOLS = [
  'get_current_proof_state', 'get_proof_context', 'search_lemmas', 'look_up', 'get_edit_history', 'check_term_validity', 'suggest_proof_state_edit',
  'get_goal_structure', 'run_command', 'try_commands', 'get_script', 'get_transcript', 'get_suggestions', 'check_statement_fidelity',
];

function raw(url: string, headers: Record<string, string>, payload?: string | Buffer): Promise<number> {
  return new Promise((resolve, reject) => {
    const body = payload ?? JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } } });
    const req = request(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers } }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end(body);
  });
}

const text = (r: unknown): string => ((r as CallToolResult).content[0] as { text: string }).text;

describe('MCP over streamable HTTP: transport, token, Origin and argument checks', () => {
  let shell: Shell;
  let server: ArborMcpHttpServer;
  let client: Client;

  beforeAll(async () => {
    shell = new Shell({ createEngine: () => new NoProverEngineDouble() });
    server = await createArborMcpHttpServer({ shell, token: TOKEN, allowedOrigins: ['http://127.0.0.1:5173'] });
    client = new Client({ name: 'http-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers: { authorization: `Bearer ${TOKEN}` } } }));
  });
  afterAll(async () => {
    await client.close();
    await server.close();
    await shell.close();
  });

  it('listens on 127.0.0.1 and refuses requests without the token, from other origins or hosts', async () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    expect(await raw(server.url, {})).toBe(401);
    expect(await raw(server.url, { authorization: 'Bearer wrong-token-0123456789' })).toBe(401);
    expect(await raw(server.url, { authorization: `Bearer ${TOKEN}`, origin: 'http://evil.example' })).toBe(403);
    expect(await raw(server.url, { authorization: `Bearer ${TOKEN}`, host: 'evil.example' })).toBe(403);
    expect(await raw(server.url, { authorization: `Bearer ${TOKEN}`, origin: 'http://127.0.0.1:5173' })).toBe(200);
    expect(await raw(server.url.replace('/mcp', '/other'), { authorization: `Bearer ${TOKEN}` })).toBe(404);
    await expect(createArborMcpHttpServer({ shell, token: 'short' })).rejects.toThrow(/at least 16/);
  });

  it('answers huge, binary and malformed bodies with an error and keeps serving', async () => {
    const auth = { authorization: `Bearer ${TOKEN}` };
    expect(await raw(server.url, auth, Buffer.alloc(5 << 20, 0x7b))).toBe(413);
    expect(await raw(server.url, auth, Buffer.from([0xff, 0xfe, 0x00, 0x01]))).toBeGreaterThanOrEqual(400);
    expect(await raw(server.url, auth, '{"jsonrpc": "2.0", "id": 1, "method"')).toBeGreaterThanOrEqual(400);
    expect(text(await client.callTool({ name: 'get_current_proof_state', arguments: {} }))).toBeTruthy();
  });

  it('lists every tool with its input schema', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([...TOOLS].sort());
    const check = tools.find((t) => t.name === 'check_term_validity');
    expect(check?.inputSchema).toMatchObject({ type: 'object', properties: { term: { type: 'string' } }, required: ['term'] });
    const edit = tools.find((t) => t.name === 'suggest_proof_state_edit');
    expect(edit?.inputSchema.required).toEqual(['hypothesisName', 'originalValue', 'suggestedValue']);
  });

  it('answers bad arguments, injections and a missing proof with stable reason codes', async () => {
    const call = (name: string, args: Record<string, unknown>) => client.callTool({ name, arguments: args });
    const cases: [string, Record<string, unknown>, RegExp][] = [
      ['check_term_validity', {}, /^bad_argument: term: /],
      ['check_term_validity', { term: 42 }, /^bad_argument: term: /],
      ['check_term_validity', { term: 'True', extra: 1 }, /^bad_argument: /],
      ['get_proof_context', { linesBefore: -1 }, /^bad_argument: linesBefore: /],
      ['try_commands', { alternatives: [] }, /^bad_argument: alternatives: /],
      ['suggest_proof_state_edit', { hypothesisName: 'H', originalValue: 'a' }, /^bad_argument: suggestedValue: /],
      ['check_term_validity', { term: 'True). Redirect "/tmp/arbor-pwned" Print nat. (True' }, /^injection: parse error: /],
      ['run_command', { command: 'APPLY intros; simpl' }, /^bad_argument: exactly one command/],
      ['run_command', { command: '3 STATE' }, /^bad_argument: commands run on the session's channel/],
      ['run_command', { command: 'RELEASE_CHANNEL' }, /^bad_argument: RELEASE_CHANNEL is not allowed/],
      ['run_command', { command: 'FROBNICATE' }, /^parse_error: unknown command: FROBNICATE/],
      ['try_commands', { alternatives: [['GOAL "False"']] }, /^bad_argument: GOAL is not allowed/],
      ['run_command', { command: 'APPLY idtac. Redirect "/tmp/arbor-pwned" Print nat' }, /^injection: parse error: /],
      ['run_command', { command: 'APPLY Redirect "/tmp/arbor-pwned" Print nat' }, /^injection: parse error: term starts with a vernacular command/],
      ['try_commands', { alternatives: [['APPLY intros'], ['HAVE "True). Load \\"/etc/passwd\\". (True"']] }, /^injection: parse error: /],
      ['run_command', { command: 'GOAL "True (* open comment"' }, /^injection: parse error: term contains a comment/],
      ['get_current_proof_state', {}, /^no_goal: /],
      ['get_goal_structure', {}, /^no_goal: /],
      ['check_term_validity', { term: 'n + 0' }, /^no_goal: /],
      ['get_script', { format: 'arbor' }, /^no_goal: /],
      ['run_command', { command: 'END' }, /^no_goal: no goal/],
    ];
    for (const [name, args, expected] of cases) {
      const r = await call(name, args);
      expect(r.isError, `${name} ${JSON.stringify(args)}`).toBe(true);
      expect(text(r), `${name} ${JSON.stringify(args)}`).toMatch(expected);
    }
    expect(text(await call('get_edit_history', {}))).toBe('=== EDIT HISTORY (0 edits) ===\n\n(no edits yet)');
    expect(text(await call('get_transcript', {}))).toContain('"request":"0 END"');
  });
});

describe('MCP over HTTP: sessions are bounded', () => {
  it('refuses sessions beyond the cap and closes idle ones, making room again', async () => {
    const shell = new Shell({ createEngine: () => new NoProverEngineDouble() });
    const server = await createArborMcpHttpServer({ shell, token: TOKEN, maxSessions: 2, idleMs: 1200 });
    try {
      const auth = { authorization: `Bearer ${TOKEN}` };
      expect(await raw(server.url, auth)).toBe(200);
      expect(await raw(server.url, auth)).toBe(200);
      expect(server.sessionCount()).toBe(2);
      expect(await raw(server.url, auth)).toBe(503);
      // Nobody uses them: both expire, and a new client gets in.
      await expect.poll(() => server.sessionCount(), { timeout: 20_000, interval: 200 }).toBe(0);
      expect(await raw(server.url, auth)).toBe(200);
    } finally {
      await server.close();
      await shell.close();
    }
  }, 30_000);
});
