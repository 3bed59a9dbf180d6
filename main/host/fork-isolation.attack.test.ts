import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { WebSocket } from 'ws';
import type { ForkTryOutcome } from '../../shared/protocol/fork-try.ts';
import type { Shell } from '../shell/shell.ts';
import type { ApiService } from './api-service.ts';
import { apiCall, startCoqWebHost, USER_CHANNEL } from './testing/coq-web-host.ts';
import type { CoqWebHost } from './testing/coq-web-host.ts';

/**
 * Isolation between attached clients and the user's session, from an outsider's side (real coqidetop, the
 * web host's WebSocket): tries that smuggle sentences or options, other clients' channels through
 * `shell.submit`/`shell.release`, a socket that goes away mid-try.
 */
let h: CoqWebHost;
let shell: Shell;
let service: ApiService;
let attacker: WebSocket;
let other: WebSocket;
const USER = USER_CHANNEL;
const open = (): Promise<WebSocket> => h.open();
const call = apiCall;
/** Ids of frames this file sends by hand (apart from apiCall's). */
let nextId = 1_000_000;
const userState = (): { step: number | undefined; tree: string } => h.userState();

beforeAll(async () => {
  // The user's proof, on the host's channel 0.
  h = await startCoqWebHost('arbor-fork-iso-', ['GOAL "forall n m : nat, n + m = m + n"', 'APPLY intros n m']);
  ({ shell, service } = h);
  attacker = await open();
  other = await open();
}, 120_000);

afterAll(async () => {
  attacker?.close();
  other?.close();
  await h?.close();
});


async function userCheck(term: string): Promise<string> {
  const [r] = await Promise.all(shell.submitLine(`${USER} CHECK ${term}`));
  return r?.ERR ?? 'no response';
}

async function openScratch(sock: WebSocket, goal: string): Promise<number> {
  const opened = (await call(sock, 'shell.submit', { line: 'NEW_CHANNEL' })).result as { RESPONSE: { ID: number } }[];
  const id = opened[0]?.RESPONSE.ID as number;
  const [g] = (await call(sock, 'shell.submit', { line: `${id} GOAL ${JSON.stringify(goal)}` })).result as { ERR: string }[];
  expect(g?.ERR).toBe('');
  return id;
}

describe('attached clients cannot reach the user\'s session or each other\'s channels', () => {
  it('a try whose text carries sentences, options or Redirect leaves nothing behind in the user\'s session', async () => {
    const before = userState();
    const smuggled = [
      'APPLY idtac. Definition leaked1 := 1',
      'APPLY (idtac). Definition leaked2 := 2.',
      'APPLY (idtac; idtac). Set Printing All',
      'CHECK (fun x => x). Definition leaked3 := 3',
      'APPLY (assert (leaked4 : nat) by exact 4)',
      'APPLY (pose (leaked5 := 5))',
      'SEARCH Nat.add. Set Printing All.',
      'PRINT Nat.add. Redirect "x" Print nat.',
      'APPLY (idtac "Notation \\"x +++ y\\" := (x + y).")',
    ];
    for (const command of smuggled) {
      const r = await call(attacker, 'fork.try', { channel: USER, commands: [command] });
      const outcome = r.result as ForkTryOutcome | undefined;
      // Refused, or ran on the fork: either way nothing of it may stay in the user's session.
      if (outcome?.outcome === 'ran') expect(outcome.responses.length, command).toBe(1);
    }
    expect(userState()).toEqual(before);
    for (const name of ['leaked1', 'leaked2', 'leaked3', 'leaked4', 'leaked5']) expect(await userCheck(name), name).not.toBe('');
    expect(await userCheck('(1 +++ 2)')).not.toBe('');
    // No printing option survived: the state still prints with notations (`+`, not `Nat.add`).
    const [state] = await Promise.all(shell.submitLine(`${USER} STATE`));
    expect(JSON.stringify(state?.RESPONSE)).toContain('n + m');
    expect(JSON.stringify(state?.RESPONSE)).not.toContain('Nat.add');
  }, 180_000);

  it('a try that sets hypotheses and goals on the fork does not show them on the user\'s channel afterwards', async () => {
    const before = userState();
    const r = (await call(attacker, 'fork.try', { channel: USER, commands: ['APPLY (pose (sneaky := 0))', 'APPLY (clear n)'] })).result as ForkTryOutcome;
    expect(r.outcome).toBe('ran');
    expect(userState()).toEqual(before);
    const [state] = await Promise.all(shell.submitLine(`${USER} STATE`));
    expect(JSON.stringify(state?.RESPONSE)).not.toContain('sneaky');
    // An adopted fork that moves on leaks nothing back either.
    const adopted = (await call(attacker, 'fork.adopt', { channel: USER })).result as { channel: number };
    const [moved] = (await call(attacker, 'shell.submit', { line: `${adopted.channel} APPLY (pose (adoptedLeak := 1))` })).result as { ERR: string }[];
    expect(moved?.ERR).toBe('');
    const [after] = await Promise.all(shell.submitLine(`${USER} STATE`));
    expect(JSON.stringify(after?.RESPONSE)).not.toContain('adoptedLeak');
    expect(userState()).toEqual(before);
  }, 120_000);

  // shell.release stays open to every client: the channels panel (in the web host a client like any other,
  // with the same token) releases an agent's runaway channel with it. Ending a channel is all it can do.
  it('shell.submit cannot drive, poison or end another client\'s channel', async () => {
    const theirs = await openScratch(other, '2 = 2');
    const adopted = (await call(other, 'fork.adopt', { channel: USER })).result as { channel: number };
    for (const channel of [theirs, adopted.channel]) {
      const before = shell.channelStatus(channel)?.step;
      for (const line of [`${channel} CANCEL`, `${channel} DEFINE "Axiom cheat : False."`, `${channel} APPLY (exact I)`, `${channel} REVERT 0`, `STATE; ${channel} RELEASE_CHANNEL`]) {
        const r = await call(attacker, 'shell.submit', { line });
        const refused = r.error ?? (r.result as { ERR: string }[] | undefined)?.map((x) => x.ERR).join(' | ');
        expect(refused, line).toMatch(/belongs to another client/);
      }
      expect(shell.channelStatus(channel)?.step, `channel ${channel} still there, unmoved`).toBe(before);
    }
    // Its owner still may.
    const [own] = (await call(other, 'shell.submit', { line: `${theirs} APPLY reflexivity` })).result as { ERR: string }[];
    expect(own?.ERR).toBe('');
    expect((await call(other, 'shell.release', { channel: adopted.channel })).error).toBeUndefined();
  }, 120_000);

  it('an attached client cannot end or re-prelude the user\'s document\'s channel (shell.submit, shell.release)', async () => {
    await service.call('document.sync', { client: 'editor', uri: 'doc', version: 1, text: 'GOAL "forall n : nat, n + 0 = n"\nAPPLY intros n' });
    const state = await service.call('document.run', { client: 'editor', uri: 'doc', action: { kind: 'through', line: 2 } }) as { channel?: number };
    const ch = state.channel as number;
    expect(ch).toBeTypeOf('number');
    const step = shell.channelStatus(ch)?.step;
    expect(step).toBe(2);
    for (const line of [`${ch} CANCEL`, `${ch} RELEASE_CHANNEL`, `${ch} PRELUDE "Axiom cheat : False."`]) {
      const r = await call(attacker, 'shell.submit', { line });
      const answer = r.error ?? (r.result as { ERR: string }[] | undefined)?.map((x) => x.ERR).join(' | ');
      expect(answer, line).toMatch(/is a document's channel/);
    }
    expect((await call(attacker, 'shell.release', { channel: ch })).error).toMatch(/is a document's channel/);
    expect(shell.channelStatus(ch)?.step).toBe(step);
    // Proof commands still go into the document, as an attached agent's do.
    const [r] = (await call(attacker, 'shell.submit', { line: `${ch} STATE` })).result as { ERR: string }[];
    expect(r?.ERR).toBe('');
    await service.call('document.close', { client: 'editor', uri: 'doc' });
  }, 120_000);

  it('the document restarted and edited while a try runs on its channel: the try answers, the document ends up checked as the user left it', async () => {
    const SLOW = 'APPLY (try (timeout 3 (repeat (rewrite Nat.add_comm))))';
    const text = 'GOAL "forall n m : nat, n + m = m + n"\nAPPLY intros n m';
    await service.call('document.sync', { client: 'editor', uri: 'busy', version: 1, text });
    const first = await service.call('document.run', { client: 'editor', uri: 'busy', action: { kind: 'through', line: 2 } }) as { channel?: number };
    const ch = first.channel as number;
    const trying = call(attacker, 'fork.try', { client: 'editor', uri: 'busy', commands: [SLOW, 'APPLY (pose (fromTry := 1))'] });
    await vi.waitFor(() => expect(shell.channelStatus(ch)?.busy).toBe(true), { timeout: 30_000, interval: 20 });
    const restarted = service.call('document.restartProver', { client: 'editor', uri: 'busy' });
    await service.call('document.sync', { client: 'editor', uri: 'busy', version: 2, text: `${text}\nAPPLY simpl` });
    const answer = await trying;
    expect(answer.error !== undefined || answer.result !== undefined).toBe(true);
    await restarted;
    // A run right after the restart answers checked through line 3 (the test below pins it without a try).
    const after = await service.call('document.run', { client: 'editor', uri: 'busy', action: { kind: 'through', line: 3 } }) as { channel?: number; check: { entries: unknown[] } };
    expect(after.check.entries).toHaveLength(3);
    const [state] = await Promise.all(shell.submitLine(`${after.channel as number} STATE`));
    expect(state?.ERR).toBe('');
    expect(state?.STEP).toBe(3);
    expect(JSON.stringify(state?.RESPONSE)).not.toContain('fromTry');
    await service.call('document.close', { client: 'editor', uri: 'busy' });
  }, 180_000);

  // Was BROKE (document-sessions, not forks): the edit's scheduled re-check fired while this run was on line 1
  // and bumped the document's generation, so the run answered with only line 1 checked. A re-check now stops
  // nothing (DocumentSessions.recheck).
  it('document.run right after restartProver and an edit answers checked through the line asked for', async () => {
    const text = 'GOAL "forall n m : nat, n + m = m + n"\nAPPLY intros n m';
    await service.call('document.sync', { client: 'editor', uri: 'ctl', version: 1, text });
    await service.call('document.run', { client: 'editor', uri: 'ctl', action: { kind: 'through', line: 2 } });
    const restarted = service.call('document.restartProver', { client: 'editor', uri: 'ctl' });
    await service.call('document.sync', { client: 'editor', uri: 'ctl', version: 2, text: `${text}\nAPPLY simpl` });
    await restarted;
    try {
      const after = await service.call('document.run', { client: 'editor', uri: 'ctl', action: { kind: 'through', line: 3 } }) as { check: { entries: unknown[] } };
      expect(after.check.entries).toHaveLength(3);
    } finally {
      await service.call('document.close', { client: 'editor', uri: 'ctl' });
    }
  }, 180_000);

  it('a socket closed mid-try: the try ends, the user\'s channel is unmoved and answers, no prover is left behind', async () => {
    const before = userState();
    const channelsBefore = new Set(shell.channelIds());
    const quitter = await open();
    const id = nextId++;
    quitter.send(JSON.stringify({ id, method: 'fork.try', params: { channel: USER, commands: ['APPLY lia', 'STATE'] } }));
    const adopter = await open();
    const adoptId = nextId++;
    adopter.send(JSON.stringify({ id: adoptId, method: 'fork.adopt', params: { channel: USER } }));
    quitter.close();
    adopter.close();
    // Another client's try and the user's own command still answer.
    const fine = (await call(other, 'fork.try', { channel: USER, commands: ['APPLY lia'] })).result as ForkTryOutcome;
    expect(fine.outcome === 'ran' && fine.responses[0]?.ERR).toBe('');
    const [next] = await Promise.all(shell.submitLine(`${USER} STATE`));
    expect(next?.ERR).toBe('');
    expect(userState()).toEqual(before);
    // The adopted channel the closed socket would have owned is released once its call answers.
    await vi.waitFor(() => expect(shell.channelIds().filter((c) => !channelsBefore.has(c))).toEqual([]), { timeout: 60_000, interval: 200 });
  }, 120_000);
});
