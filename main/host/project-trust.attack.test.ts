import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { MAX_WRONG_CODES, ProjectTrustGate } from './project-trust-gate.ts';
import { startWebWorkbench } from './web-workbench.ts';
import type { WebWorkbench } from './web-workbench.ts';

/**
 * The web workbench trusts the workspace project's assumptions only through the user's answer in the page
 * (issue 21), with the real workbench over real coqidetop. The attacker is any other client holding the web
 * token: it calls the same API the page does, sees every event, and must not be able to grant the trust.
 */
let dir: string;
let wb: WebWorkbench;
const logged: string[] = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'arbor-trust-'));
  await mkdir(join(dir, 'work'));
  await writeFile(join(dir, 'work', 'arbor.project.json'), JSON.stringify({ backend: 'coq', prelude: 'Axiom ax : 1 = 2.' }));
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

/** NEW_CHANNEL, then the proof of `1 = 2` from the project's axiom; the END's response. */
async function proveWithAxiom(sock: WebSocket): Promise<{ ERR?: string }> {
  const created = (await call(sock, 'shell.submit', { line: 'NEW_CHANNEL' })).result as { RESPONSE: { ID: number } }[];
  const c = created[0]?.RESPONSE.ID;
  const r: { ERR?: string }[] = [];
  for (const req of ['GOAL "1 = 2"', 'APPLY (exact ax)', 'END']) r.push(...((await call(sock, 'shell.submit', { line: `${c} ${req}` })).result as { ERR?: string }[]));
  await call(sock, 'shell.submit', { line: `${c} RELEASE` }).catch(() => undefined);
  return r.at(-1) as { ERR?: string };
}

describe('project trust in the web workbench: only the page\'s confirmation with the code printed on Arbor\'s terminal', () => {
  it('another API client sees the question but never the code, cannot guess it, and its proofs with the axiom stay unsound', async () => {
    const code = /code: ([0-9A-Z]{4}-[0-9A-Z]{4})$/.exec(logged.join('\n'))?.[1];
    expect(code, logged.join('\n')).toBeDefined();
    const attacker = await open();
    const status = (await call(attacker.sock, 'project.axiomsStatus', {})).result as { state: string; assumptions: string[] };
    expect(status).toMatchObject({ state: 'asked', assumptions: ['ax'] });
    expect(JSON.stringify(status)).not.toContain((code as string).replace('-', ''));
    expect((await proveWithAxiom(attacker.sock)).ERR).toMatch(/^unsound: depends on ax/);
    for (const guess of ['AAAA-AAAA', '', 'x'.repeat(64)]) expect((await call(attacker.sock, 'project.trustAxioms', { code: guess })).error).toMatch(/wrong code/);
    expect((await call(attacker.sock, 'project.trustAxioms', { code: 7 })).error).toMatch(/bad parameters/);
    // Nothing the host ever sent to any client holds the code.
    expect(attacker.frames.join('\n')).not.toContain((code as string).replace('-', ''));
    expect(attacker.frames.join('\n')).not.toContain(code as string);

    // The user reads the code on the terminal and types it into the page's confirmation.
    const page = await open();
    expect((await call(page.sock, 'project.trustAxioms', { code: (code as string).toLowerCase() })).result).toMatchObject({ state: 'granted' });
    const proved = await proveWithAxiom(page.sock);
    expect(proved.ERR).toBe('');
    // Answered once: the question is closed.
    expect((await call(attacker.sock, 'project.trustAxioms', { code: null })).error).toMatch(/already trusted/);
    attacker.sock.close();
    page.sock.close();
  }, 180_000);
});

describe('ProjectTrustGate', () => {
  it('closes the question after five wrong codes, declines on null, and asks nothing without assumptions', () => {
    const lines: string[] = [];
    const gate = new ProjectTrustGate('/w/arbor.project.json', ['ax'], (l) => lines.push(l));
    for (let i = 1; i < MAX_WRONG_CODES; i++) expect(() => gate.answer('WRONGCODE')).toThrow(/wrong code/);
    expect(() => gate.answer('WRONGCODE')).toThrow(/stay untrusted until Arbor restarts/);
    const code = /code: (\S+)$/.exec(lines[0] ?? '')?.[1] as string;
    expect(() => gate.answer(code)).toThrow(/already kept untrusted/);
    expect(gate.granted).toBe(false);
    const declined = new ProjectTrustGate('/w/arbor.project.json', ['ax'], () => undefined);
    expect(declined.answer(null).state).toBe('declined');
    expect(declined.granted).toBe(false);
    const none = new ProjectTrustGate('/w/arbor.project.json', [], (l) => lines.push(l));
    expect(none.status().state).toBe('none');
    expect(lines).toHaveLength(1);
  });
});
