import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ChannelEngine, EngineResult } from './channel-engine.ts';
import { Shell } from './shell.ts';

/**
 * A unit-test double of a channel engine (never used by the product): `APPLY wait N` takes N ms,
 * every command answers with its own name and the channel, so ordering and routing are visible.
 */
class EngineDouble implements ChannelEngine {
  disposed = false;
  constructor(readonly channel: number, readonly prelude?: string) {}
  async execute(command: Parameters<ChannelEngine['execute']>[0]): Promise<EngineResult> {
    if (command.name === 'APPLY') {
      const ms = Number(/wait (\d+)/.exec(command.tactic)?.[1] ?? 0);
      await new Promise((r) => setTimeout(r, ms));
      if (this.disposed) return { response: null, error: 'bad channel' };
    }
    if (command.name === 'GOAL') return { response: { on: this.channel, prelude: this.prelude ?? null }, error: '', step: 1 };
    return { response: command.name, error: '', step: 2 };
  }
  treeView() {
    return undefined;
  }
  status() {
    return { backend: 'coq' as const, busy: false, step: 0, finished: false };
  }
  async dispose(): Promise<void> {
    this.disposed = true;
  }
}

const newShell = (options: { maxChannels?: number; maxQueued?: number } = {}) =>
  new Shell({ createEngine: (channel, prelude) => new EngineDouble(channel, prelude), maxChannels: 16, ...options });
const all = (shell: Shell, line: string) => Promise.all(shell.submitLine(line));

describe('Shell', () => {
  it('serves channel 0 at start and answers every request of a line', async () => {
    const shell = newShell();
    const rs = await all(shell, 'GOAL "x"; STATE;; FOO');
    expect(rs).toEqual([
      { CHANNEL: 0, RESPONSE: { on: 0, prelude: null }, ERR: '', STEP: 1 },
      { CHANNEL: 0, RESPONSE: 'STATE', ERR: '', STEP: 2 },
      { CHANNEL: 0, RESPONSE: null, ERR: 'unknown command: FOO' },
    ]);
  });

  it('creates and releases channels; unknown or released ids are bad channels', async () => {
    const shell = newShell();
    const [a, b] = await all(shell, '7 NEW_CHANNEL; NEW_CHANNEL');
    expect(a).toEqual({ CHANNEL: 7, RESPONSE: { ID: 1 }, ERR: '' });
    expect(b?.RESPONSE).toEqual({ ID: 2 });
    expect((await all(shell, '1 GOAL "y"'))[0]?.RESPONSE).toEqual({ on: 1, prelude: null });
    expect(await all(shell, '1 RELEASE_CHANNEL')).toEqual([{ CHANNEL: 1, RESPONSE: null, ERR: '' }]);
    expect(await all(shell, '1 STATE; 99 STATE; 1 RELEASE_CHANNEL')).toEqual([
      { CHANNEL: 1, RESPONSE: null, ERR: 'bad channel' },
      { CHANNEL: 99, RESPONSE: null, ERR: 'bad channel' },
      { CHANNEL: 1, RESPONSE: null, ERR: 'bad channel' },
    ]);
    // The shell keeps running with every channel released, and can open new ones.
    await all(shell, '0 RELEASE_CHANNEL; 2 RELEASE_CHANNEL');
    expect(shell.channelIds()).toEqual([]);
    expect((await all(shell, 'NEW_CHANNEL'))[0]?.RESPONSE).toEqual({ ID: 3 });
  });

  it('keeps request order within a channel and runs channels in parallel', async () => {
    const shell = newShell();
    await all(shell, 'NEW_CHANNEL');
    const order: string[] = [];
    const track = (line: string) => shell.submitLine(line).map((p) => p.then((r) => order.push(`${r.CHANNEL}:${String(r.RESPONSE)}`)));
    await Promise.all([...track('APPLY wait 60; STATE'), ...track('1 APPLY wait 5; 1 SCRIPT')]);
    expect(order).toEqual(['1:APPLY', '1:SCRIPT', '0:APPLY', '0:STATE']);
  });

  it('serves the requests before a RELEASE_CHANNEL normally, then the release, then bad channel, all in order', async () => {
    const shell = newShell();
    const order: string[] = [];
    const ps = shell.submitLine('APPLY wait 50; STATE; RELEASE_CHANNEL; STATE; FROBNICATE')
      .map((p) => p.then((r) => { order.push(`${r.RESPONSE === null ? 'null' : String(r.RESPONSE)}/${r.ERR}`); }));
    await Promise.all(ps);
    expect(order).toEqual(['APPLY/', 'STATE/', 'null/', 'null/bad channel', 'null/bad channel']);
    // Once its queue is empty the channel is gone: a later request has nothing to wait for.
    expect(await all(shell, 'STATE')).toEqual([{ CHANNEL: 0, RESPONSE: null, ERR: 'bad channel' }]);
  });

  it('answers parse errors and unknown commands in their turn, not before earlier requests', async () => {
    const shell = newShell();
    const order: string[] = [];
    const ps = ['APPLY wait 40', 'GOAL "open', 'FROBNICATE; STATE'].flatMap((line) => shell.submitLine(line)).map((p) => p.then((r) => order.push(r.ERR || String(r.RESPONSE))));
    await Promise.all(ps);
    expect(order).toEqual(['APPLY', 'parse error: unclosed quote', 'unknown command: FROBNICATE', 'STATE']);
  });

  it('caps open channels: NEW_CHANNEL beyond the limit answers an error; releasing makes room', async () => {
    const shell = newShell({ maxChannels: 3 });
    const created = await all(shell, 'NEW_CHANNEL; NEW_CHANNEL; NEW_CHANNEL');
    expect(created.map((r) => r.ERR)).toEqual(['', '', 'too many channels: 3 open (limit 3); release one first']);
    await all(shell, '1 RELEASE_CHANNEL');
    expect((await all(shell, 'NEW_CHANNEL'))[0]?.RESPONSE).toEqual({ ID: 3 });
  });

  it('CANCEL stops a channel out of band: running and queued requests answer cancelled, in order', async () => {
    const shell = newShell();
    const order: string[] = [];
    const ps = shell.submitLine('APPLY wait 10000; STATE').map((p) => p.then((r) => order.push(r.ERR)));
    const cancelled = await all(shell, 'CANCEL');
    expect(cancelled).toEqual([{ CHANNEL: 0, RESPONSE: null, ERR: '' }]);
    await Promise.all(ps);
    expect(order).toEqual(['cancelled', 'cancelled']);
    expect(await all(shell, 'STATE')).toEqual([{ CHANNEL: 0, RESPONSE: null, ERR: 'bad channel' }]);
  });

  it('a flood past the queue limit answers busy, in order, and the shell keeps serving', async () => {
    const shell = newShell({ maxQueued: 5 });
    const rs = await all(shell, Array.from({ length: 8 }, () => 'APPLY wait 1').join('; '));
    expect(rs.map((r) => r.ERR)).toEqual(['', '', '', '', '', ...Array.from({ length: 3 }, () => expect.stringMatching(/^busy: /))]);
    expect((await all(shell, 'STATE'))[0]?.ERR).toBe('');
  });

  it('PRELUDE replaces the channel\'s engine with one using that prelude', async () => {
    const shell = newShell();
    expect(await all(shell, 'PRELUDE "Require Import ZArith."')).toEqual([{ CHANNEL: 0, RESPONSE: null, ERR: '' }]);
    expect((await all(shell, 'GOAL "x"'))[0]?.RESPONSE).toEqual({ on: 0, prelude: 'Require Import ZArith.' });
  });

  it('keeps the channel\'s engine when its factory refuses a prelude', async () => {
    const shell = new Shell({
      createEngine: (channel, prelude) => {
        if (prelude?.includes('Redirect')) throw new Error('parse error: prelude sentence not allowed: Redirect');
        return new EngineDouble(channel, prelude);
      },
    });
    expect(await all(shell, 'PRELUDE "Redirect \\"x\\" Print nat."')).toEqual([{ CHANNEL: 0, RESPONSE: null, ERR: 'parse error: prelude sentence not allowed: Redirect' }]);
    expect((await all(shell, 'GOAL "x"'))[0]?.RESPONSE).toEqual({ on: 0, prelude: null });
  });

  it('reports parse errors on the channel the request named', async () => {
    const shell = newShell();
    expect(await all(shell, '5 GOAL "open')).toEqual([{ CHANNEL: 5, RESPONSE: null, ERR: 'parse error: unclosed quote' }]);
    expect(await all(shell, '5 GOAL "closed"')).toEqual([{ CHANNEL: 5, RESPONSE: null, ERR: 'bad channel' }]);
    expect(await shell.rejectOverlong(10_000_000)).toEqual({ CHANNEL: 0, RESPONSE: null, ERR: 'parse error: request too long (10000000 characters)' });
    // An overlong line answers on the channel its first characters name, where its client waits.
    expect(await shell.rejectOverlong(10_000_000, '5 DEFINE "xxxx')).toEqual({ CHANNEL: 5, RESPONSE: null, ERR: 'parse error: request too long (10000000 characters)' });
  });

  it('emits request and response events for transcripts', async () => {
    const shell = newShell();
    const events: string[] = [];
    shell.onEvent((e) => events.push(e.kind));
    await all(shell, 'STATE');
    expect(events).toEqual(['request', 'response']);
  });

  it('answers every request exactly once and each channel in request order, whatever the interleaving (property)', async () => {
    const request = fc.oneof(
      fc.integer({ min: 0, max: 30 }).map((ms) => `APPLY wait ${ms}`),
      fc.constantFrom('STATE', 'SCRIPT', 'FROBNICATE', 'GOAL "open', 'GOAL "x"', 'RELEASE_CHANNEL', 'LET ?x = "1"', ';;'),
    );
    await fc.assert(fc.asyncProperty(fc.array(fc.tuple(fc.integer({ min: 0, max: 3 }), request), { minLength: 1, maxLength: 40 }), async (script) => {
      const shell = newShell();
      await all(shell, 'NEW_CHANNEL; NEW_CHANNEL; NEW_CHANNEL');
      const answered: { channel: number; index: number }[] = [];
      const sent = new Map<number, number>();
      const promises = script.flatMap(([channel, text]) => shell.submitLine(`${channel} ${text}`).map((p) => {
        const index = sent.get(channel) ?? 0;
        sent.set(channel, index + 1);
        return p.then((r) => {
          expect(r.CHANNEL).toBe(channel);
          answered.push({ channel, index });
        });
      }));
      await Promise.all(promises);
      for (const [channel, count] of sent) {
        expect(answered.filter((a) => a.channel === channel).map((a) => a.index)).toEqual(Array.from({ length: count }, (_, i) => i));
      }
      await shell.close();
    }), { numRuns: 30 });
  });
});
