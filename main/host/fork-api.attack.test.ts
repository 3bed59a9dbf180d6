import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WebSocket } from 'ws';
import type { ForkTryOutcome } from '../../shared/protocol/fork-try.ts';
import { FORK_TRY_LIMITS } from '../../shared/protocol/fork-try.ts';
import type { Shell } from '../shell/shell.ts';
import { apiCall, startCoqWebHost, USER_CHANNEL } from './testing/coq-web-host.ts';
import type { CoqWebHost } from './testing/coq-web-host.ts';

/**
 * Hostile `fork.try` / `fork.adopt` calls over the web host's WebSocket, against the real coqidetop: bad
 * handles, huge command lists, bad deadlines, someone else's channel, a flood. Each gets a clear error,
 * the user's channel does not move, and the host keeps serving everyone.
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
  h = await startCoqWebHost('arbor-fork-api-', ['GOAL "forall n m : nat, n + m = m + n"', 'APPLY intros n m']);
  ({ shell } = h);
  attacker = await open();
  other = await open();
}, 120_000);

afterAll(async () => {
  attacker?.close();
  other?.close();
  await h?.close();
});

describe('fork.try and fork.adopt under attack (real coqidetop, over the WebSocket)', () => {
  it('a well-formed try runs on a fork: the user\'s channel does not move', async () => {
    const before = userState();
    const r = await call(attacker, 'fork.try', { channel: USER, commands: ['APPLY lia'], endWhenProved: true });
    const outcome = r.result as ForkTryOutcome;
    expect(outcome).toMatchObject({ outcome: 'ran', step: 2 });
    expect(outcome.outcome === 'ran' && outcome.responses.map((x) => x.ERR)).toEqual(['', '']);
    expect(userState()).toEqual(before);
  }, 120_000);

  it('bad handles: an unknown channel, a stale step, malformed targets', async () => {
    expect((await call(attacker, 'fork.try', { channel: 999, commands: ['STATE'] })).error).toBe('no channel 999');
    const stale = (await call(attacker, 'fork.try', { channel: USER, step: 50, commands: ['STATE'] })).result as ForkTryOutcome;
    expect(stale).toEqual({ outcome: 'unavailable', error: 'channel 0 has no step 50' });
    for (const params of [{ channel: -1, commands: ['STATE'] }, { channel: '0', commands: ['STATE'] }, { channel: 1.5, commands: ['STATE'] },
      { channel: USER, step: -3, commands: ['STATE'] }, { channel: USER, client: 'w', uri: 'u', commands: ['STATE'] }, { commands: ['STATE'] },
      { channel: USER, commands: ['STATE'], extra: 1 }]) {
      expect((await call(attacker, 'fork.try', params)).error, JSON.stringify(params)).toMatch(/^bad parameters for fork\.try: /);
    }
    expect((await call(attacker, 'fork.try', { client: 'w', uri: 'nothing-open', commands: ['STATE'] })).error).toBe('no checked document nothing-open for client w');
    expect((await call(attacker, 'fork.adopt', { channel: 999 })).error).toBe('no channel 999');
    expect((await call(attacker, 'fork.adopt', { channel: USER, step: 99 })).error).toBe('channel 0 has no step 99');
  }, 60_000);

  it('huge or hostile command lists are refused before anything runs', async () => {
    const before = userState();
    const many = Array.from({ length: FORK_TRY_LIMITS.commands + 1 }, () => 'STATE');
    expect((await call(attacker, 'fork.try', { channel: USER, commands: many })).error).toMatch(/^bad parameters for fork\.try: commands /);
    expect((await call(attacker, 'fork.try', { channel: USER, commands: [`APPLY ${'x'.repeat(FORK_TRY_LIMITS.commandChars)}`] })).error).toMatch(/^bad parameters/);
    expect((await call(attacker, 'fork.try', { channel: USER, commands: [] })).error).toMatch(/^bad parameters/);
    const refused: [string, RegExp][] = [
      ['0 APPLY lia', /leave out the channel id/],
      ['APPLY lia; APPLY lia', /exactly one request per command/],
      ['NEW_CHANNEL', /NEW_CHANNEL is not allowed in a try/],
      ['CANCEL', /CANCEL is not allowed in a try/],
      ['PRELUDE "Axiom f : False."', /PRELUDE is not allowed in a try/],
      ['GOAL "False"', /GOAL is not allowed in a try/],
      ['DEFINE "Axiom f : False."', /DEFINE is not allowed in a try/],
    ];
    for (const [command, message] of refused) {
      expect((await call(attacker, 'fork.try', { channel: USER, commands: [command] })).error, command).toMatch(message);
    }
    // A REVERT below the try's start would make the rewind afterwards replay the document: refused inside the try.
    const revert = (await call(attacker, 'fork.try', { channel: USER, commands: ['REVERT 1'] })).result as ForkTryOutcome;
    expect(revert.outcome === 'ran' && revert.responses[0]?.ERR).toMatch(/below the step this try started from \(2\)/);
    expect(userState()).toEqual(before);
  }, 60_000);

  it('negative, zero, fractional and huge deadlines are refused; a deadline that passes answers timeout and the rest keeps serving', async () => {
    for (const deadlineMs of [-1, 0, 1.5, FORK_TRY_LIMITS.deadlineMs + 1, 1e12, 'soon']) {
      expect((await call(attacker, 'fork.try', { channel: USER, commands: ['STATE'], deadlineMs })).error, String(deadlineMs)).toMatch(/^bad parameters for fork\.try: deadlineMs /);
    }
    const before = userState();
    // 1 ms: no try answers that fast (a sibling prover is stopped; on the channel's own the rest is refused).
    const late = (await call(attacker, 'fork.try', { channel: USER, step: 1, commands: ['APPLY lia'], deadlineMs: 1 })).result as ForkTryOutcome;
    expect(late).toMatchObject({ outcome: 'timeout' });
    const lateOwn = (await call(attacker, 'fork.try', { channel: USER, commands: ['APPLY (do 50 (idtac; lia))'], deadlineMs: 1 })).result as ForkTryOutcome;
    expect(['timeout', 'ran']).toContain(lateOwn.outcome);
    expect(userState()).toEqual(before);
    const fine = (await call(other, 'fork.try', { channel: USER, commands: ['APPLY lia'] })).result as ForkTryOutcome;
    expect(fine.outcome === 'ran' && fine.responses[0]?.ERR).toBe('');
    const [next] = await Promise.all(shell.submitLine('STATE'));
    expect(next?.ERR).toBe('');
  }, 120_000);

  it('someone else\'s channel: another client\'s scratch channel and fork, and the host\'s own, are refused', async () => {
    const opened = (await call(other, 'shell.submit', { line: 'NEW_CHANNEL' })).result as { RESPONSE: { ID: number } }[];
    const theirs = opened[0]?.RESPONSE.ID as number;
    await call(other, 'shell.submit', { line: `${theirs} GOAL "1 = 1"` });
    const adopted = (await call(other, 'fork.adopt', { channel: USER })).result as { channel: number; step: number };
    expect(adopted.step).toBe(2);
    for (const channel of [theirs, adopted.channel]) {
      expect((await call(attacker, 'fork.try', { channel, commands: ['STATE'] })).error).toBe(`channel ${channel} belongs to another client: fork a document's channel or one of your own`);
      expect((await call(attacker, 'fork.adopt', { channel })).error).toMatch(/belongs to another client/);
    }
    // Its owner may.
    const own = (await call(other, 'fork.try', { channel: theirs, commands: ['APPLY reflexivity'] })).result as ForkTryOutcome;
    expect(own.outcome === 'ran' && own.responses[0]?.ERR).toBe('');
    const onAdopted = (await call(other, 'fork.try', { channel: adopted.channel, commands: ['APPLY lia'] })).result as ForkTryOutcome;
    expect(onAdopted.outcome === 'ran' && onAdopted.responses[0]?.ERR).toBe('');
    // The host's look-up channel is nobody's to fork.
    await call(other, 'proof.lookUp', { kind: 'check', text: 'nat' });
    const hostChannel = Math.max(...shell.channelIds());
    expect((await call(attacker, 'fork.try', { channel: hostChannel, commands: ['STATE'] })).error).toBe(`channel ${hostChannel} is the host's own: it is not forked`);
  }, 120_000);

  it('a flood of tries from one client: past the limit each is refused at once, the others answer, other clients go on', async () => {
    const before = userState();
    const flood = Array.from({ length: 12 }, () => call(attacker, 'fork.try', { channel: USER, commands: ['APPLY lia'] }));
    const meanwhile = call(other, 'fork.try', { channel: USER, commands: ['APPLY lia'] });
    const answers = await Promise.all(flood);
    const refused = answers.filter((a) => a.error !== undefined);
    expect(refused.length).toBe(12 - FORK_TRY_LIMITS.inFlightPerClient);
    for (const a of refused) expect(a.error).toMatch(/^too many tries at once: 4 running for this client \(limit 4\); wait for an answer$/);
    for (const a of answers.filter((x) => x.error === undefined)) expect((a.result as ForkTryOutcome).outcome).toBe('ran');
    expect(((await meanwhile).result as ForkTryOutcome).outcome).toBe('ran');
    // Once answered, the client may try again.
    expect(((await call(attacker, 'fork.try', { channel: USER, commands: ['STATE'] })).result as ForkTryOutcome).outcome).toBe('ran');
    expect(userState()).toEqual(before);
  }, 240_000);
});
