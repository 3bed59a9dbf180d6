import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { availableParallelism } from 'node:os';
import { ShellProcess } from '../../../cli/shell-process.ts';
import { startProcess, type ManagedProcess } from '../../../process/process-manager.ts';

/** A true goal no stage proves in a few seconds (irrationality of the square root of 2, in nat). */
const HARD = 'forall n m : nat, n * n = 2 * (m * m) -> n = 0';
/** What the user's budget allows past itself: stopping what runs (interrupt, rewind). */
const STOP_MS = 1000;

/** HAMMER n answers within n seconds (+1 s to stop), idle or loaded machine (real arbor-shell, coqidetop, CoqHammer). */
describe('HAMMER budget is a wall-clock limit', () => {
  let shell: ShellProcess;
  beforeAll(() => {
    shell = new ShellProcess(['--timeout', '20', '--max-channels', '4', '--pool', '0']);
  });
  afterAll(async () => {
    expect(await shell.end()).toBe(0);
  });

  const hammerTimed = async (c: number, seconds: number): Promise<{ ms: number; err: string }> => {
    const t0 = performance.now();
    const r = await shell.request(`${c} HAMMER ${seconds}`, c);
    return { ms: performance.now() - t0, err: r.ERR };
  };

  const checkUsable = async (c: number): Promise<void> => {
    // The same goal is open, and the session still runs tactics.
    expect((await shell.request(`${c} STATE`, c)).RESPONSE).toMatchObject({ goal: HARD });
    expect((await shell.request(`${c} APPLY intros n m H`, c)).ERR).toBe('');
    expect((await shell.request(`${c} STATE`, c)).RESPONSE).toMatchObject({ goal: 'n = 0' });
  };

  it('HAMMER 3 on a goal nothing proves answers within 3 + 1 s, and the channel is usable after', async () => {
    const c = ((await shell.request('NEW_CHANNEL', 0)).RESPONSE as { ID: number }).ID;
    expect((await shell.request(`${c} GOAL "${HARD}"`, c)).ERR).toBe('');
    const { ms, err } = await hammerTimed(c, 3);
    expect(err).toMatch(/^(fail|timeout)/);
    expect(ms).toBeLessThanOrEqual(3000 + STOP_MS);
    await checkUsable(c);
  }, 60_000);

  it('also while every core is busy with a CPU-burning process', async () => {
    const burners: ManagedProcess[] = Array.from({ length: availableParallelism() + 1 }, () =>
      startProcess({ program: process.execPath, args: ['-e', 'for (;;) {}'] }));
    try {
      const c = ((await shell.request('NEW_CHANNEL', 0)).RESPONSE as { ID: number }).ID;
      expect((await shell.request(`${c} GOAL "${HARD}"`, c)).ERR).toBe('');
      for (const seconds of [3, 6]) {
        const { ms, err } = await hammerTimed(c, seconds);
        expect(err).toMatch(/^(fail|timeout)/);
        expect(ms).toBeLessThanOrEqual(seconds * 1000 + STOP_MS);
      }
      await checkUsable(c);
    } finally {
      for (const b of burners) b.kill();
      await Promise.all(burners.map((b) => b.exited));
    }
  }, 120_000);
});
