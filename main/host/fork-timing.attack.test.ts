import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { WebSocket } from 'ws';
import type { ForkTryOutcome } from '../../shared/protocol/fork-try.ts';
import { FORK_TRY_LIMITS } from '../../shared/protocol/fork-try.ts';
import { liveProcessGroups } from '../process/process-manager.ts';
import type { Shell } from '../shell/shell.ts';
import { apiCall, startCoqWebHost, USER_CHANNEL } from './testing/coq-web-host.ts';
import type { CoqWebHost } from './testing/coq-web-host.ts';

/**
 * Timing attacks on `fork.try` (real coqidetop, the web host's WebSocket): deadlines at their edges, the
 * user checking while a try holds the channel, the channel's prover killed mid-try, 50 sockets each at the
 * limit of tries at once, and no prover left once the host is gone.
 */
let h: CoqWebHost;
let shell: Shell;
let attacker: WebSocket;
let other: WebSocket;
const USER = USER_CHANNEL;
const open = (): Promise<WebSocket> => h.open();
const call = apiCall;
const userState = (): { step: number | undefined; tree: string } => h.userState();

beforeAll(async () => {
  // The user's proof, on the host's channel 0.
  h = await startCoqWebHost('arbor-fork-timing-', ['GOAL "forall n m : nat, n + m = m + n"', 'APPLY intros n m']);
  ({ shell } = h);
  attacker = await open();
  other = await open();
}, 120_000);

async function closeAll(): Promise<void> {
  attacker?.close();
  other?.close();
  await h?.close();
}

afterAll(async () => {
  await closeAll();
});



/** A try that takes a few seconds on the fork whatever the load: `rewrite` loops until Coq's own timeout stops it. */
const SLOW = 'APPLY (try (timeout 3 (repeat (rewrite Nat.add_comm))))';

describe('fork.try against the clock (real coqidetop, over the WebSocket)', () => {
  it('deadlines at the edges: the largest is accepted and a quick try answers; past it is refused', async () => {
    const before = userState();
    const max = (await call(attacker, 'fork.try', { channel: USER, commands: ['APPLY lia'], deadlineMs: FORK_TRY_LIMITS.deadlineMs })).result as ForkTryOutcome;
    expect(max.outcome === 'ran' && max.responses[0]?.ERR).toBe('');
    expect((await call(attacker, 'fork.try', { channel: USER, commands: ['STATE'], deadlineMs: FORK_TRY_LIMITS.deadlineMs + 1 })).error).toMatch(/^bad parameters/);
    // Far shorter than the try: answered timeout, and whatever ran on the channel's own prover was rewound.
    const cut = (await call(attacker, 'fork.try', { channel: USER, commands: [SLOW, 'APPLY lia'], deadlineMs: 200 })).result as ForkTryOutcome;
    expect(['timeout', 'ran']).toContain(cut.outcome);
    if (cut.outcome === 'ran') expect(cut.responses.at(-1)?.ERR).not.toBe('');
    expect(userState()).toEqual(before);
    const [state] = await Promise.all(shell.submitLine(`${USER} STATE`));
    expect(state?.ERR).toBe('');
    expect(state?.STEP).toBe(before.step);
  }, 180_000);

  it('the user checks while a try holds the channel: the user\'s step lands on the user\'s state, the try\'s on its fork', async () => {
    const before = userState();
    const trying = call(attacker, 'fork.try', { channel: USER, commands: [SLOW, 'APPLY (pose (fromTry := 1))'] });
    const [mine] = await Promise.all(shell.submitLine(`${USER} APPLY simpl`));
    const tried = (await trying).result as ForkTryOutcome;
    expect(tried.outcome).toBe('ran');
    expect(mine?.ERR).toBe('');
    expect(mine?.STEP).toBe((before.step ?? 0) + 1);
    expect(JSON.stringify(mine?.RESPONSE)).not.toContain('fromTry');
    const [back] = await Promise.all(shell.submitLine(`${USER} REVERT ${before.step ?? 0}`));
    expect(back?.ERR).toBe('');
    expect(userState()).toEqual(before);
  }, 180_000);

  it('the channel\'s prover killed mid-try: the try answers, the channel still serves the user at the same step', async () => {
    const before = userState();
    const pid = shell.channelStatus(USER)?.pid;
    expect(pid).toBeTypeOf('number');
    const trying = call(attacker, 'fork.try', { channel: USER, commands: [SLOW, 'APPLY lia'] });
    await vi.waitFor(() => expect(shell.channelStatus(USER)?.busy).toBe(true), { timeout: 30_000, interval: 20 });
    process.kill(-(pid as number), 'SIGKILL');
    const answer = await trying;
    // Any clear answer will do (an error, a failed step, timeout): not a hang, not a crash of the host.
    expect(answer.error !== undefined || answer.result !== undefined).toBe(true);
    const [state] = await Promise.all(shell.submitLine(`${USER} STATE`));
    expect(state?.ERR).toBe('');
    expect(state?.STEP).toBe(before.step);
    expect(userState().tree).toBe(before.tree);
    const again = (await call(other, 'fork.try', { channel: USER, commands: ['APPLY lia'] })).result as ForkTryOutcome;
    expect(again.outcome === 'ran' && again.responses[0]?.ERR).toBe('');
  }, 240_000);

  it('50 sockets, each at the limit of tries at once: each one\'s extra try is refused, the rest answer, the user does not move', async () => {
    const before = userState();
    const socks = await Promise.all(Array.from({ length: 50 }, () => open()));
    try {
      const perSocket = FORK_TRY_LIMITS.inFlightPerClient + 1;
      const answers = await Promise.all(socks.map((s) => Promise.all(Array.from({ length: perSocket }, () => call(s, 'fork.try', { channel: USER, commands: ['STATE'] })))));
      for (const mine of answers) {
        expect(mine.filter((a) => a.error !== undefined).map((a) => a.error)).toEqual([`too many tries at once: ${FORK_TRY_LIMITS.inFlightPerClient} running for this client (limit ${FORK_TRY_LIMITS.inFlightPerClient}); wait for an answer`]);
        for (const a of mine.filter((x) => x.error === undefined)) expect((a.result as ForkTryOutcome).outcome).toBe('ran');
      }
    } finally {
      for (const s of socks) s.close();
    }
    expect(userState()).toEqual(before);
  }, 600_000);

  it('every prover dies with the host', async () => {
    expect(liveProcessGroups().length).toBeGreaterThan(0);
    const groups = liveProcessGroups();
    await closeAll();
    expect(liveProcessGroups()).toEqual([]);
    const alive = (g: number): boolean => {
      try {
        process.kill(-g, 0);
        return true;
      } catch {
        return false;
      }
    };
    await vi.waitFor(() => expect(groups.filter(alive)).toEqual([]), { timeout: 30_000, interval: 100 });
  }, 120_000);
});
