import { Agent, createServer, request } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH, jsonDepthOver, readJsonBody } from './json-body.ts';

/**
 * The MCP HTTP body reader (json-body.ts) attacked over a real socket: nesting hidden in or around strings,
 * brackets that close before they open, bad UTF-8, chunked bodies past the limit, a Content-Length that
 * lies, a kept-alive connection after a refusal, a client that stops mid-body. Each gets its answer and the
 * server goes on answering. All held when written.
 */
let server: Server;
let url: string;
const SMALL = 1024;

beforeAll(async () => {
  server = createServer((req, res) => {
    void readJsonBody(req, SMALL).then((r) => {
      res.writeHead(r.ok ? 200 : r.status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(r.ok ? { ok: true } : { code: r.code }));
    }, () => res.destroy()); // a client gone mid-body: readJsonBody rejects (mcp-http-server catches the same way)
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

function post(body: Buffer | string, options: { chunked?: boolean; agent?: Agent; headers?: Record<string, string> } = {}): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', agent: options.agent, headers: { 'content-type': 'application/json', ...(options.headers ?? {}) } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => { text += c; });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on('error', reject);
    if (!options.chunked) return void req.end(body);
    const b = Buffer.from(body);
    for (let i = 0; i < b.length; i += 100) req.write(b.subarray(i, i + 100));
    req.end();
  });
}

describe('jsonDepthOver: nesting is counted outside strings only', () => {
  const nest = (n: number, inner = '0'): string => '['.repeat(n) + inner + ']'.repeat(n);
  it('brackets inside strings (with escaped quotes and backslashes) do not count; real ones do', () => {
    expect(jsonDepthOver(JSON.stringify({ s: '['.repeat(10_000) }), MAX_JSON_DEPTH)).toBe(false);
    expect(jsonDepthOver(JSON.stringify({ s: '\\"' + '['.repeat(1000) + '\\' }), MAX_JSON_DEPTH)).toBe(false);
    // A string ending in an escaped backslash must end there: the brackets after it are real.
    expect(jsonDepthOver(`["\\\\",${nest(MAX_JSON_DEPTH + 5)}]`, MAX_JSON_DEPTH)).toBe(true);
    expect(jsonDepthOver(nest(MAX_JSON_DEPTH), MAX_JSON_DEPTH)).toBe(false);
    expect(jsonDepthOver(nest(MAX_JSON_DEPTH + 1), MAX_JSON_DEPTH)).toBe(true);
  });
  it('closing brackets first cannot buy depth: such text is not JSON and is refused by the parser', async () => {
    const sneaky = ']'.repeat(200) + '['.repeat(300) + ']'.repeat(300);
    const r = await post(sneaky);
    expect(r.status).toBe(400);
  });
});

describe('readJsonBody over a socket', () => {
  it('bad UTF-8 is a parse error or a value, never a crash', async () => {
    const bad = Buffer.concat([Buffer.from('{"a":"'), Buffer.from([0xff, 0xfe, 0xc0, 0x80, 0xed, 0xa0, 0x80]), Buffer.from('"}')]);
    expect([200, 400]).toContain((await post(bad)).status);
    expect((await post(Buffer.from([0xef, 0xbb, 0xbf, 0x7b, 0x7d]))).status).toBe(400); // a BOM before {}
    expect((await post('{}')).status).toBe(200);
  });
  it('chunked past the limit is 413; the same kept-alive connection then serves the next request', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const big = JSON.stringify({ s: 'x'.repeat(SMALL * 4) });
      expect((await post(big, { chunked: true, agent })).status).toBe(413);
      expect((await post('{"ok":1}', { agent })).status).toBe(200);
      expect((await post(big, { agent })).status).toBe(413); // with a Content-Length
      expect((await post('{"ok":2}', { agent })).status).toBe(200);
    } finally {
      agent.destroy();
    }
  });
  it('a Content-Length that lies (bigger than sent, then the connection ends) leaves the server serving', async () => {
    await new Promise<void>((resolve) => {
      const s = connect((server.address() as AddressInfo).port, '127.0.0.1', () => {
        s.end('POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 500\r\n\r\n{"a":');
      });
      s.on('close', () => resolve());
      s.on('error', () => resolve());
      s.resume();
    });
    expect((await post('{}')).status).toBe(200);
  });
  it('a Content-Length over the limit is refused before the body is read', async () => {
    const r = await new Promise<string>((resolve) => {
      const s = connect((server.address() as AddressInfo).port, '127.0.0.1', () => {
        s.write(`POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${SMALL * 1000}\r\n\r\n`);
      });
      let got = '';
      s.setEncoding('utf8');
      s.on('data', (d: string) => {
        got += d;
        if (got.includes('\r\n\r\n')) {
          s.destroy();
          resolve(got.split('\r\n')[0] ?? '');
        }
      });
    });
    expect(r).toMatch(/ 413 /);
  });
  it('a client that stops mid-chunk and disconnects does not stop the server', async () => {
    await new Promise<void>((resolve) => {
      const s = connect((server.address() as AddressInfo).port, '127.0.0.1', () => {
        s.write('POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n{"a":\r\nzz\r\n', () => s.destroy());
      });
      s.on('close', () => resolve());
      s.on('error', () => resolve());
    });
    expect((await post('{"after":true}')).status).toBe(200);
  });
});
