import { afterEach, describe, expect, it } from 'vitest';
import { IsaReplClient } from './isa-repl-client.ts';
import { MinilangEngine } from './minilang-engine.ts';
import { startIsaReplDouble } from './test-fixtures/isa-repl-double.ts';
import type { IsaReplDouble, IsaReplDoubleOptions } from './test-fixtures/isa-repl-double.ts';
import { ConnectionClosed, MsgpackConnection } from './msgpack-connection.ts';

/** The engine over the Isa-REPL TEST DOUBLE (in this process, so the test sees its sessions and log). */
const doubles: IsaReplDouble[] = [];
const engines: MinilangEngine[] = [];
afterEach(async () => {
  await Promise.all(engines.splice(0).map((e) => e.dispose()));
  await Promise.all(doubles.splice(0).map((d) => d.close()));
});

async function engineOverDouble(options: IsaReplDoubleOptions = {}, timeoutMs = 300): Promise<{ engine: MinilangEngine; double: IsaReplDouble; kills: number[] }> {
  const double = await startIsaReplDouble({ host: '127.0.0.1', port: 0, ...options });
  doubles.push(double);
  const address = { host: double.host, port: double.port };
  const kills: number[] = [];
  const engine = new MinilangEngine({
    imports: ['Main'],
    timeoutMs,
    graceMs: 300,
    connect: () => IsaReplClient.connect(address, 'HOL', 5_000),
    interrupt: async (client) => {
      kills.push(client.clientId);
      await IsaReplClient.killClient(address, client.clientId, 5_000);
    },
  });
  engines.push(engine);
  return { engine, double, kills };
}

describe('MinilangEngine: Arbor\'s own deadline when the server does not answer', () => {
  it('a command the server never answers: `timeout`, the session is killed, a new one replays the proof', async () => {
    const { engine, double, kills } = await engineOverDouble();
    expect(await engine.execute({ name: 'GOAL', expr: 'A ⟶ stuck P' })).toMatchObject({ error: '', step: 1 });
    expect(await engine.execute({ name: 'RULE', rule: 'impI' })).toMatchObject({ error: '', step: 2 });
    const first = double.openSessions();
    expect(first).toHaveLength(1);
    // The double ignores \eval's limit on a `stuck` goal: only Arbor's deadline (limit + grace) ends it.
    expect(await engine.execute({ name: 'HAMMER', timeoutSeconds: 1 })).toEqual({ response: null, error: 'timeout', step: 2 });
    expect(kills).toEqual(first);
    // The replacement session is at step 2 again: the state, and the next command, come from it.
    expect(double.log.filter((r) => r.kind === 'handshake')).toHaveLength(2);
    expect(await engine.execute({ name: 'STATE' })).toMatchObject({ error: '', step: 2, response: { goal: 'stuck P' } });
    expect(await engine.execute({ name: 'HAVE', expr: 'Q' })).toMatchObject({ error: '', step: 3 });
  }, 30_000);
});

describe('MinilangEngine: what the real Isa-REPL server does that a friendlier one would not', () => {
  it('`kill` ends the session: no answer, the connection closes (busy or idle)', async () => {
    const double = await startIsaReplDouble({ host: '127.0.0.1', port: 0 });
    doubles.push(double);
    const address = { host: double.host, port: double.port };
    const client = await IsaReplClient.connect(address, 'HOL', 5_000);
    // Idle (waiting for its next value): the interrupt ends it all the same.
    expect(await IsaReplClient.killClient(address, client.clientId, 5_000)).toBe(true);
    await expect(client.setTrace(false, 5_000)).rejects.toBeInstanceOf(ConnectionClosed);
    expect(client.closed).toBe(true);
    expect(double.openSessions()).toEqual([]);
  });

  it('a session the server closed between commands: the next command reconnects, replays, and says why', async () => {
    const { engine, double } = await engineOverDouble();
    await engine.execute({ name: 'GOAL', expr: 'A ⟶ B ∧ C' });
    await engine.execute({ name: 'RULE', rule: 'impI' });
    const [first] = double.openSessions();
    expect(await IsaReplClient.killClient({ host: double.host, port: double.port }, first as number, 5_000)).toBe(true);
    // STATE is answered from Arbor's history; the next command that needs the session finds it gone.
    expect(await engine.execute({ name: 'STATE' })).toMatchObject({ error: '', step: 2 });
    const after = await engine.execute({ name: 'RULE', rule: 'conjI' });
    expect(after).toMatchObject({ response: null, error: expect.stringMatching(/^prover crashed: the Isa-REPL server closed the session \(it does so when the session is interrupted, by `kill` or by Isabelle, and when it stops\); restarted at step 2$/) });
    expect(double.openSessions()).toHaveLength(1);
    expect(double.openSessions()).not.toContain(first);
    expect(await engine.execute({ name: 'STATE' })).toMatchObject({ error: '', step: 2, response: { goal: 'B ∧ C' } });
    expect(await engine.execute({ name: 'RULE', rule: 'conjI' })).toMatchObject({ error: '', step: 3 });
  }, 30_000);

  it('a session closed while a command runs (the server interrupted it): the command fails with the reason, the proof is replayed', async () => {
    const { engine, double } = await engineOverDouble({}, 20_000);
    await engine.execute({ name: 'GOAL', expr: 'A ⟶ slow P' });
    await engine.execute({ name: 'RULE', rule: 'impI' });
    const [first] = double.openSessions();
    const running = engine.execute({ name: 'HAMMER', timeoutSeconds: 20 });
    // Interrupt it from outside Arbor once it runs (as Isabelle or another client may).
    await until(() => double.runningSessions().includes(first as number));
    expect(await IsaReplClient.killClient({ host: double.host, port: double.port }, first as number, 5_000)).toBe(true);
    expect(await running).toMatchObject({ response: null, error: expect.stringMatching(/^prover crashed: the Isa-REPL server closed the session .*; restarted at step 2$/), step: 2 });
    expect(double.log).toContainEqual({ kind: '\\eval', ok: false, error: 'Interrupt: connection closed' });
    expect(await engine.execute({ name: 'STATE' })).toMatchObject({ error: '', step: 2, response: { goal: 'slow P' } });
  }, 30_000);

  it('APPLY gets the user\'s limit, not Minilang\'s own per-command limit (mini_single_cmd_timeout)', async () => {
    // Minilang's default is 15 s; here 200 ms, below the step's limit of 1.5 s.
    const { engine } = await engineOverDouble({ singleCmdTimeoutMs: 200 }, 1500);
    await engine.execute({ name: 'GOAL', expr: 'slow P' });
    const started = Date.now();
    expect(await engine.execute({ name: 'APPLY', tactic: 'auto' })).toMatchObject({ response: null, error: 'timeout', step: 1 });
    expect(Date.now() - started).toBeGreaterThanOrEqual(1400);
  }, 30_000);

  it('every historical step shows its own tree', async () => {
    const { engine } = await engineOverDouble();
    await engine.execute({ name: 'GOAL', expr: 'A ⟶ B ∧ C' });
    const atGoal = engine.treeView();
    await engine.execute({ name: 'RULE', rule: 'impI' });
    const atImpI = engine.treeView();
    await engine.execute({ name: 'RULE', rule: 'conjI' });
    expect(engine.treeView(1)).toEqual(atGoal);
    expect(engine.treeView(2)).toEqual(atImpI);
    expect(engine.treeView(3)).toEqual(engine.treeView());
    expect(engine.treeView(1)).not.toEqual(engine.treeView(3));
    expect(JSON.stringify(engine.treeView(1))).toContain('A ⟶ B ∧ C');
    expect(engine.treeView(4)).toBeUndefined();
    expect(engine.treeView(0)).toBeUndefined();
    await engine.execute({ name: 'REVERT', step: 2 });
    expect(engine.treeView(3)).toBeUndefined();
    expect(engine.treeView(2)).toEqual(atImpI);
  });

  it('a connection that sends nothing holds the server\'s accept loop; Arbor says so instead of hanging', async () => {
    const double = await startIsaReplDouble({ host: '127.0.0.1', port: 0 });
    doubles.push(double);
    const address = { host: double.host, port: double.port };
    const silent = await MsgpackConnection.open(double.host, double.port, 5_000);
    try {
      await expect(IsaReplClient.connect(address, 'HOL', 500)).rejects.toThrow(/accepted the connection but did not answer within 500 ms; it takes new connections one at a time, so a client that connected and sent nothing/);
      await expect(IsaReplClient.heartbeat(address, 500)).rejects.toThrow(/did not answer within 500 ms/);
    } finally {
      silent.close();
    }
    // Once it is gone, the server accepts again.
    await IsaReplClient.heartbeat(address, 5_000);
  });
});

/** Waits for a condition (polling the event loop, no fixed delay). */
async function until(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > end) throw new Error('condition not reached');
    await new Promise((resolve) => setImmediate(resolve));
  }
}
