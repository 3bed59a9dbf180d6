import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ShellResponse } from '../../shared/protocol/shell-command.ts';
import { AgentSession } from '../agent/agent-session.ts';
import { inProcessPort } from '../agent/in-process-port.ts';
import { createProverEngineFactory, loadBackend } from '../supervisor/engine-factory.ts';
import type { EngineFactory } from '../supervisor/engine-factory.ts';
import { Shell } from './shell.ts';
import { forksOf } from './state-forks.ts';

/**
 * Issue 22 item 2: a fork is a state handle — the channel's state after a step, adopted by a warm sibling
 * prover — for agents' tries and for `document.fork` alike. Against the real coqidetop.
 */
describe('forks as state handles (real coqidetop)', () => {
  let factory: EngineFactory;
  let shell: Shell;
  const send = async (line: string): Promise<ShellResponse> => (await Promise.all(shell.submitLine(line)))[0] as ShellResponse;
  const ok = async (line: string): Promise<ShellResponse> => {
    const r = await send(line);
    expect(r.ERR, line).toBe('');
    return r;
  };
  /** What the document on channel 0 is: its state, its step and its script. */
  const documentNow = async (): Promise<unknown> => ({ state: (await send('0 STATE')).RESPONSE, step: shell.channelStatus(0)?.step, script: (await send('0 SCRIPT')).RESPONSE });

  beforeAll(async () => {
    factory = createProverEngineFactory(await loadBackend('coq'), { backend: 'coq', timeoutMs: 20_000, poolSize: 0 });
    shell = new Shell({ createEngine: (ch, prelude) => factory.createEngine(ch, prelude) });
    await ok('0 DEFINE "Definition two := 2."');
    await ok('0 GOAL first "forall n : nat, n + 0 = n"');
    await ok('0 APPLY intro n');
    await ok('0 APPLY (induction n; simpl; congruence)');
    await ok('0 END');
    await ok('0 GOAL second "forall a b : nat, a + b = b + a"');
    await ok('0 APPLY (intros a b)');
  }, 180_000);
  afterAll(async () => {
    await shell?.close();
    await factory?.dispose();
  });

  it('a try runs on a fork and does not change the document, even when it finishes the proof', async () => {
    const before = await documentNow();
    const tried = await forksOf(shell).run(0, async (fork) => [await fork.run('APPLY lia'), await fork.run('END')]);
    expect(tried.map((r) => r.ERR)).toEqual(['', '']);
    expect(tried[1]?.RESPONSE).toMatchObject({ goal: [] });
    expect(tried[1]?.ASSUMPTIONS).toEqual([]);
    expect(await documentNow()).toEqual(before);
    // The document goes on from where it was.
    expect((await ok('0 APPLY lia')).RESPONSE).toMatchObject({ goal: 'True' });
    await ok('0 REVERT 7');
    expect(await documentNow()).toEqual(before);
  }, 180_000);

  it('tries from different steps see their own goals', async () => {
    const forks = forksOf(shell);
    const stateAt = (step: number): Promise<unknown> => forks.run(0, async (fork) => (await fork.run('STATE')).RESPONSE, { step });
    const atStart = await stateAt(2);
    const afterIntro = await stateAt(3);
    const now = await stateAt(7);
    expect(atStart).toEqual({ ctxt: { vars: [], hyps: [] }, goal: 'forall n : nat, n + 0 = n' });
    expect(afterIntro).toEqual({ ctxt: { vars: [{ name: 'n', type: 'nat' }], hyps: [] }, goal: 'n + 0 = n' });
    expect(now).toMatchObject({ goal: 'a + b = b + a' });
    // A try inside the first lemma (long finished on the document) proves it another way.
    const other = await forks.run(0, async (fork) => [await fork.run('APPLY lia'), await fork.run('END')], { step: 3 });
    expect(other.map((r) => r.ERR)).toEqual(['', '']);
  }, 180_000);

  it('a failing try leaves nothing behind: the next try starts from the handle again', async () => {
    const forks = forksOf(shell);
    const failed = await forks.run(0, async (fork) => [await fork.run('APPLY (revert a)'), await fork.run('APPLY (exact I)')]);
    expect(failed[0]?.ERR).toBe('');
    expect(failed[1]?.ERR).not.toBe('');
    const next = await forks.run(0, async (fork) => (await fork.run('STATE')).RESPONSE);
    expect(next).toEqual((await send('0 STATE')).RESPONSE);
    expect(JSON.stringify(next)).toContain('"name":"a"');
  }, 180_000);

  it('concurrent tries from two agents are isolated from each other and from the document', async () => {
    const before = await documentNow();
    const alpha = new AgentSession({ port: inProcessPort(shell), channel: 0 });
    const beta = new AgentSession({ port: inProcessPort(shell), channel: 0 });
    try {
      const [fromAlpha, fromBeta] = await Promise.all([
        alpha.tryCommands([['HAVE from_alpha "a = a"'], ['APPLY lia']]),
        beta.tryCommands([['APPLY (rename a into from_beta)'], ['APPLY (exact I)']]),
      ]);
      expect(fromAlpha.map((r) => r.label)).toEqual(['progress', 'closes_goal']);
      expect(fromBeta.map((r) => r.label)).toEqual(['progress', 'invalid']);
      const seen = (r: unknown): string => JSON.stringify(r);
      expect(seen(fromAlpha[0]?.state)).toContain('from_alpha');
      expect(seen(fromAlpha[0]?.state)).not.toContain('from_beta');
      expect(seen(fromBeta[0]?.state)).toContain('from_beta');
      expect(seen(fromBeta[0]?.state)).not.toContain('from_alpha');
      expect(await documentNow()).toEqual(before);
      // The tries are in the agents' transcripts, marked as scratch, and not in the document's.
      expect(alpha.transcript(100, true).some((e) => 'request' in e && e.scratch === true && e.request === 'APPLY lia')).toBe(true);
    } finally {
      await alpha.close();
      await beta.close();
    }
  }, 240_000);

  it('document.fork is the same concept: a channel of its own at the handle, the document untouched', async () => {
    const before = await documentNow();
    const fork = await forksOf(shell).fork(0, 3);
    expect(fork.step).toBe(3);
    expect((await send(`${fork.channel} STATE`)).RESPONSE).toEqual({ ctxt: { vars: [{ name: 'n', type: 'nat' }], hyps: [] }, goal: 'n + 0 = n' });
    expect((await send(`${fork.channel} APPLY lia`)).ERR).toBe('');
    expect((await send(`${fork.channel} END`)).RESPONSE).toMatchObject({ goal: [] });
    expect(await documentNow()).toEqual(before);
    expect((await send(`${fork.channel} RELEASE_CHANNEL`)).ERR).toBe('');
  }, 180_000);
});
