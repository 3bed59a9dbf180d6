import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiEvent, ChannelInfo } from '../../shared/api/api-contract.ts';
import type { ForkTryOutcome } from '../../shared/protocol/fork-try.ts';
import { Shell } from '../shell/shell.ts';
import { createProverEngineFactory, loadBackend } from '../supervisor/engine-factory.ts';
import type { EngineFactory } from '../supervisor/engine-factory.ts';
import { createApiService } from './api-service.ts';
import type { ApiService } from './api-service.ts';
import { Workspace } from './workspace.ts';

/**
 * The busy indicator from one `channels` event per command (real coqidetop): a request that fails, one
 * cancelled while it runs, and a try holding the channel's own prover must each end with the channel not
 * busy in the last `channels` event a client saw, including a client that subscribed mid-run.
 */
let dir: string;
let factory: EngineFactory;
let shell: Shell;
let service: ApiService;
const SLOW = 'APPLY (try (timeout 3 (repeat (rewrite Nat.add_comm))))';

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'arbor-busy-'));
  factory = createProverEngineFactory(await loadBackend('coq'), { backend: 'coq', timeoutMs: 20_000, poolSize: 0 });
  shell = new Shell({ createEngine: (ch, prelude) => factory.createEngine(ch, prelude) });
  service = createApiService({
    shell, workspace: new Workspace({ root: dir, userDir: join(dir, 'user') }),
    info: () => ({ host: 'web', version: '0', backend: 'coq', backendAvailable: true, problems: [], workspace: dir, examplesDir: '' }),
  });
  for (const line of ['GOAL "forall n m : nat, n + m = m + n"', 'APPLY intros n m']) {
    const [r] = await Promise.all(shell.submitLine(line));
    expect(r?.ERR).toBe('');
  }
}, 120_000);

afterAll(async () => {
  service?.dispose();
  await shell?.close();
  await factory?.dispose();
  await rm(dir, { recursive: true, force: true });
});

/** What a renderer's store holds for `channel` after these events: busy from a request, cleared by `channels`. */
function busyAfter(events: ApiEvent[], channel: number, start: ChannelInfo[] = []): boolean {
  let busy = start.find((c) => c.id === channel)?.busy ?? false;
  for (const e of events) {
    if (e.kind === 'request' && e.channel === channel) busy = true;
    if (e.kind === 'channels') busy = e.channels.find((c) => c.id === channel)?.busy ?? false;
  }
  return busy;
}

async function settled(): Promise<void> {
  await new Promise<void>((resolve) => { setImmediate(resolve); });
}

describe('busy is never left set (real coqidetop)', () => {
  it('a failing request, a parse error and a request to no channel clear busy', async () => {
    const events: ApiEvent[] = [];
    const off = service.onEvent((e) => events.push(e));
    try {
      const answers = await service.call('shell.submit', { line: '0 APPLY (exact nonsense); 0 FROB; 77 STATE' }) as { ERR: string }[];
      expect(answers.map((a) => a.ERR === '')).toEqual([false, false, false]);
      await settled();
      expect(busyAfter(events, 0)).toBe(false);
      expect(busyAfter(events, 77)).toBe(false);
    } finally {
      off();
    }
  }, 120_000);

  it('a request cancelled while it runs clears busy, for a client that subscribed mid-run too', async () => {
    const opened = await service.call('shell.submit', { line: 'NEW_CHANNEL' }) as { RESPONSE: { ID: number } }[];
    const ch = opened[0]?.RESPONSE.ID as number;
    await service.call('shell.submit', { line: `${ch} GOAL "forall n m : nat, n + m = m + n"; ${ch} APPLY intros n m` });
    const early: ApiEvent[] = [];
    const offEarly = service.onEvent((e) => early.push(e));
    const running = service.call('shell.submit', { line: `${ch} ${SLOW}` });
    // A client arriving now: a snapshot, then the events.
    const late: ApiEvent[] = [];
    const offLate = service.onEvent((e) => late.push(e));
    const snapshot = await service.call('shell.channels', {}) as ChannelInfo[];
    await service.call('shell.submit', { line: `${ch} CANCEL` });
    const [r] = await running as { ERR: string }[];
    expect(r?.ERR).toBe('cancelled');
    await settled();
    offEarly();
    offLate();
    expect(busyAfter(early, ch)).toBe(false);
    expect(busyAfter(late, ch, snapshot)).toBe(false);
  }, 120_000);

  it('a try that held the channel\'s own prover leaves the channel not busy', async () => {
    const events: ApiEvent[] = [];
    const off = service.onEvent((e) => events.push(e));
    try {
      const t = await service.call('fork.try', { channel: 0, commands: [SLOW] }) as ForkTryOutcome;
      expect(t.outcome).toBe('ran');
      // No request or response of the channel's: the try's traffic is its own.
      expect(events.filter((e) => e.kind === 'request' || e.kind === 'response')).toEqual([]);
      await settled();
      expect(busyAfter(events, 0)).toBe(false);
      // Said by an event, not left to the usage sampler's next tick (which showed it busy mid-try).
      const last = events.filter((e) => e.kind === 'channels').at(-1);
      expect(last?.kind === 'channels' && last.channels.find((c) => c.id === 0)?.busy).toBe(false);
      expect(shell.channelStatus(0)?.busy).toBe(false);
    } finally {
      off();
    }
  }, 120_000);
});
