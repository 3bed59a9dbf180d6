import { afterEach, describe, expect, it } from 'vitest';
import { IsaReplClient } from './isa-repl-client.ts';
import type { ServerAddress } from './isa-repl-client.ts';
import { MinilangEngine } from './minilang-engine.ts';
import { MsgpackConnection, ReadTimeout } from './msgpack-connection.ts';
import { startIsaReplDouble } from './test-fixtures/isa-repl-double.ts';
import type { IsaReplDouble } from './test-fixtures/isa-repl-double.ts';

/**
 * Attacks on the isabelle backend's connection handling (kill closes the session, reconnect and replay, the
 * accept loop, limits), against the Isa-REPL TEST DOUBLE in this process.
 */
const doubles: IsaReplDouble[] = [];
const engines: MinilangEngine[] = [];
const silentOnes: MsgpackConnection[] = [];
afterEach(async () => {
  silentOnes.splice(0).forEach((c) => c.close());
  await Promise.all(engines.splice(0).map((e) => e.dispose()));
  await Promise.all(doubles.splice(0).map((d) => d.close()));
});

interface Rig {
  engine: MinilangEngine;
  double: IsaReplDouble;
  address: ServerAddress;
  /** Sessions the engine opened, in order. */
  connects: IsaReplClient[];
  kills: number[];
  /** Called with each new session before the engine gets it (to misbehave). */
  onConnect: { hook?: (client: IsaReplClient, n: number) => Promise<void> };
}

async function rig(timeoutMs = 300, connectMs = 5_000, graceMs = 300): Promise<Rig> {
  const double = await startIsaReplDouble({ host: '127.0.0.1', port: 0 });
  doubles.push(double);
  const address = { host: double.host, port: double.port };
  const connects: IsaReplClient[] = [];
  const kills: number[] = [];
  const onConnect: Rig['onConnect'] = {};
  const engine = new MinilangEngine({
    imports: ['Main'],
    timeoutMs,
    graceMs,
    connect: async () => {
      const client = await IsaReplClient.connect(address, 'HOL', connectMs);
      connects.push(client);
      await onConnect.hook?.(client, connects.length);
      return client;
    },
    interrupt: async (client) => {
      kills.push(client.clientId);
      await IsaReplClient.killClient(address, client.clientId, 1_000);
    },
  });
  engines.push(engine);
  return { engine, double, address, connects, kills, onConnect };
}

/** The server interrupts the session (as `kill` from anyone, or Isabelle itself, does): the connection closes. */
async function killSession(r: Rig, client: IsaReplClient): Promise<void> {
  expect(await IsaReplClient.killClient(r.address, client.clientId, 5_000)).toBe(true);
  await until(() => client.closed);
}

async function until(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > end) throw new Error('condition not reached');
    await new Promise((resolve) => setImmediate(resolve));
  }
}

describe('attack: the connection closes at every moment', () => {
  it('right after the handshake (before Minilang is set up): GOAL fails with the reason, never hangs; the next GOAL works', async () => {
    const r = await rig();
    r.onConnect.hook = async (client, n) => {
      if (n === 1) await killSession(r, client);
    };
    const first = await r.engine.execute({ name: 'GOAL', expr: 'A ⟶ A' });
    expect(first).toMatchObject({ response: null, error: expect.stringMatching(/^unavailable: the Isa-REPL server closed the session \(it does so when the session is interrupted/) });
    expect(await r.engine.execute({ name: 'GOAL', expr: 'A ⟶ A' })).toMatchObject({ error: '', step: 1 });
  }, 30_000);

  it('during the reconnect of a session closed between commands: the proof is kept, the next command replays it; no loop', async () => {
    const r = await rig();
    await r.engine.execute({ name: 'GOAL', expr: 'A ⟶ B ∧ C' });
    await r.engine.execute({ name: 'RULE', rule: 'impI' });
    // The replacement session is closed as soon as it is opened, too.
    r.onConnect.hook = async (client, n) => {
      if (n === 2) await killSession(r, client);
    };
    await killSession(r, r.connects[0] as IsaReplClient);
    const after = await r.engine.execute({ name: 'RULE', rule: 'conjI' });
    expect(after).toMatchObject({ response: null, error: expect.stringMatching(/^prover crashed: the Isa-REPL server closed the session .*; not restarted \(unavailable: the Isa-REPL server closed the session .*it closed this one while Arbor set up Minilang's REPL on it\): the next command tries again$/), step: 2 });
    expect(r.connects).toHaveLength(2);
    // The proof is kept (was: dropped, `no goal`); the next command reconnects (once) and replays it.
    expect(await r.engine.execute({ name: 'STATE' })).toMatchObject({ error: '', step: 2 });
    expect(await r.engine.execute({ name: 'RULE', rule: 'conjI' })).toMatchObject({ response: null, error: expect.stringMatching(/^prover crashed: the session was lost and Arbor could not open a new one .*; restarted at step 2$/) });
    expect(r.connects).toHaveLength(3);
    expect(await r.engine.execute({ name: 'RULE', rule: 'conjI' })).toMatchObject({ error: '', step: 3 });
  }, 30_000);

  it('a server that closes every session at once: each command answers promptly with an error, a bounded number of reconnects', async () => {
    const r = await rig();
    await r.engine.execute({ name: 'GOAL', expr: 'A ⟶ B' });
    await r.engine.execute({ name: 'RULE', rule: 'impI' });
    r.onConnect.hook = async (client, n) => {
      if (n >= 2) await killSession(r, client);
    };
    await killSession(r, r.connects[0] as IsaReplClient);
    for (const command of [{ name: 'HAMMER' as const, timeoutSeconds: 1 }, { name: 'GOAL' as const, expr: 'B' }, { name: 'GOAL' as const, expr: 'C' }]) {
      const before = r.connects.length;
      const answer = await r.engine.execute(command);
      expect(answer.response).toBeNull();
      expect(answer.error).toMatch(/^(prover crashed|unavailable): the Isa-REPL server closed the session/);
      expect(r.connects.length - before).toBeLessThanOrEqual(2);
    }
  }, 30_000);

  it('REVERT on a session closed between commands: back at the step asked for, its tree views right, the next step numbered after it', async () => {
    const r = await rig();
    await r.engine.execute({ name: 'GOAL', expr: 'A ⟶ B ∧ C' });
    const atGoal = r.engine.treeView(1);
    await r.engine.execute({ name: 'RULE', rule: 'impI' });
    const atImpI = r.engine.treeView(2);
    await r.engine.execute({ name: 'RULE', rule: 'conjI' });
    await killSession(r, r.connects[0] as IsaReplClient);
    const revert = await r.engine.execute({ name: 'REVERT', step: 2 });
    expect(revert).toMatchObject({ response: null, error: expect.stringMatching(/^prover crashed: .*; restarted at step 2$/), step: 2 });
    expect(r.engine.treeView(1)).toEqual(atGoal);
    expect(r.engine.treeView(2)).toEqual(atImpI);
    expect(r.engine.treeView(3)).toBeUndefined();
    expect(await r.engine.execute({ name: 'STATE' })).toMatchObject({ error: '', step: 2, response: { goal: 'B ∧ C' } });
    expect(await r.engine.execute({ name: 'RULE', rule: 'conjI' })).toMatchObject({ error: '', step: 3 });
    // The stamps of the new session are its own: REVERT to a replayed step works there.
    expect(await r.engine.execute({ name: 'REVERT', step: 1 })).toMatchObject({ error: '', step: 1, response: { goal: 'A ⟶ B ∧ C' } });
  }, 30_000);
});

describe('attack: a close while the finishing END asks `\\conclude`', () => {
  it('the END fails with the reason, the proof is back before it, and END again finishes it', async () => {
    const r = await rig();
    r.onConnect.hook = async (client, n) => {
      if (n !== 1) return;
      const original = client.conclude.bind(client);
      client.conclude = async (timeoutMs) => {
        await killSession(r, client);
        return original(timeoutMs);
      };
    };
    await r.engine.execute({ name: 'GOAL', expr: 'A ⟶ A' });
    await r.engine.execute({ name: 'RULE', rule: 'impI' });
    const end = await r.engine.execute({ name: 'END' });
    expect(end).toMatchObject({ response: null, error: expect.stringMatching(/^prover crashed: the Isa-REPL server closed the session .*; restarted at step 2$/), step: 2 });
    expect(r.engine.status()).toMatchObject({ step: 2, finished: false });
    const again = await r.engine.execute({ name: 'END' });
    expect(again).toMatchObject({ error: '', step: 3 });
    expect(again.script).toContain('by (min_script');
    expect(r.engine.status()).toMatchObject({ finished: true });
  }, 30_000);
});

describe('attack: the replay itself runs out of time', () => {
  it('a replayed step that answers late: its late answer is never taken for the next command\'s', async () => {
    const r = await rig(300, 5_000, 300);
    await r.engine.execute({ name: 'GOAL', expr: 'A ⟶ B ∧ C' });
    await r.engine.execute({ name: 'RULE', rule: 'impI' });
    await r.engine.execute({ name: 'RULE', rule: 'conjI' });
    // On the replacement session, the first replayed step's answer comes after Arbor stopped waiting (a loaded
    // server): that one call sends its request and gives up at once, as a read past its deadline does; the
    // server answers it anyway, later.
    r.onConnect.hook = async (client, n) => {
      if (n !== 2) return;
      const original = client.minilang.bind(client);
      let first = true;
      client.minilang = async (source, limits, timeoutMs) => {
        if (!first) return original(source, limits, timeoutMs);
        first = false;
        (client as unknown as { connection: MsgpackConnection }).connection.send('\\eval', [limits.totalMs, limits.perCommandMs, source]);
        throw new ReadTimeout(`no answer within ${timeoutMs} ms`);
      };
    };
    await killSession(r, r.connects[0] as IsaReplClient);
    const broken = await r.engine.execute({ name: 'STATE' });
    expect(broken).toMatchObject({ error: '', step: 3 });
    const after = await r.engine.execute({ name: 'RULE', rule: 'conjI' });
    expect(after.error).toMatch(/^prover crashed: .*replay stopped at step 1: no answer within \d+ ms$/);
    const state = await r.engine.execute({ name: 'STATE' });
    expect(state).toMatchObject({ error: '', step: 1, response: { goal: 'A ⟶ B ∧ C' } });
    // That session is not used again (its late answer would be taken for the next command's): the next command
    // replays on a new one, and says so.
    expect(await r.engine.execute({ name: 'RULE', rule: 'impI' })).toMatchObject({ response: null, error: 'prover crashed: Arbor closed the session whose replay did not finish; restarted at step 1' });
    // Whatever the channel claims from now on, the server agrees: each step acts on the state Arbor shows.
    expect(await r.engine.execute({ name: 'RULE', rule: 'impI' })).toMatchObject({ error: '', step: 2, response: { goal: 'B ∧ C' } });
    expect(await r.engine.execute({ name: 'RULE', rule: 'conjI' })).toMatchObject({ error: '', step: 3 });
    expect(await r.engine.execute({ name: 'REVERT', step: 2 })).toMatchObject({ error: '', step: 2, response: { goal: 'B ∧ C' } });
  }, 30_000);
});

describe('attack: the accept loop held by a silent client', () => {
  it('GOAL while another client holds the accept loop: `unavailable:` saying why and what to do, within the connect limit', async () => {
    const r = await rig(300, 800);
    silentOnes.push(await MsgpackConnection.open(r.double.host, r.double.port, 5_000));
    const started = Date.now();
    const goal = await r.engine.execute({ name: 'GOAL', expr: 'A ⟶ A' });
    expect(goal).toMatchObject({ response: null, error: expect.stringMatching(/^unavailable: the Isa-REPL server at 127\.0\.0\.1:\d+ accepted the connection but did not answer within 800 ms; .*stop that client, or restart the server$/) });
    expect(Date.now() - started).toBeLessThan(5_000);
    silentOnes.splice(0).forEach((c) => c.close());
    expect(await r.engine.execute({ name: 'GOAL', expr: 'A ⟶ A' })).toMatchObject({ error: '', step: 1 });
  }, 30_000);

  it('a step that times out while the accept loop is held: `kill` cannot get through either; the answer is still `timeout`, promptly', async () => {
    const r = await rig(300, 800);
    await r.engine.execute({ name: 'GOAL', expr: 'A ⟶ stuck P' });
    await r.engine.execute({ name: 'RULE', rule: 'impI' });
    silentOnes.push(await MsgpackConnection.open(r.double.host, r.double.port, 5_000));
    const started = Date.now();
    const hammer = await r.engine.execute({ name: 'HAMMER', timeoutSeconds: 1 });
    expect(hammer).toMatchObject({ response: null, error: 'timeout' });
    expect(Date.now() - started).toBeLessThan(8_000);
    expect(hammer.step).toBe(2);
    // The reconnect failed while the loop was held: the proof is not lost for that (was: silently gone, `no goal`).
    expect(await r.engine.execute({ name: 'STATE' })).toMatchObject({ error: '', step: 2, response: { goal: 'stuck P' } });
    silentOnes.splice(0).forEach((c) => c.close());
    // The next command opens a session, replays, and says why it did not run.
    const next = await r.engine.execute({ name: 'HAVE', expr: 'Q' });
    expect(next).toMatchObject({ response: null, error: expect.stringMatching(/^prover crashed: the session was lost and Arbor could not open a new one \(.*accepted the connection but did not answer within 800 ms.*\); restarted at step 2$/), step: 2 });
    expect(await r.engine.execute({ name: 'HAVE', expr: 'Q' })).toMatchObject({ error: '', step: 3 });
  }, 30_000);

  it('a session closed while the server cannot be reached: the proof stays; the command says it could not reconnect', async () => {
    const r = await rig(300, 800);
    await r.engine.execute({ name: 'GOAL', expr: 'A ⟶ B ∧ C' });
    await r.engine.execute({ name: 'RULE', rule: 'impI' });
    silentOnes.push(await MsgpackConnection.open(r.double.host, r.double.port, 5_000));
    // The session's connection breaks while no new one can be opened (the accept loop is held).
    (r.connects[0] as IsaReplClient).close();
    const lost = await r.engine.execute({ name: 'RULE', rule: 'conjI' });
    expect(lost).toMatchObject({ response: null, error: expect.stringMatching(/^prover crashed: .*; not restarted \(.*did not answer within 800 ms.*\): the next command tries again$/), step: 2 });
    silentOnes.splice(0).forEach((c) => c.close());
    expect(await r.engine.execute({ name: 'RULE', rule: 'conjI' })).toMatchObject({ response: null, error: expect.stringMatching(/; restarted at step 2$/) });
    expect(await r.engine.execute({ name: 'RULE', rule: 'conjI' })).toMatchObject({ error: '', step: 3 });
  }, 30_000);
});
