import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Shell } from '../shell/shell.ts';
import { createProverEngineFactory, loadBackend } from '../supervisor/engine-factory.ts';
import type { EngineFactory } from '../supervisor/engine-factory.ts';
import { AgentSession } from './agent-session.ts';
import { EditHistory } from './edit-history.ts';
import { inProcessPort } from './in-process-port.ts';
import { createArborMcpHttpServer } from './mcp-http-server.ts';
import type { ArborMcpHttpServer } from './mcp-http-server.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const BACKEND = 'main/provers/coq/coq-backend.ts';
const hasBackend = existsSync(`${ROOT}${BACKEND}`);
const title = (what: string): string => hasBackend ? what : `${what} — SKIPPED: ${BACKEND} is missing (the Coq backend has not landed)`;

const text = (r: unknown): string => ((r as CallToolResult).content[0] as { text: string }).text;
const call = async (client: Client, name: string, args: Record<string, unknown> = {}): Promise<{ ok: boolean; text: string }> => {
  const r = await client.callTool({ name, arguments: args }, undefined, { timeout: 300_000 });
  return { ok: r.isError !== true, text: text(r) };
};

describe.skipIf(!hasBackend)(title('arbor-mcp over stdio (node bin/arbor-mcp.js, real coqidetop)'), () => {
  let client: Client;
  let stderr = '';

  beforeAll(async () => {
    const transport = new StdioClientTransport({ command: process.execPath, args: ['bin/arbor-mcp.js', '--timeout', '10'], cwd: ROOT, stderr: 'pipe' });
    transport.stderr?.on('data', (chunk: Buffer) => { stderr += String(chunk); });
    client = new Client({ name: 'stdio-agent', version: '1.0.0' });
    await client.connect(transport);
  }, 60_000);
  afterAll(async () => {
    await client?.close();
  });

  it('reads the state in the seed\'s formats', async () => {
    expect((await call(client, 'get_current_proof_state')).text).toMatch(/^no_goal: /);
    expect(await call(client, 'run_command', { command: 'GOAL "forall n : nat, n + 0 = n -> n * 1 = n"' })).toMatchObject({ ok: true });
    const intro = await call(client, 'run_command', { command: 'APPLY intros n H' });
    expect(JSON.parse(intro.text)).toMatchObject({ CHANNEL: 0, ERR: '', STEP: 2, RESPONSE: { goal: 'n * 1 = n' } });
    const state = await call(client, 'get_current_proof_state');
    expect(state.text).toMatch(/^=== CURRENT PROOF STATE ===\n\n--- Goal 1 ---\nGoal Type: n \* 1 = n\n\nHypotheses:\n {2}n : nat\n {2}H : n \+ 0 = n\n/);
    const context = await call(client, 'get_proof_context', { linesBefore: 1 });
    expect(context.text).toContain('--- Proof script (last 1 of 2 lines; channel 0, step 2) ---\n   2  APPLY intros n H');
    expect(context.text).toContain('Hypotheses of the current goal:\n  H : n + 0 = n');
    const structure = await call(client, 'get_goal_structure');
    expect(structure.text).toContain('Shape: equality (=)');
    expect(structure.text).toContain('shape: equality (=); depends on: n');
  }, 120_000);

  it('check_term_validity: valid terms, the prover\'s message for an ill-typed one, parse error for injection', async () => {
    expect(await call(client, 'check_term_validity', { term: 'assert (n + 0 = n).' })).toEqual({ ok: true, text: 'valid' });
    expect(await call(client, 'check_term_validity', { term: 'n + 0' })).toEqual({ ok: true, text: 'valid' });
    const bad = await call(client, 'check_term_validity', { term: 'n + true' });
    expect(bad.ok).toBe(false);
    expect(bad.text).toMatch(/^prover_error: .*(true|bool)/s);
    const unknown = await call(client, 'check_term_validity', { term: 'assert (no_such_constant n).' });
    expect(unknown.text).toMatch(/^prover_error: .*no_such_constant/s);
    const injection = await call(client, 'check_term_validity', { term: 'True). Redirect "/tmp/arbor-pwned" Print nat. (True' });
    expect(injection).toEqual({ ok: false, text: "injection: parse error: term contains a sentence end ('.')" });
    expect(existsSync('/tmp/arbor-pwned')).toBe(false);
  }, 180_000);

  it('suggest_proof_state_edit labels edits with the prover and queues them tagged by the client\'s name', async () => {
    const valid = await call(client, 'suggest_proof_state_edit', { hypothesisName: 'H', originalValue: 'n + 0 = n', suggestedValue: 'n = n', reason: 'n + 0 simplifies to n' });
    expect(valid.ok).toBe(true);
    expect(valid.text).toMatch(/^Suggestion #1 queued \(pending\) from agent:stdio-agent\.\nedit: "H : n \+ 0 = n" -> "H : n = n"\nlabel: valid/);
    expect(valid.text).toContain("applies as: HAVE H' \"n = n\"; END; APPLY (try (clear H; rename H' into H))");
    const invalid = await call(client, 'suggest_proof_state_edit', { hypothesisName: 'H', originalValue: 'n + 0 = n', suggestedValue: 'n = S n' });
    expect(invalid.text).toMatch(/label: invalid — the hammer could not derive the new form/);
    const typo = await call(client, 'suggest_proof_state_edit', { hypothesisName: 'H', originalValue: 'n + 0 = n', suggestedValue: 'n = true' });
    expect(typo.text).toMatch(/label: invalid — the new form does not check: /);
    expect((await call(client, 'suggest_proof_state_edit', { hypothesisName: 'Nope', originalValue: 'x', suggestedValue: 'y' })).text).toMatch(/^bad_argument: no hypothesis Nope/);
    expect((await call(client, 'suggest_proof_state_edit', { hypothesisName: 'n', originalValue: 'nat', suggestedValue: 'nat' })).text).toMatch(/^bad_argument: n is a variable/);
    const again = await call(client, 'suggest_proof_state_edit', { hypothesisName: 'H', originalValue: 'n + 0 = n', suggestedValue: 'n  =  n' });
    expect(again.text).toMatch(/^Already pending as suggestion #1/);
    const history = await call(client, 'get_edit_history');
    expect(history.text).toContain('=== EDIT HISTORY (0 edits) ===');
    expect(history.text).toContain('#1 "H : n + 0 = n" -> "H : n = n"  [valid] from agent:stdio-agent');
  }, 180_000);

  it('try_commands labels alternatives on scratch copies without touching the proof; suggest_tactics queues checked tactics', async () => {
    const tried = await call(client, 'try_commands', { alternatives: [['APPLY lia'], ['APPLY split'], ['HAVE K "n = n"'], ['APPLY (rewrite Nat.mul_1_r)', 'END'], ['APPLY shelve'], ['UNFOLD not || give_up', 'END']] });
    expect(tried.ok).toBe(true);
    const results = JSON.parse(tried.text) as { label: string; error?: string; subgoals?: string[] }[];
    // Shelving or giving up the goal never counts as closing it (the shelved goal is still open).
    expect(results.map((r) => r.label)).toEqual(['closes_goal', 'invalid', 'progress', 'closes_goal', 'invalid', 'invalid']);
    expect(results[1]?.error).toMatch(/^APPLY split: /);
    expect(results[2]?.subgoals).toEqual(['n = n', 'n * 1 = n']);
    expect((await call(client, 'get_current_proof_state')).text).toContain('(channel 0, step 2;');
    const suggested = await call(client, 'suggest_tactics', { sources: ['quick-tactics'] });
    expect(suggested.ok).toBe(true);
    expect(suggested.text).toMatch(/edit: APPLY lia\n {2}label: closes_goal/);
    expect(suggested.text).toMatch(/edit: APPLY reflexivity\n {2}label: invalid — APPLY reflexivity: /);
    expect(suggested.text).toContain('from source:quick-tactics');
    const hammered = await call(client, 'suggest_tactics', { sources: ['hammer-portfolio'] });
    expect(hammered.text).toMatch(/edit: HAMMER 10\n {2}label: closes_goal/);
    expect(hammered.text).toContain('from source:hammer-portfolio');
  }, 300_000);

  it('run_command finishes the proof; get_script and get_transcript report it', async () => {
    const end = await call(client, 'run_command', { command: 'END' });
    expect(JSON.parse(end.text)).toMatchObject({ ERR: '', STEP: 3, RESPONSE: { ctxt: { vars: [], hyps: [] }, goal: [] } });
    expect((await call(client, 'get_current_proof_state')).text).toContain('No goals: the proof is complete.');
    const script = await call(client, 'get_script');
    expect(script.text).toMatch(/Qed\./);
    expect(script.text).not.toMatch(/\bhammer\b|Admitted/);
    expect((await call(client, 'get_script', { format: 'arbor' })).text).toBe('GOAL "forall n : nat, n + 0 = n -> n * 1 = n"\nAPPLY intros n H\nEND\n');
    // get_script asked the channel for its SCRIPT: that request is in the transcript too, after the END.
    const transcript = (await call(client, 'get_transcript', { last: 6 })).text.split('\n').map((l) => JSON.parse(l));
    const endAt = transcript.findIndex((e) => e.request === '0 END');
    expect(endAt).toBeGreaterThanOrEqual(0);
    expect(transcript[endAt + 1]).toMatchObject({ response: { CHANNEL: 0, STEP: 3, ERR: '' } });
    expect(transcript.at(-1)).toMatchObject({ response: { CHANNEL: 0, ERR: '' } });
    const failed = await call(client, 'run_command', { command: 'APPLY lia' });
    expect(failed.text).toMatch(/^no_goal: no goal\n\{"CHANNEL":0/);
    expect(stderr).not.toMatch(/internal error/);
  }, 120_000);
});

describe.skipIf(!hasBackend)(title('MCP over streamable HTTP on a shared in-process shell (real coqidetop)'), () => {
  let factory: EngineFactory;
  let shell: Shell;
  let server: ArborMcpHttpServer;
  let alpha: Client;
  let beta: Client;
  const token = 'http-coq-token-0123456789';

  const connect = async (name: string): Promise<Client> => {
    const client = new Client({ name, version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
    return client;
  };

  beforeAll(async () => {
    factory = createProverEngineFactory(await loadBackend('coq'), { backend: 'coq', timeoutMs: 10_000, poolSize: 2 });
    shell = new Shell({ createEngine: (ch, prelude) => factory.createEngine(ch, prelude) });
    server = await createArborMcpHttpServer({ shell, token });
    alpha = await connect('agent-alpha');
    beta = await connect('agent-beta');
  }, 60_000);
  afterAll(async () => {
    await alpha?.close();
    await beta?.close();
    await server?.close();
    await shell?.close();
    await factory?.dispose();
  });

  it('two clients see one session; suggestions are tagged by name; accept and reject go to the edit history', async () => {
    await call(alpha, 'run_command', { command: 'GOAL "forall a b : nat, a + 0 = b -> b = a"' });
    await call(alpha, 'run_command', { command: 'APPLY intros a b Hab' });
    // The user's editor drives the same shell: the session sees its commands too.
    expect((await call(beta, 'get_current_proof_state')).text).toContain('  Hab : a + 0 = b');
    const [fromAlpha, fromBeta] = await Promise.all([
      call(alpha, 'suggest_proof_state_edit', { hypothesisName: 'Hab', originalValue: 'a + 0 = b', suggestedValue: 'a = b' }),
      call(beta, 'suggest_proof_state_edit', { hypothesisName: 'Hab', originalValue: 'a + 0 = b', suggestedValue: 'b = a' }),
    ]);
    expect(fromAlpha.text).toContain('from agent:agent-alpha');
    expect(fromAlpha.text).toContain('label: valid');
    expect(fromBeta.text).toContain('from agent:agent-beta');
    const listed = (await call(beta, 'get_suggestions', { status: 'pending' })).text;
    expect(listed).toContain('=== SUGGESTIONS (2) ===');
    expect(listed).toMatch(/\[pending\] from agent:agent-alpha/);
    expect(listed).toMatch(/\[pending\] from agent:agent-beta/);

    const session = server.session;
    const [a, b] = [session.queue.list({ from: 'agent:agent-alpha' })[0], session.queue.list({ from: 'agent:agent-beta' })[0]];
    await session.accept(a?.id ?? -1);
    session.reject(b?.id ?? -1);
    // The edit replaced the hypothesis: Hab now has its new form, and the old one is gone.
    const state = (await call(alpha, 'get_current_proof_state')).text;
    expect(state).toContain('  Hab : a = b');
    expect(state).not.toContain('a + 0 = b');
    const history = (await call(beta, 'get_edit_history')).text;
    expect(history).toContain('=== EDIT HISTORY (2 edits) ===\n\n1. "Hab : a + 0 = b" -> "Hab : a = b"\n   accepted · agent:agent-alpha');
    expect(history).toContain('2. "Hab : a + 0 = b" -> "Hab : b = a"\n   rejected · agent:agent-beta');
    expect(EditHistory.parse(session.history.serialize()).list()).toHaveLength(2);
    expect((await call(alpha, 'run_command', { command: 'END' })).text).toContain('"goal":[]');
  }, 240_000);

  it('a try that runs past the tool deadline is cut off with timeout and its copy released', async () => {
    const session = new AgentSession({ port: inProcessPort(shell), channel: 0, toolTimeoutMs: 3000 });
    try {
      await Promise.all(shell.submitLine('GOAL "forall n : nat, n = n"'));
      const before = shell.channelIds().length;
      // A loop that never ends and never grows the stack (a recursive Ltac may overflow it first on a fast machine).
      const [spin] = await session.tryCommands([['APPLY (do 1000000000 (try fail))']], { sequential: true });
      expect(spin).toMatchObject({ label: 'invalid' });
      expect(spin?.error).toMatch(/^timeout: /);
      // The next try gets a prover of its own again (a fork's warm sibling is stopped with the spinning try);
      // its first END may start the clean environment too, so it gets the default deadline.
      const next = new AgentSession({ port: inProcessPort(shell), channel: 0 });
      const ok = await next.tryCommands([['APPLY (intro n; reflexivity)']]).finally(() => next.close());
      expect(ok[0]?.label).toBe('closes_goal');
      // The spinning copy is gone; at most the idle copies remain.
      expect(shell.channelIds().length).toBeLessThanOrEqual(before + 2);
    } finally {
      await session.close();
    }
  }, 120_000);
});

describe.skipIf(!hasBackend)(title('arbor-mcp proof documents over stdio (real coqidetop)'), () => {
  let client: Client;
  beforeAll(async () => {
    const transport = new StdioClientTransport({ command: process.execPath, args: ['bin/arbor-mcp.js', '--timeout', '10'], cwd: ROOT, stderr: 'pipe' });
    client = new Client({ name: 'document-agent', version: '1.0.0' });
    await client.connect(transport);
  }, 60_000);
  afterAll(async () => {
    await client?.close();
  });

  it('documents and look-ups: search_lemmas, look_up, check_term_validity with no goal, the document\'s lemmas in get_proof_context', async () => {
    const define = await call(client, 'run_command', { command: 'DEFINE "Definition twice (l : list nat) := l ++ l."' });
    expect(JSON.parse(define.text)).toMatchObject({ ERR: '', RESPONSE: { declared: [{ name: 'twice', module: 'document' }] } });
    // No goal open: the term is checked in the document's environment.
    expect(await call(client, 'check_term_validity', { term: 'twice [1]' })).toEqual({ ok: true, text: 'valid' });
    expect((await call(client, 'check_term_validity', { term: 'twice 1' })).ok).toBe(false);
    await call(client, 'run_command', { command: 'GOAL twice_length "forall l, length (twice l) = 2 * length l"' });
    const found = JSON.parse((await call(client, 'search_lemmas', { pattern: 'length (_ ++ _)' })).text) as { results: { name: string; module?: string }[] };
    expect(found.results).toContainEqual(expect.objectContaining({ name: 'app_length', module: 'Coq.Lists.List' }));
    expect(await call(client, 'run_command', { command: 'APPLY (intros l; unfold twice; rewrite app_length; lia)' })).toMatchObject({ ok: true });
    expect(JSON.parse((await call(client, 'run_command', { command: 'END' })).text)).toMatchObject({ ERR: '', ASSUMPTIONS: [] });
    const about = JSON.parse((await call(client, 'look_up', { kind: 'about', text: 'twice_length' })).text);
    expect(about).toMatchObject({ name: 'twice_length', type: 'forall l : list nat, length (twice l) = 2 * length l', module: 'document' });
    await call(client, 'run_command', { command: 'GOAL "forall l, length (twice (twice l)) = 4 * length l"' });
    const context = await call(client, 'get_proof_context', { linesBefore: 0 });
    expect(context.text).toContain('Declared and proved earlier in this document (usable by name):\n  DEFINE Definition twice (l : list nat) := l ++ l.\n  Theorem twice_length : forall l, length (twice l) = 2 * length l');
    expect(await call(client, 'run_command', { command: 'APPLY (intros l; rewrite !twice_length; lia)' })).toMatchObject({ ok: true });
    expect(JSON.parse((await call(client, 'run_command', { command: 'END' })).text)).toMatchObject({ ERR: '' });
  }, 120_000);
});

describe.skipIf(!hasBackend)(title('try_commands judges on the statement Coq elaborated (issue 21, real coqidetop)'), () => {
  let factory: EngineFactory;
  let shell: Shell;
  beforeAll(async () => {
    factory = createProverEngineFactory(await loadBackend('coq'), { backend: 'coq', timeoutMs: 10_000, poolSize: 1 });
    shell = new Shell({ createEngine: (ch, prelude) => factory.createEngine(ch, prelude) });
  }, 60_000);
  afterAll(async () => {
    await shell?.close();
    await factory?.dispose();
  });

  it('a sequence closing False that means True is closes_goal_different_meaning, with both readings', async () => {
    const session = new AgentSession({ port: inProcessPort(shell), channel: 0, toolTimeoutMs: 60_000 });
    try {
      await Promise.all(shell.submitLine('DEFINE "Notation \\"\'False\'\\" := (True)."'));
      await Promise.all(shell.submitLine('GOAL "False"'));
      const [tried] = await session.tryCommands([['APPLY (exact I)']]);
      expect(tried, JSON.stringify(tried)).toMatchObject({ label: 'closes_goal_different_meaning', statement: { elaborated: 'Coq.Init.Logic.True', clean: 'Coq.Init.Logic.False' } });
    } finally {
      await session.close();
    }
  }, 120_000);
});
