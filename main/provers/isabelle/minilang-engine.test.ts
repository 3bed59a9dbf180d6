import { afterEach, describe, expect, it } from 'vitest';
import { IsaReplClient } from './isa-repl-client.ts';
import { MinilangEngine } from './minilang-engine.ts';
import { startIsaReplDouble } from './test-fixtures/isa-repl-double.ts';
import type { IsaReplDouble } from './test-fixtures/isa-repl-double.ts';

/** The engine over the Isa-REPL TEST DOUBLE (in this process, so the test sees its sessions and log). */
const doubles: IsaReplDouble[] = [];
const engines: MinilangEngine[] = [];
afterEach(async () => {
  await Promise.all(engines.splice(0).map((e) => e.dispose()));
  await Promise.all(doubles.splice(0).map((d) => d.close()));
});

async function engineOverDouble(): Promise<{ engine: MinilangEngine; double: IsaReplDouble; kills: number[] }> {
  const double = await startIsaReplDouble({ host: '127.0.0.1', port: 0 });
  doubles.push(double);
  const address = { host: double.host, port: double.port };
  const kills: number[] = [];
  const engine = new MinilangEngine({
    imports: ['Main'],
    timeoutMs: 300,
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
