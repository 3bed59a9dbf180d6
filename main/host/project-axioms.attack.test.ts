import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { startWebWorkbench } from './web-workbench.ts';
import type { WebWorkbench } from './web-workbench.ts';

/**
 * The project prelude's axioms are trusted by the workspace's one grant (workspace-trust.ts), and the user
 * trusts the list the question shows. That list was read from the file's text with a comment stripper that
 * ignores nesting and strings, while the sessions trusted every assumption Coq itself ran — so
 * `(* (* *) *) Axiom hidden : False.` (a nested comment, then a real axiom) was not in the question but was
 * trusted with its answer, and `GOAL "False"` finished. Now only what the question showed is trusted (real
 * web workbench, real coqidetop). A second client holding the web token (an attached agent) sees the
 * question, never the code, and cannot grant it; the old second question's API is gone.
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

const codeOf = (): string | undefined => [...logged.join('\n').matchAll(/type this code in the page: (\d{6})/g)].at(-1)?.[1];

describe('project axioms: one grant, only what the question showed is trusted by it', () => {
  it('an attacker holding the token cannot grant the trust; the old axioms API is gone', async () => {
    const attacker = await open();
    for (const m of ['project.axiomsStatus', 'project.trustAxioms']) expect((await call(attacker, m, { code: null })).error, m).toMatch(/unknown method|bad/i);
    const status = (await call(attacker, 'project.coq', {})).result as { trusted: boolean; axioms: string[]; projectFile?: string };
    expect(status).toMatchObject({ trusted: false, projectFile: expect.stringContaining('arbor.project.json') });
    expect(status.axioms).toContain('ax');
    // Untrusted: a proof that uses the declared axiom is refused.
    expect(await prove(attacker, '1 = 2', 'ax')).toMatch(/^unsound/);
    await call(attacker, 'project.requestTrust', {});
    const code = codeOf();
    expect(code, logged.join('\n')).toMatch(/^\d{6}$/);
    // The terminal's line shows everything the yes grants.
    expect(logged.join('\n')).toMatch(/trusted assumptions: ax\b/);
    const wrong = code === '000000' ? '111111' : '000000';
    expect((await call(attacker, 'project.trust', { code: wrong })).error).toMatch(/wrong code/);
    expect(((await call(attacker, 'project.coq', {})).result as { trusted: boolean }).trusted).toBe(false);
    expect(await prove(attacker, '1 = 2', 'ax')).toMatch(/^unsound/);
    attacker.close();
  }, 240_000);

  it('an axiom the question did not list stays untrusted after the user trusts the listed ones', async () => {
    const page = await open();
    await call(page, 'project.requestTrust', {});
    const code = codeOf();
    const status = (await call(page, 'project.coq', {})).result as { axioms: string[] };
    expect((await call(page, 'project.trust', { code })).result).toMatchObject({ trusted: true });
    // The listed one is trusted now.
    expect(status.axioms).toContain('ax');
    expect(await prove(page, '1 = 2', 'ax')).toBe('');
    // Each other axiom is trusted only if the question listed it.
    // `twice` is listed once but declared twice (the imported one says False): neither is trusted.
    expect(await prove(page, 'False', 'twice')).toMatch(/^unsound/);
    for (const hidden of ['hidden', 'hidden2']) {
      const err = await prove(page, 'False', hidden);
      if (!status.axioms.includes(hidden)) expect(err, hidden).toMatch(/^unsound/);
    }
    page.close();
  }, 240_000);
});
