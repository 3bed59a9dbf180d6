import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { startWebWorkbench } from './web-workbench.ts';
import type { WebWorkbench } from './web-workbench.ts';

/**
 * The project prelude's axioms: the user trusts the list the question shows. That list was read from the
 * file's text with a comment stripper that ignores nesting and strings, while the sessions trusted every
 * assumption Coq itself ran — so `(* (* *) *) Axiom hidden : False.` (a nested comment, then a real axiom)
 * was not in the question but was trusted with its answer, and `GOAL "False"` finished. Now only what the
 * question showed is trusted (real web workbench, real coqidetop).
 */
const TMP = fileURLToPath(new URL('../../.tmp/', import.meta.url));
let dir: string;
let wb: WebWorkbench;
const logged: string[] = [];
const PRELUDE = 'Axiom ax : 1 = 2. Axiom twice : True. (* (* *) *) Axiom hidden : False. (* "*)" *) Axiom hidden2 : False. Module M. Axiom twice : False. End M. Import M.';

beforeAll(async () => {
  await mkdir(TMP, { recursive: true });
  dir = await mkdtemp(join(TMP, 'atk-axioms-'));
  await mkdir(join(dir, 'work'));
  await writeFile(join(dir, 'work', 'arbor.project.json'), JSON.stringify({ backend: 'coq', prelude: PRELUDE }));
  wb = await startWebWorkbench({ backend: 'coq', workspace: join(dir, 'work'), userDir: join(dir, 'user'), build: false, timeoutMs: 20_000, log: (l) => logged.push(l) });
}, 60_000);
afterAll(async () => {
  await wb?.close();
  await rm(dir, { recursive: true, force: true });
});

function open(): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const sock = new WebSocket(`${wb.url.replace(/^http/, 'ws').replace(/\/(\?.*)?$/, '')}/api?token=${wb.token}`, { origin: wb.origin });
    sock.once('open', () => resolve(sock));
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
async function prove(sock: WebSocket, goal: string, term: string): Promise<string | undefined> {
  const created = (await call(sock, 'shell.submit', { line: 'NEW_CHANNEL' })).result as { RESPONSE: { ID: number } }[];
  const c = created[0]?.RESPONSE.ID;
  const r: { ERR?: string }[] = [];
  for (const req of [`GOAL "${goal}"`, `APPLY (exact ${term})`, 'END']) r.push(...((await call(sock, 'shell.submit', { line: `${c} ${req}` })).result as { ERR?: string }[]));
  await call(sock, 'shell.submit', { line: `${c} RELEASE_CHANNEL` }).catch(() => undefined);
  return r.at(-1)?.ERR;
}

describe('project axioms: only what the question showed is trusted by its answer', () => {
  it('an axiom the question did not list stays untrusted after the user trusts the listed ones', async () => {
    const code = /code: ([0-9A-Z]{4}-[0-9A-Z]{4})$/.exec(logged.join('\n'))?.[1];
    expect(code, logged.join('\n')).toBeDefined();
    const page = await open();
    const status = (await call(page, 'project.axiomsStatus', {})).result as { assumptions: string[] };
    expect((await call(page, 'project.trustAxioms', { code })).result).toMatchObject({ state: 'granted' });
    // The listed one is trusted now.
    expect(status.assumptions).toContain('ax');
    expect(await prove(page, '1 = 2', 'ax')).toBe('');
    // Each other axiom is trusted only if the question listed it.
    // `twice` is listed once but declared twice (the imported one says False): neither is trusted.
    expect(await prove(page, 'False', 'twice')).toMatch(/^unsound/);
    for (const hidden of ['hidden', 'hidden2']) {
      const err = await prove(page, 'False', hidden);
      if (!status.assumptions.includes(hidden)) expect(err, hidden).toMatch(/^unsound/);
    }
    page.close();
  }, 240_000);
});
