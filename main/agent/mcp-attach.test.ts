import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiService } from '../host/api-service.ts';
import { startWebHost } from '../host/web-host.ts';
import type { WebHost } from '../host/web-host.ts';
import { Workspace } from '../host/workspace.ts';
import { Shell } from '../shell/shell.ts';
import { createProverEngineFactory, loadBackend } from '../supervisor/engine-factory.ts';
import type { EngineFactory } from '../supervisor/engine-factory.ts';
import { attachTarget } from './ws-attach-port.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const BACKEND = 'main/provers/coq/coq-backend.ts';
const hasBackend = existsSync(`${ROOT}${BACKEND}`);

const text = (r: unknown): string => ((r as CallToolResult).content[0] as { text: string }).text;

describe('attach target', () => {
  it('turns the URL the workbench prints into its API socket with the host\'s own origin', () => {
    expect(attachTarget('http://127.0.0.1:4312/?token=abc')).toEqual({ ws: 'ws://127.0.0.1:4312/api?token=abc', origin: 'http://127.0.0.1:4312', token: 'abc' });
    expect(attachTarget('ws://localhost:9/api', 'k')).toEqual({ ws: 'ws://localhost:9/api?token=k', origin: 'http://localhost:9', token: 'k' });
    expect(() => attachTarget('http://127.0.0.1:4312/')).toThrow(/token is missing/);
    expect(() => attachTarget('file:///etc/passwd', 'k')).toThrow(/not an http or ws URL/);
  });
});

describe.skipIf(!hasBackend)(hasBackend ? 'arbor-mcp --attach to a running web host (real coqidetop)' : `arbor-mcp --attach — SKIPPED: ${BACKEND} is missing`, () => {
  let dir: string;
  let factory: EngineFactory;
  let shell: Shell;
  let host: WebHost;
  let client: Client;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'arbor-attach-'));
    await mkdir(join(dir, 'static'));
    factory = createProverEngineFactory(await loadBackend('coq'), { backend: 'coq', timeoutMs: 10_000, poolSize: 1 });
    shell = new Shell({ createEngine: (ch, prelude) => factory.createEngine(ch, prelude) });
    const workspace = new Workspace({ root: dir, userDir: join(dir, 'user') });
    const service = createApiService({
      shell, workspace,
      info: () => ({ host: 'web', version: '0', backend: 'coq', backendAvailable: true, problems: [], workspace: dir, examplesDir: '' }),
    });
    host = await startWebHost({ service, staticDir: join(dir, 'static') });
    // The user has a proof open in the workbench before the agent attaches.
    await Promise.all(shell.submitLine('GOAL "forall l : list nat, l ++ nil = l"'));
    client = new Client({ name: 'attached-agent', version: '1.0.0' });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: ['bin/arbor-mcp.js', '--attach', host.url], cwd: ROOT, stderr: 'pipe' }));
  }, 60_000);
  afterAll(async () => {
    await client?.close();
    await host?.close();
    await shell?.close();
    await factory?.dispose();
    await rm(dir, { recursive: true, force: true });
  });

  it('works on the workbench\'s proof: sees the user\'s commands, and the workbench sees the agent\'s', async () => {
    expect(text(await client.callTool({ name: 'get_current_proof_state', arguments: {} }))).toContain('Goal Type: forall l : list nat, l ++ [] = l');
    await Promise.all(shell.submitLine('APPLY intro l'));
    expect(text(await client.callTool({ name: 'get_current_proof_state', arguments: {} }))).toContain('  l : list nat');
    expect(text(await client.callTool({ name: 'get_script', arguments: { format: 'arbor' } }))).toBe(
      '// attached after this proof started: its earlier commands are unknown; the current goal as a proof of its own:\nGOAL "forall (l : list nat), l ++ [] = l"\nAPPLY intros l\n');
    expect(text(await client.callTool({ name: 'check_term_validity', arguments: { term: 'assert (length l >= 0).' } }))).toBe('valid');
    const tried = JSON.parse(text(await client.callTool({ name: 'try_commands', arguments: { alternatives: [['APPLY (rewrite app_nil_r)'], ['RULE app_nil_r'], ['APPLY reflexivity']] } }, undefined, { timeout: 120_000 })));
    expect(tried.map((t: { label: string }) => t.label)).toEqual(['progress', 'closes_goal', 'invalid']);
    const r = await client.callTool({ name: 'run_command', arguments: { command: 'APPLY (induction l; simpl; congruence)' } });
    expect(r.isError).not.toBe(true);
    expect(shell.engine(0)?.treeView()).toMatchObject({ status: 'proved' });
    // It attached after GOAL: the script it knows is the current goal as a proof of its own.
    expect(text(await client.callTool({ name: 'get_script', arguments: { format: 'arbor' } }))).toMatch(/^no_goal: /);
    expect(text(await client.callTool({ name: 'get_script', arguments: {} }))).toMatch(/Theorem arbor_goal[\s\S]*induction l/);
  }, 180_000);
});
