import { mkdtemp, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { TreeReplica } from '../../shared/proof-tree/tree-delta.ts';
import type { ApiEvent } from '../../shared/api/api-contract.ts';
import { TacticEngine } from '../shell/tactic-engine.ts';
import { createApiService } from './api-service.ts';
import { TestDoubleProverSession } from './testing/test-double-prover.ts';
import { startWebHost } from './web-host.ts';
import type { WebHost } from './web-host.ts';
import { createWorkbenchShell } from './workbench-shell.ts';
import type { WorkbenchShell } from './workbench-shell.ts';
import { Workspace } from './workspace.ts';

let dir: string;
let host: WebHost;
let ws: WorkbenchShell;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'arbor-web-'));
  await mkdir(join(dir, 'static'));
  await mkdir(join(dir, 'work'));
  await writeFile(join(dir, 'static', 'index.html'), '<!doctype html><title>Arbor</title>');
  await writeFile(join(dir, 'secret.txt'), 'secret');
  ws = await createWorkbenchShell({
    backend: 'coq',
    createEngine: () => new TacticEngine({ backend: 'coq', timeoutMs: 1000, openSession: async () => new TestDoubleProverSession() }),
  });
  const workspace = new Workspace({ root: join(dir, 'work'), userDir: join(dir, 'user') });
  const service = createApiService({
    shell: ws.shell, workspace,
    info: () => ({ host: 'web', version: '0', backend: 'coq', backendAvailable: true, problems: [], workspace: workspace.root, examplesDir: '' }),
  });
  host = await startWebHost({ service, staticDir: join(dir, 'static') });
});

afterAll(async () => {
  await host.close();
  await ws.dispose();
  await rm(dir, { recursive: true, force: true });
});

function connect(options: { origin?: string; cookie?: string; query?: string } = {}): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = {};
    if (options.cookie) headers.Cookie = options.cookie;
    const sock = new WebSocket(`ws://127.0.0.1:${host.port}/api${options.query ?? ''}`, { origin: options.origin ?? host.origin, headers });
    sock.once('open', () => resolve(sock));
    sock.once('error', reject);
    sock.once('unexpected-response', (_req, res) => reject(new Error(`status ${res.statusCode}`)));
  });
}

function call(sock: WebSocket, id: number, method: string, params: unknown): Promise<{ result?: unknown; error?: string }> {
  return new Promise((resolve) => {
    const onMessage = (data: Buffer): void => {
      const frame = JSON.parse(data.toString()) as { id?: number; result?: unknown; error?: string };
      if (frame.id === id) {
        sock.off('message', onMessage);
        resolve(frame);
      }
    };
    sock.on('message', onMessage);
    sock.send(JSON.stringify({ id, method, params }));
  });
}

describe('web host', () => {
  it('refuses pages without the token and trades the token for a cookie', async () => {
    expect((await fetch(`${host.origin}/`)).status).toBe(403);
    expect((await fetch(`${host.origin}/?token=nope`)).status).toBe(403);
    const res = await fetch(host.url, { redirect: 'manual' });
    expect(res.status).toBe(303);
    const cookie = (res.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    expect(res.headers.get('set-cookie')).toMatch(/HttpOnly; SameSite=Strict/);
    const page = await fetch(`${host.origin}/`, { headers: { Cookie: cookie } });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'; script-src 'self'; worker-src 'self' blob:");
    expect(await page.text()).toContain('Arbor');
    expect((await fetch(`${host.origin}/../secret.txt`, { headers: { Cookie: cookie } })).status).toBe(404);
    expect((await fetch(`${host.origin}/%2e%2e/secret.txt`, { headers: { Cookie: cookie } })).status).toBe(404);
  });

  it('refuses WebSockets from another origin or without the token', async () => {
    await expect(connect({ origin: 'http://evil.example' , query: `?token=${host.token}` })).rejects.toThrow(/403/);
    await expect(connect({})).rejects.toThrow(/403/);
    const ok = await connect({ cookie: `arbor_token=${host.token}` });
    ok.close();
  });

  it('validates calls and runs proof commands, pushing tree events', async () => {
    const sock = await connect({ query: `?token=${host.token}` });
    const events: ApiEvent[] = [];
    sock.on('message', (d: Buffer) => {
      const f = JSON.parse(d.toString()) as { event?: ApiEvent };
      if (f.event) events.push(f.event);
    });
    expect((await call(sock, 1, 'shell.nope', {})).error).toMatch(/unknown method/);
    expect((await call(sock, 2, 'shell.submit', { line: 7 })).error).toMatch(/bad parameters/);
    const r = await call(sock, 3, 'shell.submit', { line: 'GOAL "A /\\ B"; APPLY split' });
    expect(r.result).toMatchObject([{ CHANNEL: 0, ERR: '', STEP: 1 }, { CHANNEL: 0, ERR: '', STEP: 2 }]);
    // Trees arrive as changes, numbered per channel; the state itself is not sent again with the response.
    const trees = events.filter((e): e is Extract<ApiEvent, { kind: 'tree' }> => e.kind === 'tree');
    expect(trees.map((t) => [t.step, t.seq])).toEqual([[1, 1], [2, 2]]);
    const copy = new TreeReplica();
    for (const t of trees) copy.apply(t.change);
    expect(copy.root).toMatchObject({ kind: 'bundle', children: [{ goal: 'A' }, { goal: 'B' }] });
    expect((await call(sock, 4, 'shell.tree', { channel: 0 })).result).toEqual({ seq: 2, step: 2, tree: copy.root });
    expect((await call(sock, 5, 'shell.tree', { channel: 0, step: 1 })).result).toMatchObject({ step: 1, tree: { kind: 'leaf', goal: 'A /\\ B' } });
    const responses = events.filter((e): e is Extract<ApiEvent, { kind: 'response' }> => e.kind === 'response');
    expect(responses.map((e) => [e.response.RESPONSE, e.stateInTree])).toEqual([[null, true], [null, true]]);
    expect(events.some((e) => e.kind === 'request' && e.text.includes('GOAL'))).toBe(true);
    sock.close();
  });

  it('releases the channels a client opened when it disconnects', async () => {
    const sock = await connect({ query: `?token=${host.token}` });
    const r = await call(sock, 1, 'shell.submit', { line: 'NEW_CHANNEL; NEW_CHANNEL' });
    const ids = (r.result as { RESPONSE: { ID: number } }[]).map((x) => x.RESPONSE.ID);
    await call(sock, 2, 'shell.submit', { line: `${ids[0]} RELEASE_CHANNEL` });
    expect(ws.shell.channelIds()).toContain(ids[1]);
    sock.close();
    await expect.poll(() => ws.shell.channelIds().includes(ids[1]!)).toBe(false);
    expect(ws.shell.channelIds()).toContain(0);
  });

  it('confines file access to the workspace', async () => {
    const sock = await connect({ query: `?token=${host.token}` });
    expect((await call(sock, 1, 'files.write', { path: 'a.arbor', text: 'GOAL "A"' })).error).toBeUndefined();
    expect((await call(sock, 2, 'files.read', { path: 'a.arbor' })).result).toMatchObject({ text: 'GOAL "A"' });
    expect((await call(sock, 3, 'files.read', { path: '../secret.txt' })).error).toMatch(/outside the workspace/);
    expect((await call(sock, 4, 'files.read', { path: join(dir, 'secret.txt') })).error).toMatch(/outside the workspace/);
    expect((await call(sock, 5, 'files.write', { path: '../x.txt', text: '' })).error).toMatch(/outside the workspace/);
    // A symlink inside the workspace that points outside is refused too.
    const { symlink } = await import('node:fs/promises');
    await symlink(join(dir, 'secret.txt'), join(dir, 'work', 'link.txt'));
    expect((await call(sock, 8, 'files.read', { path: 'link.txt' })).error).toMatch(/outside the workspace/);
    await call(sock, 6, 'recovery.save', { uri: 'untitled:1', text: 'draft' });
    expect((await call(sock, 7, 'recovery.list', {})).result).toMatchObject([{ uri: 'untitled:1', text: 'draft' }]);
    sock.close();
  });
});

describe('web host under malformed frames', () => {
  /** Opens a socket whose errors are expected (the host closes it); resolves with the close code. */
  async function closedWith(send: (sock: WebSocket) => void): Promise<number> {
    const sock = await connect({ query: `?token=${host.token}` });
    sock.on('error', () => undefined);
    const closed = new Promise<number>((resolve) => sock.once('close', (code) => resolve(code)));
    send(sock);
    return closed;
  }

  it('closes only the offending socket (1007, 1009, 1008) and keeps serving the other clients', async () => {
    const other = await connect({ query: `?token=${host.token}` });
    const text = 'GOAL "A /\\ B"\nAPPLY split';
    const opened = await call(other, 1, 'document.sync', { client: 'w1', uri: 'untitled:robust', version: 1, text });
    expect(opened.error).toBeUndefined();
    // A text frame that is not UTF-8.
    expect(await closedWith((s) => s.send(Buffer.from([0x7b, 0xff, 0xfe, 0x7d]), { binary: false }))).toBe(1007);
    // One frame over the limit (the attack's 33 MiB).
    expect(await closedWith((s) => s.send(Buffer.alloc(33 << 20, 0x20), { binary: false }))).toBe(1009);
    // Not JSON, not a call, binary.
    expect(await closedWith((s) => s.send('{"id": 1, "method"'))).toBe(1008);
    expect(await closedWith((s) => s.send(JSON.stringify({ id: 'x', method: 7 })))).toBe(1008);
    expect(await closedWith((s) => s.send(Buffer.from([1, 2, 3]), { binary: true }))).toBe(1008);
    // The other client's document still checks.
    const run = await call(other, 2, 'document.run', { client: 'w1', uri: 'untitled:robust', action: { kind: 'all' } });
    expect(run.error).toBeUndefined();
    expect(run.result).toMatchObject({ uri: 'untitled:robust' });
    expect((await call(other, 3, 'shell.channels', {})).error).toBeUndefined();
    // And new clients still connect.
    const late = await connect({ query: `?token=${host.token}` });
    expect((await call(late, 1, 'app.info', {})).result).toMatchObject({ host: 'web' });
    late.close();
    other.close();
  });
});
