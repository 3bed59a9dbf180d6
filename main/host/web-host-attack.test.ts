import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { connect as tcpConnect } from 'node:net';
import type { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { startWebWorkbench } from './web-workbench.ts';
import type { WebWorkbench } from './web-workbench.ts';
import { WS_MAX_BACKLOG, WS_MAX_PAYLOAD } from './web-host.ts';

/**
 * Attacks on the web host's socket (issue 21, "nothing crashes the host"), against the real workbench
 * (real coqidetop): raw malformed frames, clients that vanish mid-call or never read, floods, many
 * connections, slow handshakes, Origin/Host/token tricks. After each, other clients are still served.
 */
let dir: string;
let wb: WebWorkbench;
let port: number;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'arbor-attack-'));
  wb = await startWebWorkbench({ backend: 'coq', workspace: join(dir, 'work'), userDir: join(dir, 'user'), build: false, timeoutMs: 20_000 });
  port = Number(new URL(wb.origin).port);
}, 60_000);

afterAll(async () => {
  await wb?.close();
  await rm(dir, { recursive: true, force: true });
});

function open(origin = wb.origin, query = `?token=${wb.token}`): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const sock = new WebSocket(`ws://127.0.0.1:${port}/api${query}`, { origin });
    sock.once('open', () => resolve(sock));
    sock.once('error', reject);
    sock.once('unexpected-response', (_req, res) => reject(new Error(`status ${res.statusCode}`)));
  });
}

let nextId = 1;
function call(sock: WebSocket, method: string, params: unknown): Promise<{ result?: unknown; error?: string }> {
  const id = nextId++;
  return new Promise((resolve) => {
    const onMessage = (data: Buffer): void => {
      const frame = JSON.parse(data.toString()) as { id?: number; result?: unknown; error?: string };
      if (frame.id !== id) return;
      sock.off('message', onMessage);
      resolve(frame);
    };
    sock.on('message', onMessage);
    sock.send(JSON.stringify({ id, method, params }));
  });
}

const channelIds = async (sock: WebSocket): Promise<number[]> =>
  ((await call(sock, 'shell.channels', {})).result as { id: number }[]).map((c) => c.id);

/** A raw TCP client that has done the WebSocket handshake (or tried to): frames are written by hand. */
interface RawClient {
  socket: Socket;
  /** The HTTP status line of the handshake's answer. */
  status: string;
  /** Resolves with the close code of the first close frame the host sends (or -1 when the TCP connection just ends). */
  closeCode: Promise<number>;
  /** Bytes received after the handshake. */
  received(): number;
}

function rawConnect(headers: Record<string, string> = {}, path = `/api?token=${wb.token}`, pause = false): Promise<RawClient> {
  return new Promise((resolve, reject) => {
    const socket = tcpConnect(port, '127.0.0.1');
    socket.on('error', () => undefined);
    let buf = Buffer.alloc(0);
    let status: string | undefined;
    let bytes = 0;
    let settleClose: (code: number) => void = () => undefined;
    const closeCode = new Promise<number>((r) => (settleClose = r));
    socket.on('close', () => {
      settleClose(-1);
      if (status === undefined) reject(new Error('closed before the handshake answer'));
    });
    socket.on('data', (chunk: Buffer) => {
      if (status !== undefined) {
        bytes += chunk.length;
        if (pause) return;
      }
      buf = Buffer.concat([buf, chunk]);
      if (status === undefined) {
        const end = buf.indexOf('\r\n\r\n');
        if (end < 0) return;
        status = buf.subarray(0, buf.indexOf('\r\n')).toString();
        buf = buf.subarray(end + 4);
        resolve({ socket, status, closeCode, received: () => bytes });
      }
      // Server frames are unmasked: walk them looking for a close frame.
      for (;;) {
        if (buf.length < 2) return;
        let len = (buf[1] as number) & 0x7f;
        let off = 2;
        if (len === 126) {
          if (buf.length < 4) return;
          len = buf.readUInt16BE(2);
          off = 4;
        } else if (len === 127) {
          if (buf.length < 10) return;
          len = Number(buf.readBigUInt64BE(2));
          off = 10;
        }
        if (buf.length < off + len) return;
        const opcode = (buf[0] as number) & 0x0f;
        if (opcode === 8) settleClose(len >= 2 ? buf.readUInt16BE(off) : 1005);
        buf = buf.subarray(off + len);
      }
    });
    const key = randomBytes(16).toString('base64');
    const lines = [
      `GET ${path} HTTP/1.1`, `Host: 127.0.0.1:${port}`, 'Upgrade: websocket', 'Connection: Upgrade',
      `Sec-WebSocket-Key: ${key}`, 'Sec-WebSocket-Version: 13', `Origin: ${wb.origin}`,
      ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
    ];
    // A header given as '' removes the default of that name.
    const unique = new Map<string, string>();
    for (const l of lines.slice(1)) unique.set(l.slice(0, l.indexOf(':')).toLowerCase(), l);
    const out = [lines[0], ...[...unique.values()].filter((l) => !/:\s*$/.test(l))];
    socket.write(`${out.join('\r\n')}\r\n\r\n`);
  });
}

/** One client frame: masked unless told otherwise. */
function frame(opcode: number, payload: Buffer | string, options: { fin?: boolean; mask?: boolean; rsv1?: boolean } = {}): Buffer {
  const data = typeof payload === 'string' ? Buffer.from(payload) : payload;
  const fin = options.fin ?? true;
  const mask = options.mask ?? true;
  const head: number[] = [(fin ? 0x80 : 0) | (options.rsv1 ? 0x40 : 0) | opcode];
  const m = mask ? 0x80 : 0;
  if (data.length < 126) head.push(m | data.length);
  else if (data.length < 65536) head.push(m | 126, data.length >> 8, data.length & 0xff);
  else {
    const b = Buffer.alloc(8);
    b.writeBigUInt64BE(BigInt(data.length));
    head.push(m | 127, ...b);
  }
  if (!mask) return Buffer.concat([Buffer.from(head), data]);
  const key = randomBytes(4);
  const masked = Buffer.from(data);
  for (let i = 0; i < masked.length; i++) masked[i] = (masked[i] as number) ^ (key[i % 4] as number);
  return Buffer.concat([Buffer.from(head), key, masked]);
}

const TEXT = 1;
const CONT = 0;
const BINARY = 2;
const CLOSE = 8;
const PING = 9;

async function servedStill(): Promise<void> {
  const late = await open();
  expect((await call(late, 'app.info', {})).result).toMatchObject({ host: 'web' });
  late.close();
}

describe('web host under attack (real coqidetop)', () => {
  it('a client that goes away before its NEW_CHANNEL answer leaves no channel (prover) behind', async () => {
    const watcher = await open();
    const before = await channelIds(watcher);
    const a = await open();
    const first = await call(a, 'shell.submit', { line: 'NEW_CHANNEL' });
    const c = ((first.result as { RESPONSE: { ID: number } }[])[0] as { RESPONSE: { ID: number } }).RESPONSE.ID;
    // The GOAL starts coqidetop (slow); the NEW_CHANNEL beside it is answered with it, after the client left.
    const created = new Promise<void>((resolve) => watcher.on('message', (d: Buffer) => {
      const f = JSON.parse(d.toString()) as { event?: { kind: string; response?: { RESPONSE?: unknown } } };
      if (f.event?.kind === 'response' && (f.event.response?.RESPONSE as { ID?: number } | null)?.ID !== undefined) resolve();
    }));
    a.send(JSON.stringify({ id: 2, method: 'shell.submit', params: { line: `${c} GOAL "True"; NEW_CHANNEL` } }), () => a.close());
    await created;
    await expect.poll(() => channelIds(watcher), { timeout: 60_000, interval: 200 }).toEqual(before);
    watcher.close();
  }, 90_000);

  it('a client that never reads is cut off once its backlog passes WS_MAX_BACKLOG; the others go on', async () => {
    const sleeper = await rawConnect({}, undefined, true);
    expect(sleeper.status).toMatch(/^HTTP\/1\.1 101/);
    sleeper.socket.pause();
    const worker = await open();
    let seen = 0;
    worker.on('message', (d: Buffer) => {
      if (d.length > 1_000_000 && d.subarray(0, 40).toString().includes('"request"')) seen++;
    });
    // Every request is broadcast to every client as an event: 1 MB each, to a client that does not read.
    const line = 'x'.repeat(1_000_000);
    const n = Math.ceil((WS_MAX_BACKLOG * 1.5) / 1_000_000);
    for (let i = 0; i < n; i++) await call(worker, 'shell.submit', { line });
    await expect.poll(() => seen, { timeout: 60_000 }).toBe(n);
    sleeper.socket.resume();
    // Cut off: it gets at most the backlog (plus what the kernel held) and then the end, not all n MB.
    const ended = await Promise.race([sleeper.closeCode.then(() => 'closed'), new Promise<string>((r) => {
      const t = setInterval(() => { if (sleeper.received() >= n * 1_000_000) { clearInterval(t); r('got everything'); } }, 50);
      void sleeper.closeCode.then(() => clearInterval(t));
    })]);
    expect(ended).toBe('closed');
    expect(sleeper.received()).toBeLessThan(n * 1_000_000);
    expect((await call(worker, 'app.info', {})).result).toMatchObject({ host: 'web' });
    worker.close();
  }, 120_000);

  it('malformed raw frames close only that socket with the right code', async () => {
    const cases: [string, Buffer[], number][] = [
      ['unmasked client frame', [frame(TEXT, '{}', { mask: false })], 1002],
      ['RSV1 without an extension', [frame(TEXT, '{}', { rsv1: true })], 1002],
      ['unknown opcode 3', [frame(3, 'x')], 1002],
      ['continuation with no message', [frame(CONT, 'x')], 1002],
      ['new text frame inside a fragmented one', [frame(TEXT, '{"id"', { fin: false }), frame(TEXT, ':1}')], 1002],
      ['ping over 125 bytes', [frame(PING, Buffer.alloc(126))], 1002],
      ['fragmented ping', [frame(PING, 'x', { fin: false })], 1002],
      ['close code 999', [frame(CLOSE, Buffer.from([0x03, 0xe7]))], 1002],
      ['close reason not UTF-8', [frame(CLOSE, Buffer.from([0x03, 0xe8, 0xff, 0xfe]))], 1007],
      ['invalid UTF-8 split across fragments', [frame(TEXT, Buffer.from([0x22, 0xe2]), { fin: false }), frame(CONT, Buffer.from([0x28, 0xa1, 0x22]))], 1007],
      ['binary in fragments', [frame(BINARY, 'ab', { fin: false }), frame(CONT, 'cd')], 1008],
      ['fragments that add up past 32 MiB', [frame(TEXT, Buffer.alloc(WS_MAX_PAYLOAD / 2, 0x20), { fin: false }), frame(CONT, Buffer.alloc(WS_MAX_PAYLOAD / 2 + 1, 0x20))], 1009],
      ['a length field of 2^63 - 1', [Buffer.from([0x81, 0xff, 0x7f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff])], 1009],
      ['JSON null', [frame(TEXT, 'null')], 1008],
    ];
    const other = await open();
    for (const [name, frames, code] of cases) {
      const raw = await rawConnect();
      expect(raw.status, name).toMatch(/^HTTP\/1\.1 101/);
      for (const f of frames) raw.socket.write(f);
      expect(await raw.closeCode, name).toBe(code);
      raw.socket.destroy();
    }
    // Valid after all: a text message in three fragments with a ping between, a UTF-8 character split across them.
    const raw = await rawConnect();
    const body = Buffer.from(JSON.stringify({ id: 7, method: 'proof.lookUp', params: { kind: 'check', text: 'fun (α : nat) => α' } }));
    const cut = body.indexOf(Buffer.from('α')) + 1;
    const answered = new Promise<string>((resolve) => {
      let text = '';
      raw.socket.on('data', (d: Buffer) => {
        text += d.toString('latin1');
        if (text.includes('"id":7')) resolve(text);
      });
    });
    raw.socket.write(frame(TEXT, body.subarray(0, 5), { fin: false }));
    raw.socket.write(frame(PING, 'hi'));
    raw.socket.write(frame(CONT, body.subarray(5, cut), { fin: false }));
    raw.socket.write(frame(CONT, body.subarray(cut)));
    expect(await answered).toContain('"id":7');
    raw.socket.destroy();
    expect((await call(other, 'app.info', {})).result).toMatchObject({ host: 'web' });
    other.close();
  }, 120_000);

  it('a flood of 20,000 tiny calls is answered in full; 100 connections at once are all served', async () => {
    const sock = await open();
    const n = 20_000;
    const ids = new Set<number>();
    const done = new Promise<void>((resolve) => sock.on('message', (d: Buffer) => {
      const f = JSON.parse(d.toString()) as { id?: number; result?: unknown };
      if (typeof f.id === 'number' && f.id >= 1_000_000 && f.result !== undefined) ids.add(f.id);
      if (ids.size === n) resolve();
    }));
    for (let i = 0; i < n; i++) sock.send(JSON.stringify({ id: 1_000_000 + i, method: 'app.info', params: {} }));
    await done;
    sock.close();
    const many = await Promise.all(Array.from({ length: 100 }, () => open()));
    const answers = await Promise.all(many.map((s) => call(s, 'shell.channels', {})));
    expect(answers.every((a) => Array.isArray(a.result))).toBe(true);
    for (const s of many) s.close();
    await servedStill();
  }, 120_000);

  it('slow handshakes (slow-loris) do not block other clients', async () => {
    const lingering: Socket[] = [];
    for (let i = 0; i < 40; i++) {
      const s = tcpConnect(port, '127.0.0.1');
      s.on('error', () => undefined);
      // Half a request line, half an upgrade's headers: neither ever finishes.
      s.write(i % 2 === 0 ? 'GET /api?tok' : `GET /api?token=${wb.token} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nUpgrade: websocket\r\nConn`);
      lingering.push(s);
    }
    await servedStill();
    const page = await fetch(`${wb.origin}/?token=${wb.token}`, { redirect: 'manual' });
    expect(page.status).toBe(303);
    for (const s of lingering) s.destroy();
  }, 60_000);

  it('refuses Origin, Host and token tricks', async () => {
    const refused = async (headers: Record<string, string>, path?: string): Promise<string> => {
      const raw = await rawConnect(headers, path);
      raw.socket.destroy();
      return raw.status;
    };
    const tricks: [Record<string, string>, string?][] = [
      [{ Origin: 'null' }],
      [{ Origin: '' }],
      [{ Origin: `${wb.origin}/` }],
      [{ Origin: `${wb.origin}.evil.example` }],
      [{ Origin: `http://127.0.0.1:${port}@evil.example` }],
      [{ Origin: `https://127.0.0.1:${port}` }],
      [{ Origin: wb.origin.toUpperCase() }],
      [{ Host: `evil.example:${port}` }],
      [{ Host: `127.0.0.1:${port}.evil.example` }],
      [{ Host: '127.0.0.1' }],
      [{}, '/api'],
      [{}, '/api?token='],
      [{}, `/api?token=${wb.token.slice(0, -1)}`],
      [{}, `/api?token=${wb.token}x`],
      [{}, `/api?token=${wb.token.toUpperCase()}`],
      [{}, `/api?token=bad&token=${wb.token}`],
      [{}, `/api/?token=${wb.token}`],
      [{}, `/API?token=${wb.token}`],
      [{}, `/other?token=${wb.token}`],
      [{ Cookie: `arbor_token=${wb.token.slice(1)}` }, '/api'],
      [{ Cookie: `arbor_token=bad; arbor_token=${wb.token}` }, '/api'],
      [{ Cookie: `xarbor_token=${wb.token}` }, '/api'],
    ];
    for (const [headers, path] of tricks) expect(await refused(headers, path), JSON.stringify([headers, path])).toMatch(/^HTTP\/1\.1 403/);
    // The genuine ones still work.
    expect(await refused({ Cookie: `arbor_token=${wb.token}` }, '/api')).toMatch(/^HTTP\/1\.1 101/);
    expect(await refused({ Origin: `http://localhost:${port}`, Host: `localhost:${port}` })).toMatch(/^HTTP\/1\.1 101/);
    // HTTP: a wrong Host is 421 whatever the token; a broken percent-escape is an error, not a crash.
    const http = (path: string, host = `127.0.0.1:${port}`): Promise<string> => new Promise((resolve) => {
      const s = tcpConnect(port, '127.0.0.1');
      let text = '';
      s.on('data', (d: Buffer) => (text += d.toString()));
      s.on('close', () => resolve(text.split('\r\n')[0] ?? ''));
      s.on('error', () => undefined);
      s.write(`GET ${path} HTTP/1.1\r\nHost: ${host}\r\nCookie: arbor_token=${wb.token}\r\nConnection: close\r\n\r\n`);
    });
    expect(await http('/', `evil.example:${port}`)).toMatch(/ 421 /);
    expect(await http('/%E0%A4%A')).toMatch(/ (400|404|500) /);
    expect(await http('/..%2F..%2F..%2Fetc%2Fpasswd')).toMatch(/ 404 /);
    await servedStill();
  }, 60_000);
});
