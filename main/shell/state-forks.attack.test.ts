import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ShellResponse } from '../../shared/protocol/shell-command.ts';
import { createProverEngineFactory, loadBackend } from '../supervisor/engine-factory.ts';
import type { EngineFactory } from '../supervisor/engine-factory.ts';
import { Shell } from './shell.ts';
import { ForkTimeout, ForkUnavailable, forksOf } from './state-forks.ts';

/**
 * Attacks on forks as state handles, against the real coqidetop: a try never changes the document nor
 * another try, whatever it sends (REVERT, DEFINE, a new GOAL), whenever it starts (while another try holds
 * the channel's own prover), and on whatever channel (released, reverted).
 */
describe('forks under attack (real coqidetop)', () => {
  let factory: EngineFactory;
  let shell: Shell;
  const send = async (line: string): Promise<ShellResponse> => (await Promise.all(shell.submitLine(line)))[0] as ShellResponse;
  const ok = async (line: string): Promise<ShellResponse> => {
    const r = await send(line);
    expect(r.ERR, line).toBe('');
    return r;
  };
  const documentNow = async (): Promise<unknown> => ({ state: (await send('0 STATE')).RESPONSE, step: shell.channelStatus(0)?.step, script: (await send('0 SCRIPT')).RESPONSE });

  beforeAll(async () => {
    factory = createProverEngineFactory(await loadBackend('coq'), { backend: 'coq', timeoutMs: 20_000, poolSize: 0 });
    shell = new Shell({ createEngine: (ch, prelude) => factory.createEngine(ch, prelude) });
    await ok('0 GOAL first "forall n : nat, n + 0 = n"');
    await ok('0 APPLY intro n');
    await ok('0 HAMMER');
    await ok('0 END');
    await ok('0 GOAL second "forall a b : nat, a + b = b + a"');
    await ok('0 APPLY (intros a b)');
  }, 240_000);
  afterAll(async () => {
    await shell?.close();
    await factory?.dispose();
  });

  it('a try started while another try holds the channel\'s own prover starts from the document, not from the other try', async () => {
    const forks = forksOf(shell);
    const documentState = (await send('0 STATE')).RESPONSE;
    let second: Promise<unknown> | undefined;
    await forks.run(0, async (fork) => {
      expect((await fork.run('APPLY (rename a into from_first_try)')).ERR).toBe('');
      // Meanwhile another agent tries from the document's state now.
      second = forks.run(0, async (other) => (await other.run('STATE')).RESPONSE);
      await second;
    });
    expect(JSON.stringify(await second)).not.toContain('from_first_try');
    expect(await second).toEqual(documentState);
  }, 240_000);

  it('document.fork while a try holds the channel\'s own prover forks the document\'s state', async () => {
    const forks = forksOf(shell);
    const documentState = (await send('0 STATE')).RESPONSE;
    let forked: { channel: number; step: number } | undefined;
    await forks.run(0, async (fork) => {
      expect((await fork.run('APPLY (rename b into from_try)')).ERR).toBe('');
      forked = await forks.fork(0);
    });
    const f = forked as { channel: number; step: number };
    expect(f.step).toBe(shell.channelStatus(0)?.step);
    expect((await send(`${f.channel} STATE`)).RESPONSE).toEqual(documentState);
    await send(`${f.channel} RELEASE_CHANNEL`);
  }, 240_000);

  it('a try that REVERTs, DEFINEs or starts a new GOAL leaves the document as it was', async () => {
    const before = await documentNow();
    const answers = await forksOf(shell).run(0, async (fork) => [
      await fork.run('REVERT 1'),
      await fork.run('DEFINE "Definition leaked_by_try := 5."'),
      await fork.run('GOAL leaked_theorem "True"'),
      await fork.run('END'),
    ]);
    expect(answers.map((r) => r.ERR)).toEqual(['', '', '', '']);
    expect(await documentNow()).toEqual(before);
    expect((await send('0 CHECK "leaked_by_try"')).ERR).not.toBe('');
    expect((await send('0 CHECK "leaked_theorem"')).ERR).not.toBe('');
    // The document goes on and finishes as before.
    expect((await send('0 APPLY lia')).ERR).toBe('');
    expect((await send('0 END')).ERR).toBe('');
    await ok('0 REVERT 6');
    expect(await documentNow()).toEqual(before);
  }, 240_000);

  it('a try after the document REVERTs sees the reverted state; the HAMMER step is replayed by adopt', async () => {
    const forks = forksOf(shell);
    // Steps: 1 GOAL first, 2 intro, 3 HAMMER, 4 END, 5 GOAL second, 6 intros.
    await ok('0 REVERT 2');
    const atTwo = (await send('0 STATE')).RESPONSE;
    // The sibling holds the later state (it followed the channel); it must come back to step 2.
    expect(await forks.run(0, async (fork) => (await fork.run('STATE')).RESPONSE, { step: 2 })).toEqual(atTwo);
    expect(await forks.run(0, async (fork) => (await fork.run('STATE')).RESPONSE)).toEqual(atTwo);
    // Forward again, through HAMMER's step: a fork at step 3 holds the proved leaf.
    await ok('0 HAMMER');
    const atThree = (await send('0 STATE')).RESPONSE;
    expect(await forks.run(0, async (fork) => (await fork.run('STATE')).RESPONSE, { step: 3 })).toEqual(atThree);
    // A fork at the end replays the HAMMER step as its script: its SCRIPT is the document's.
    const script = (await send('0 SCRIPT')).RESPONSE;
    expect(await forks.run(0, async (fork) => (await fork.run('SCRIPT')).RESPONSE, { step: 3 })).toEqual(script);
    await ok('0 END');
    await ok('0 GOAL second "forall a b : nat, a + b = b + a"');
    await ok('0 APPLY (intros a b)');
    expect(shell.channelStatus(0)?.step).toBe(6);
  }, 240_000);

  it('twenty concurrent tries each see the document\'s state and their own step only', async () => {
    const forks = forksOf(shell);
    const before = await documentNow();
    const tries = Array.from({ length: 20 }, (_, i) => forks.run(0, async (fork) => {
      const renamed = await fork.run(`APPLY (rename a into try_${i})`);
      const state = await fork.run('STATE');
      return { err: renamed.ERR, state: JSON.stringify(state.RESPONSE) };
    }));
    const results = await Promise.all(tries);
    results.forEach((r, i) => {
      expect(r.err).toBe('');
      expect(r.state).toContain(`try_${i}`);
      expect([...new Set(r.state.match(/try_\d+/g))]).toEqual([`try_${i}`]);
    });
    expect(await documentNow()).toEqual(before);
  }, 600_000);

  it('a try on a channel that is released, or never existed, is refused', async () => {
    const opened = await shell.openChannel();
    const id = opened.ok ? opened.opened as number : -1;
    await ok(`${id} GOAL "True"`);
    await shell.release(id);
    await expect(forksOf(shell).run(id, async (fork) => fork.run('STATE'))).rejects.toBeInstanceOf(ForkUnavailable);
    await expect(forksOf(shell).fork(id)).rejects.toBeInstanceOf(ForkUnavailable);
    await expect(forksOf(shell).run(9999, async (fork) => fork.run('STATE'))).rejects.toBeInstanceOf(ForkUnavailable);
  }, 240_000);
});

describe('forks that time out or lose their channel (real coqidetop)', () => {
  let factory: EngineFactory;
  let shell: Shell;
  const send = async (line: string): Promise<ShellResponse> => (await Promise.all(shell.submitLine(line)))[0] as ShellResponse;
  const HARD = 'forall f : nat -> nat, (forall n, f (f n) = n + 1) -> f 0 = 7';

  beforeAll(async () => {
    factory = createProverEngineFactory(await loadBackend('coq'), { backend: 'coq', timeoutMs: 20_000, poolSize: 0 });
    shell = new Shell({ createEngine: (ch, prelude) => factory.createEngine(ch, prelude) });
    expect((await send(`0 GOAL hard "${HARD}"`)).ERR).toBe('');
    expect((await send('0 APPLY intro f')).ERR).toBe('');
  }, 240_000);
  afterAll(async () => {
    await shell?.close();
    await factory?.dispose();
  });

  // BREAK LEFT (not the fork's): a HAMMER that ends in `timeout` leaves coqidetop's answers out of step with
  // the client — the next command answers `timeout`, then `coqidetop XML: expected <union>`, or `Stm.add called
  // for a different state` — so the document's next command after such a try fails. Reproduced on stdio
  // without any fork (arbor-shell.attack.test.ts, "a HAMMER that times out"). Intermittent (a race with the interrupt; seen in 7 of 9 runs of this input from a shell under load, never with HAMMER 1 nor in 3 runs under vitest; it needs the deadline to fall inside a particular stage), was skipped; the cause (HAMMER's premise look-ahead outside the session's log and deadline) is fixed, so it runs.
  it('a try past its deadline on the channel\'s own prover is refused, and the document is as it was', async () => {
    const before = { state: (await send('0 STATE')).RESPONSE, step: shell.channelStatus(0)?.step };
    const t0 = Date.now();
    await expect(forksOf(shell).run(0, async (fork) => [await fork.run('HAMMER 5'), await fork.run('APPLY (intro H)')], { deadlineMs: 1000 })).rejects.toBeInstanceOf(ForkTimeout);
    expect(Date.now() - t0).toBeLessThan(15_000);
    // The document's next command waits for the running step (its own limit), then sees its own state.
    expect({ state: (await send('0 STATE')).RESPONSE, step: shell.channelStatus(0)?.step }).toEqual(before);
    expect((await send('0 APPLY (intro H)')).ERR).toBe('');
    expect((await send('0 REVERT 2')).ERR).toBe('');
  }, 240_000);

  it('a try past its deadline on a sibling stops that prover; the next try starts from the handle', async () => {
    await expect(forksOf(shell).run(0, async (fork) => fork.run('HAMMER 30'), { step: 2, deadlineMs: 1500 })).rejects.toBeInstanceOf(ForkTimeout);
    const next = await forksOf(shell).run(0, async (fork) => (await fork.run('STATE')).RESPONSE, { step: 2 });
    expect(next).toEqual((await send('0 STATE')).RESPONSE);
  }, 240_000);

  it('cancelling the channel while a try holds its prover ends the try and nothing hangs', async () => {
    let started!: () => void;
    const running = new Promise<void>((resolve) => { started = resolve; });
    const attempt = forksOf(shell).run(0, async (fork) => {
      started();
      return fork.run('HAMMER 30');
    });
    await running;
    expect((await shell.cancel(0)).ok).toBe(true);
    const outcome = await attempt.then((r) => r.ERR, (e: unknown) => `rejected: ${(e as Error).message}`);
    expect(outcome).not.toBe('');
    expect(shell.channelIds()).not.toContain(0);
    await expect(forksOf(shell).run(0, async (fork) => fork.run('STATE'))).rejects.toBeInstanceOf(ForkUnavailable);
  }, 240_000);
});
