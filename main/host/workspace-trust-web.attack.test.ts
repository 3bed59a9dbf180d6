import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { startWebWorkbench } from './web-workbench.ts';
import type { WebWorkbench } from './web-workbench.ts';

/**
 * Workspace trust over the real web host, attacked by a second client holding the web token (what an
 * attached agent holds): it sees every frame the host sends, asks for trust as often as it likes and
 * guesses codes, and tries to write the project files. Broke before the fix in workspace-trust.ts: each
 * `project.requestTrust` gave five fresh tries.
 */
const TMP = fileURLToPath(new URL('../../.tmp/', import.meta.url));
let dir: string;
let wb: WebWorkbench;
const logged: string[] = [];

beforeAll(async () => {
  await mkdir(TMP, { recursive: true });
  dir = await mkdtemp(join(TMP, 'atk-wtrust-'));
  await mkdir(join(dir, 'work', 'theories'), { recursive: true });
  await writeFile(join(dir, 'work', '_CoqProject'), '-Q theories MyLib\n');
  wb = await startWebWorkbench({ backend: 'coq', workspace: join(dir, 'work'), userDir: join(dir, 'user'), build: false, timeoutMs: 20_000, log: (l) => logged.push(l) });
}, 60_000);
afterAll(async () => {
  await wb?.close();
  await rm(dir, { recursive: true, force: true });
});

function open(): Promise<{ sock: WebSocket; frames: string[] }> {
  return new Promise((resolve, reject) => {
    const sock = new WebSocket(`${wb.url.replace(/^http/, 'ws').replace(/\/(\?.*)?$/, '')}/api?token=${wb.token}`, { origin: wb.origin });
    const frames: string[] = [];
    sock.on('message', (d: Buffer) => frames.push(d.toString()));
    sock.once('open', () => resolve({ sock, frames }));
    sock.once('error', reject);
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

describe('web: the workspace cannot be trusted without the terminal', () => {
  it('files.write cannot create or change _CoqProject or arbor.project.json, in any spelling', async () => {
    const { sock } = await open();
    for (const path of ['_CoqProject', '_COQPROJECT', 'theories/../_CoqProject', 'arbor.project.json', 'Arbor.Project.Json', 'theories/_CoqProject']) {
      const r = await call(sock, 'files.write', { path, text: '-Q / Coq\n' });
      expect(r.error, path).toBeDefined();
    }
    expect(await readFile(join(dir, 'work', '_CoqProject'), 'utf8')).toBe('-Q theories MyLib\n');
    sock.close();
  });

  it('many requests and guesses: never trusted, the code never reaches a client, the question closes', async () => {
    const { sock, frames } = await open();
    let closed = false;
    for (let i = 0; i < 40 && !closed; i++) {
      const asked = await call(sock, 'project.requestTrust', {});
      if (asked.error !== undefined) {
        closed = true;
        break;
      }
      const guess = await call(sock, 'project.trust', { code: String(i).padStart(6, '0') });
      expect(guess.error ?? '', JSON.stringify(guess)).not.toBe('');
    }
    expect(closed).toBe(true);
    const status = await call(sock, 'project.coq', {});
    expect(JSON.stringify(status.result)).toMatch(/"trusted":false/);
    const codes = logged.map((l) => /type this code in the page: (\d{6})/.exec(l)?.[1]).filter((c): c is string => c !== undefined);
    expect(codes.length).toBeGreaterThan(0);
    // What the terminal showed is in no frame any client received.
    for (const code of new Set(codes)) expect(frames.some((f) => f.includes(code) && /trust|code/i.test(f))).toBe(false);
    // Even the printed code no longer trusts after the question closed.
    const late = await call(sock, 'project.trust', { code: codes.at(-1) });
    expect(late.error).toBeDefined();
    sock.close();
  });
});
