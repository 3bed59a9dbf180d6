import { execFileSync } from 'node:child_process';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FidelityReport } from '../../shared/fidelity/fidelity-types.ts';
import { createArborMcpServer } from './mcp-server.ts';

const hasCoq = (() => {
  try { execFileSync('coqc', ['--version'], { stdio: 'ignore' }); return true; } catch { return false; }
})();

const text = (r: unknown): string => ((r as CallToolResult).content[0] as { text: string }).text;
const reportOf = (t: string): FidelityReport => JSON.parse(t.slice(t.indexOf('=== REPORT (JSON) ===\n') + 22)) as FidelityReport;

describe('check_statement_fidelity over MCP (SDK client, in memory)', () => {
  let client: Client;
  const call = async (args: Record<string, unknown>): Promise<{ ok: boolean; text: string }> => {
    const r = await client.callTool({ name: 'check_statement_fidelity', arguments: args }, undefined, { timeout: 120_000 });
    return { ok: r.isError !== true, text: text(r) };
  };

  beforeAll(async () => {
    // The fidelity tool needs no proof session: any other tool's call would fail loudly.
    const server = createArborMcpServer(() => { throw new Error('no session in this test'); });
    const [a, b] = InMemoryTransport.createLinkedPair();
    await server.connect(b);
    client = new Client({ name: 'fidelity-agent', version: '1.0.0' });
    await client.connect(a);
  });
  afterAll(async () => { await client?.close(); });

  it('is listed with its input schema', async () => {
    const { tools } = await client.listTools();
    const t = tools.find((x) => x.name === 'check_statement_fidelity');
    expect(t?.inputSchema.properties).toHaveProperty('canonical');
    expect(t?.inputSchema.required).toEqual(['canonical', 'candidate']);
  });

  it('decides an ASCII/Unicode paraphrase at S0 and an α-variant at S1, with the normalised forms', async () => {
    const s0 = await call({ canonical: 'forall n:nat, n+0=n', candidate: '∀ n : nat, n + 0 = n', tiers: ['s0', 's1'] });
    expect(s0.ok).toBe(true);
    expect(s0.text).toMatch(/^=== STATEMENT FIDELITY ===\n\nverdict: equivalent \(tier s0\)/);
    const s1 = reportOf((await call({ canonical: 'forall a b : nat, a + b = b + a', candidate: 'forall x y : nat, x + y = y + x', tiers: ['s0', 's1'] })).text);
    expect(s1).toMatchObject({ verdict: 'equivalent', tier: 's1', evidence: { kind: 'normalisation', tier: 's1' } });
    expect(s1.normalised.s1?.canonical).toBe(s1.normalised.s1?.candidate);
    const lean = reportOf((await call({ canonical: '∀ a : ℕ, a = a', candidate: '∀ (b : ℕ), b = b', backend: 'lean' })).text);
    expect(lean).toMatchObject({ verdict: 'equivalent', tier: 's1', backend: 'lean' });
  });

  it('answers bad_argument for bad input', async () => {
    expect(await call({ canonical: 'True' })).toEqual({ ok: false, text: expect.stringMatching(/^bad_argument: candidate: /) });
    expect((await call({ canonical: 'True', candidate: 'True', tiers: ['s9'] })).text).toMatch(/^bad_argument: tiers\.0: /);
    expect((await call({ canonical: 'True', candidate: 'True', timeout: -1 })).text).toMatch(/^bad_argument: timeout: /);
    expect((await call({ canonical: 'True. Print nat', candidate: 'True' })).text).toBe('bad_argument: canonical: a statement may not contain a sentence end (". ")');
  });

  it.skipIf(!hasCoq)('finds a Coq-checked counterexample with real coqc', async () => {
    const r = await call({ canonical: 'forall n : nat, P n', candidate: 'exists n : nat, P n', context: 'Variable P : nat -> Prop.', tiers: ['typecheck', 's0', 's1', 'refute'], timeout: 1 });
    expect(r.ok).toBe(true);
    expect(r.text).toMatch(/verdict: not_equivalent \(tier refute\)\n/);
    expect(r.text).toMatch(/counterexample: /);
    const report = reportOf(r.text);
    expect(report.evidence).toMatchObject({ kind: 'counterexample' });
  }, 60_000);
});
