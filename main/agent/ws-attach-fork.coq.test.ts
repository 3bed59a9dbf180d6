import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiEvent } from '../../shared/api/api-contract.ts';
import type { DocumentState } from '../../shared/checking/document-check.ts';
import { createApiService } from '../host/api-service.ts';
import type { ApiService } from '../host/api-service.ts';
import { startWebHost } from '../host/web-host.ts';
import type { WebHost } from '../host/web-host.ts';
import { Workspace } from '../host/workspace.ts';
import { Shell } from '../shell/shell.ts';
import { createProverEngineFactory, loadBackend } from '../supervisor/engine-factory.ts';
import type { EngineFactory } from '../supervisor/engine-factory.ts';
import { AgentSession } from './agent-session.ts';
import type { ShellPort } from './shell-port.ts';
import { attachPort } from './ws-attach-port.ts';

/**
 * An agent attached over the workbench's WebSocket (`arbor-mcp --attach`: attachPort + AgentSession) tries
 * commands on forks of the user's document's channel through `fork.try`, as an in-process agent does:
 * nothing is replayed per try, and the document and its channel do not move. Real coqidetop.
 */
/** Fifty lemmas closed by `lia` (bench/fifty-lemmas.ts is the benchmark's richer document; tests do not import bench). */
const PROOF = 'lia';
const DOC = Array.from({ length: 50 }, (_, i) => [`GOAL lemma_${i + 1} "forall n m : nat, n + ${i + 1} * m = ${i + 1} * m + n"`, `APPLY ${PROOF}`, 'END']).flat();
/** The 1-based line of lemma k's GOAL in the document. */
const goalLine = (k: number): number => DOC.findIndex((l, i) => l.startsWith('GOAL ') && DOC.slice(0, i + 1).filter((x) => x.startsWith('GOAL ')).length === k) + 1;

let dir: string;
let factory: EngineFactory;
let shell: Shell;
let service: ApiService;
let host: WebHost;
let port: ShellPort;
let agent: AgentSession;
const events: ApiEvent[] = [];

const doc = async (): Promise<DocumentState> => (await service.call('document.get', { client: 'editor', uri: 'fifty' })) as DocumentState;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'arbor-attach-fork-'));
  await mkdir(join(dir, 'static'));
  factory = createProverEngineFactory(await loadBackend('coq'), { backend: 'coq', timeoutMs: 20_000, poolSize: 0 });
  shell = new Shell({ createEngine: (ch, prelude) => factory.createEngine(ch, prelude) });
  service = createApiService({
    shell, workspace: new Workspace({ root: dir, userDir: join(dir, 'user') }),
    info: () => ({ host: 'web', version: '0', backend: 'coq', backendAvailable: true, problems: [], workspace: dir, examplesDir: '' }),
  });
  service.onEvent((e) => events.push(e));
  host = await startWebHost({ service, staticDir: join(dir, 'static') });
  // The user's 50-lemma document, checked through lemma 1's GOAL in the workbench.
  await service.call('document.sync', { client: 'editor', uri: 'fifty', version: 1, text: DOC.join('\n') });
  const state = (await service.call('document.run', { client: 'editor', uri: 'fifty', action: { kind: 'through', line: goalLine(1) } })) as DocumentState;
  expect(state.check.error).toBeUndefined();
  port = await attachPort(host.url);
  agent = new AgentSession({ port, channel: state.channel as number });
}, 120_000);

afterAll(async () => {
  await agent?.close();
  await port?.close();
  await host?.close();
  service?.dispose();
  await shell?.close();
  await factory?.dispose();
  await rm(dir, { recursive: true, force: true });
});

/**
 * One try on lemma k by the attached agent (a first step, `progress`; a closing try adds the theorem's END,
 * whose judging grew with this document on its own, in-process too: see docs/attached-agents-forks.md); its time, and what
 * moved meanwhile.
 */
async function tryLemma(_k: number, closing = false): Promise<{ ms: number; broadcast: ApiEvent[]; channelsBefore: number[]; channelsAfter: number[] }> {
  const from = events.length;
  const channelsBefore = shell.channelIds();
  const t = performance.now();
  const [result] = await agent.tryCommands([[closing ? `APPLY ${PROOF}` : 'APPLY (intros n m)']]);
  const ms = performance.now() - t;
  expect(result, JSON.stringify(result)).toMatchObject({ label: closing ? 'closes_goal' : 'progress' });
  const broadcast = events.slice(from).filter((e) => e.kind === 'request' || e.kind === 'response' || e.kind === 'tree' || e.kind === 'document');
  return { ms, broadcast, channelsBefore, channelsAfter: shell.channelIds() };
}

describe('an attached agent tries commands on forks (fork.try, real coqidetop)', () => {
  it('leaves the user\'s document and channel untouched: no event, no new channel, the same state and tree', async () => {
    const before = await doc();
    const channel = before.channel as number;
    const tree = JSON.stringify(shell.tree(channel));
    const tried = await tryLemma(1, true);
    expect(tried.broadcast).toEqual([]);
    expect(tried.channelsAfter).toEqual(tried.channelsBefore);
    expect(await doc()).toEqual(before);
    expect(shell.channelStatus(channel)?.step).toBe(before.check.entries.at(-1)?.stepAfter);
    expect(JSON.stringify(shell.tree(channel))).toBe(tree);
    // A failing try leaves nothing behind either, and the agent's transcript lists the fork's traffic as scratch.
    const [bad] = await agent.tryCommands([['APPLY (exact I)']]);
    expect(bad?.label).toBe('invalid');
    expect(await doc()).toEqual(before);
    expect(agent.transcript(100, true).filter((e) => e.scratch).length).toBeGreaterThan(0);
    expect(agent.transcript(100, false).filter((e) => e.scratch)).toEqual([]);
    // The user goes on checking after the tries: the document's next line runs as usual.
    const next = (await service.call('document.run', { client: 'editor', uri: 'fifty', action: { kind: 'forward' } })) as DocumentState;
    expect(next.check.error).toBeUndefined();
    expect(next.check.entries.length).toBe(before.check.entries.length + 1);
    await service.call('document.run', { client: 'editor', uri: 'fifty', action: { kind: 'back' } });
  }, 180_000);

  it('does not replay the document per try: a try on lemma 50 costs about what one on lemma 2 does', async () => {
    // Each position is tried twice: the first try after the document moved there, and the same again.
    const at = async (k: number): Promise<{ first: number; again: number }> => {
      const state = (await service.call('document.run', { client: 'editor', uri: 'fifty', action: { kind: 'through', line: goalLine(k) } })) as DocumentState;
      expect(state.check.error).toBeUndefined();
      const first = await tryLemma(k);
      const again = await tryLemma(k);
      for (const t of [first, again]) {
        expect(t.channelsAfter).toEqual(t.channelsBefore);
        expect(t.broadcast).toEqual([]);
      }
      return { first: first.ms, again: again.ms };
    };
    const two = await at(2);
    const fifty = await at(50);
    const figures = `lemma 2: ${Math.round(two.first)} / ${Math.round(two.again)} ms, lemma 50: ${Math.round(fifty.first)} / ${Math.round(fifty.again)} ms (first / again)`;
    process.stderr.write(`attached try_commands: ${figures}\n`);
    // Replaying 150 requests (fifty lia proofs and Qeds) takes many seconds; a fork costs one rewind and the try.
    expect(fifty.first, figures).toBeLessThan(3 * two.first + 2000);
    expect(fifty.again, figures).toBeLessThan(3 * two.again + 2000);
  }, 300_000);
});
