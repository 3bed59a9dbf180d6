import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Shell } from '../shell/shell.ts';
import { createProverEngineFactory, loadBackend } from '../supervisor/engine-factory.ts';
import type { EngineFactory } from '../supervisor/engine-factory.ts';
import { createArborMcpHttpServer } from './mcp-http-server.ts';
import type { ArborMcpHttpServer } from './mcp-http-server.ts';

/**
 * Issue 21 attack on the MCP HTTP server (real coqidetop behind it): chunked bodies past the limit, JSON
 * nested a million deep, non-objects, a wrong media type, a 5,000-message batch, a big body for an unknown
 * session. Each gets a 4xx; the server then still initializes a session.
 */
const TOKEN = 'attack-token-0123456789abcdef';
let factory: EngineFactory;
let shell: Shell;
let server: ArborMcpHttpServer;

beforeAll(async () => {
  factory = createProverEngineFactory(await loadBackend('coq'), { backend: 'coq', timeoutMs: 10_000, poolSize: 1 });
  shell = new Shell({ createEngine: (ch, prelude) => factory.createEngine(ch, prelude) });
  server = await createArborMcpHttpServer({ shell, token: TOKEN });
}, 60_000);

afterAll(async () => {
  await server.close();
  await shell.close();
});

/** POSTs `body` (in 64 KiB chunks, no length, when `chunked`); resolves with the status or the error. */
function post(body: Buffer | string, headers: Record<string, string> = {}, chunked = false): Promise<string> {
  return new Promise((resolve) => {
    const req = request(server.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${TOKEN}`, ...headers },
    }, (res) => {
      res.resume();
      res.on('end', () => resolve(String(res.statusCode)));
    });
    req.on('error', (e) => resolve(`error ${e.message}`));
    if (!chunked) return void req.end(body);
    const b = Buffer.from(body);
    for (let i = 0; i < b.length; i += 65536) req.write(b.subarray(i, i + 65536));
    req.end();
  });
}

/** POSTs `body`; resolves with the status and the answer's text. */
function postForBody(body: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(server.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${TOKEN}` },
    }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => { text += c; });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const initialize = (id: number): object => ({ jsonrpc: '2.0', id, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } } });

describe('MCP HTTP server under attack', () => {
  it('answers each bad body with a 4xx and keeps serving', async () => {
    expect(await post(Buffer.alloc(6 << 20, 0x20), {}, true)).toBe('413');
    expect(await post('{"a":'.repeat(600_000) + '1' + '}'.repeat(600_000))).toMatch(/^4\d\d$/);
    expect(await post('null')).toBe('400');
    expect(await post('"\u0000\uffff"')).toBe('400');
    expect(await post(JSON.stringify(initialize(1)), { 'content-type': 'application/octet-stream' })).toBe('415');
    expect(await post(JSON.stringify(Array.from({ length: 5000 }, (_, i) => initialize(i))))).toBe('400');
    expect(await post(Buffer.alloc(5 << 20, 0x7b), { 'mcp-session-id': 'nope' })).toBe('404');
    expect(server.sessionCount()).toBe(0);
    expect(await post(JSON.stringify(initialize(1)))).toBe('200');
    expect(server.sessionCount()).toBe(1);
  }, 60_000);

  // The SDK's validation used to reset the connection on this (no answer at all); Arbor now reads and judges
  // the body first: a JSON-RPC error, and the server goes on serving.
  it('answers JSON nested a million deep with a JSON-RPC error and keeps serving', async () => {
    const answer = await postForBody('['.repeat(1_900_000) + ']'.repeat(1_900_000));
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body)).toMatchObject({ jsonrpc: '2.0', error: { code: -32600, message: expect.stringMatching(/nested deeper than/) }, id: null });
    // Inside strings, brackets are text: a deep-looking string is fine JSON and reaches the SDK.
    expect(await post(JSON.stringify({ ...initialize(7), params: { ...(initialize(7) as { params: object }).params, clientInfo: { name: '['.repeat(10_000), version: '0' } } }))).toBe('200');
    expect(await post(JSON.stringify(initialize(2)))).toBe('200');
  }, 60_000);
});
