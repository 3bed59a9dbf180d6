import { existsSync } from 'node:fs';
import type { AddressInfo, Server } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startAdvisorServer } from './advisor-server.ts';
import { parseArticle } from './article.ts';
import { DEFAULT_PRELUDE } from './default-prelude.ts';
import { eqBackend } from './eq-backend.ts';
import { EPROVER } from './eprover.ts';
import { hammer, parseAdvisorAddress } from './hammer.ts';
import { parseEquation } from './parse-term.ts';
import { TermBank } from './term.ts';

const hasE = existsSync(EPROVER);
const servers: Server[] = [];
afterEach(() => {
  for (const s of servers.splice(0)) s.close();
});

const setup = (goalText: string) => {
  const bank = new TermBank();
  const article = parseArticle(bank, DEFAULT_PRELUDE);
  return { bank, axioms: article.equations, goal: parseEquation(bank, goalText, { names: 'constants' }) };
};

describe('hammer portfolio', () => {
  it.skipIf(!hasE)('parallel: E beside own completion; with ownToEnd both results are reported', async () => {
    const { bank, axioms, goal } = setup('x / (y \\ x) = y');
    const r = await hammer(bank, axioms, goal, { timeoutMs: 15_000, articleText: DEFAULT_PRELUDE, ownToEnd: true });
    expect(r.proof).toBeDefined();
    expect(r.own?.solved).toBe(true);
    // E either proved it or was stopped because own completion was first
    expect(r.e).toBeDefined();
    expect(r.by === 'eprover' ? r.e?.replayed : r.by === 'completion').toBe(true);
    expect(r.ms).toBeLessThanOrEqual(r.own?.ms ?? Infinity);
  });
  it('sequential without E: own completion alone, and nothing for a false goal', async () => {
    const { bank, axioms, goal } = setup('x / (y \\ x) = y');
    const r = await hammer(bank, axioms, goal, { timeoutMs: 15_000, articleText: DEFAULT_PRELUDE, useE: false, mode: 'sequential' });
    expect(r.by).toBe('completion');
    const f = setup('x * y = y * x');
    const t0 = Date.now();
    const no = await hammer(f.bank, f.axioms, f.goal, { timeoutMs: 1500, articleText: DEFAULT_PRELUDE });
    expect(no.proof).toBeUndefined();
    expect(Date.now() - t0).toBeLessThan(5000);
  });
  it('parses advisor addresses', () => {
    expect(parseAdvisorAddress('127.0.0.1:12159')).toEqual({ host: '127.0.0.1', port: 12159 });
    expect(parseAdvisorAddress('localhost')).toBeUndefined();
    expect(parseAdvisorAddress('h:0')).toBeUndefined();
  });
});

describe('eq session with an advisor (backendOptions.advisor)', () => {
  it('HAMMER asks the advisor first and closes the goal with its proof', async () => {
    const serverBank = new TermBank();
    const server = await startAdvisorServer({ port: 0, bank: serverBank, equations: parseArticle(serverBank, DEFAULT_PRELUDE).equations });
    servers.push(server);
    const port = (server.address() as AddressInfo).port;
    const s = await eqBackend.open({ timeoutMs: 10_000, backendOptions: { advisor: `127.0.0.1:${port}` } });
    await s.start('e * ((x * e) * e) = x');
    const o = await s.step({ kind: 'hammer', timeoutMs: 10_000 });
    expect(o.goals).toEqual([]);
    expect(o.messages?.join(' ')).toMatch(/advisor found a proof/);
  });
  it('an unreachable advisor only costs its share; a malformed address is refused', async () => {
    const s = await eqBackend.open({ timeoutMs: 10_000, backendOptions: { advisor: '127.0.0.1:1' } });
    await s.start('x / (y \\ x) = y');
    const o = await s.step({ kind: 'hammer', timeoutMs: 10_000 });
    expect(o.goals).toEqual([]);
    expect(o.messages?.join(' ')).toMatch(/advisor: .*continuing without advice/);
    await expect(eqBackend.open({ timeoutMs: 1000, backendOptions: { advisor: 'nonsense' } })).rejects.toMatchObject({ code: 'parse' });
  });
});
