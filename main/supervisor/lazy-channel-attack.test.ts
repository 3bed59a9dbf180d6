import { afterAll, describe, expect, it } from 'vitest';
import { cpuMs } from '../process/process-tree.ts';
import { cleanEnvironment } from '../provers/coq/statement-reading.ts';
import { Shell } from '../shell/shell.ts';
import type { ProverBackend } from '../shell/prover-session.ts';
import { TacticEngine } from '../shell/tactic-engine.ts';
import { createProverEngineFactory, loadBackend } from './engine-factory.ts';
import type { EngineFactory } from './engine-factory.ts';
import { proversBelow, until } from '../process/testing/wait-for.ts';

/**
 * Attacks on lazy channel start (b2b3e0d): channels that never start a prover, a channel stopped while its
 * first prover boots, the warm pool's prover dying before any channel takes it. Real coqidetop.
 */
const provers = (): number[] => proversBelow();

/** Whether the processes' CPU time stops growing (they wait on their input) for `samples` polls in a row. */
function settled(pids: number[], samples = 12): () => boolean {
  let last = -1;
  let still = 0;
  return () => {
    const now = pids.map((p) => cpuMs(p) ?? 0).reduce((a, b) => a + b, 0);
    still = now > 0 && now === last ? still + 1 : 0;
    last = now;
    return still >= samples;
  };
}


const made: { factory: EngineFactory; shell: Shell }[] = [];

async function shellOver(poolSize: number): Promise<Shell> {
  const factory = createProverEngineFactory(await loadBackend('coq'), { backend: 'coq', timeoutMs: 20_000, poolSize });
  const shell = new Shell({ createEngine: (channel, prelude, environment) => factory.createEngine(channel, prelude, environment) });
  made.push({ factory, shell });
  return shell;
}

async function closeAll(): Promise<void> {
  for (const { shell, factory } of made.splice(0)) {
    await shell.close();
    await factory.dispose();
  }
}

const one = async (shell: Shell, line: string) => (await Promise.all(shell.submitLine(line)))[0];

afterAll(async () => {
  await closeAll();
  await cleanEnvironment.dispose();
});

describe('lazy channel start under attack (real coqidetop)', () => {
  it('many NEW_CHANNELs never used, released and cancelled, start no prover', async () => {
    await cleanEnvironment.read('True');
    const before = provers();
    const shell = await shellOver(0);
    const seen = new Set<number>();
    const watch = setInterval(() => provers().forEach((p) => seen.add(p)), 20);
    try {
      for (let i = 0; i < 30; i++) {
        const id = ((await one(shell, 'NEW_CHANNEL'))?.RESPONSE as { ID: number }).ID;
        if (i % 3 === 0) expect((await one(shell, `${id} RELEASE_CHANNEL`))?.ERR).toBe('');
        else if (i % 3 === 1) expect((await one(shell, `${id} CANCEL`))?.ERR).toBe('');
        else await Promise.all([one(shell, `${id} STATE`), one(shell, `${id} RELEASE_CHANNEL`)]);
      }
      await shell.close();
    } finally {
      clearInterval(watch);
    }
    expect([...seen].filter((p) => !before.includes(p))).toEqual([]);
    await closeAll();
  }, 60_000);

  it('a first request that is not a proof step answers clearly on a fresh channel (STATE, SCRIPT, REVERT, END)', async () => {
    const shell = await shellOver(0);
    for (const request of ['STATE', 'SCRIPT', 'REVERT 0', 'REVERT 3', 'END', 'APPLY (reflexivity)']) {
      const id = ((await one(shell, 'NEW_CHANNEL'))?.RESPONSE as { ID: number }).ID;
      const r = await one(shell, `${id} ${request}`);
      expect(r?.ERR, request).not.toBe('');
      expect(r?.ERR, request).not.toMatch(/internal error|crash/);
      expect((await one(shell, `${id} RELEASE_CHANNEL`))?.ERR).toBe('');
    }
    await closeAll();
  }, 120_000);

  // Defect: setPrelude's new engine is not the channel's until it has opened; CANCEL disposes the old (never
  // opened) engine, and the PRELUDE's prover, opened after, is disposed by nobody.
  it('CANCEL of a channel while its first PRELUDE boots leaves no prover running', async () => {
    await cleanEnvironment.read('True');
    const before = provers();
    const shell = await shellOver(0);
    const id = ((await one(shell, 'NEW_CHANNEL'))?.RESPONSE as { ID: number }).ID;
    const prelude = one(shell, `${id} PRELUDE bare`);
    // The PRELUDE's prover is booting (a coqidetop appeared): the channel is stopped now.
    expect(await until(() => provers().some((p) => !before.includes(p)), 30_000)).toBe(true);
    expect((await one(shell, `${id} CANCEL`))?.ERR).toBe('');
    await prelude;
    // Nothing of the cancelled channel may keep running (the shell is still up: no close to clean behind it).
    const gone = await until(() => provers().filter((p) => !before.includes(p)).length === 0, 20_000);
    expect(gone, `still running: ${provers().filter((p) => !before.includes(p)).join(', ')}`).toBe(true);
    await closeAll();
  }, 90_000);

  // Defect: serve() returns setPrelude's answer without the `channel.cancelled` check every other request gets.
  it('a PRELUDE running when its channel is cancelled answers `cancelled`, as the protocol says', async () => {
    await cleanEnvironment.read('True');
    const before = provers();
    const shell = await shellOver(0);
    const id = ((await one(shell, 'NEW_CHANNEL'))?.RESPONSE as { ID: number }).ID;
    const prelude = one(shell, `${id} PRELUDE bare`);
    expect(await until(() => provers().some((p) => !before.includes(p)), 30_000)).toBe(true);
    expect((await one(shell, `${id} CANCEL`))?.ERR).toBe('');
    // Seen: '' — the PRELUDE reports success on a channel that no longer exists.
    expect((await prelude)?.ERR).toBe('cancelled');
    await closeAll();
  }, 90_000);

  it('RELEASE_CHANNEL queued behind a booting PRELUDE leaves no prover running', async () => {
    await cleanEnvironment.read('True');
    const before = provers();
    const shell = await shellOver(0);
    const id = ((await one(shell, 'NEW_CHANNEL'))?.RESPONSE as { ID: number }).ID;
    const [prelude, release] = await Promise.all([one(shell, `${id} PRELUDE bare`), one(shell, `${id} RELEASE_CHANNEL`)]);
    expect(prelude?.ERR).toBe('');
    expect(release?.ERR).toBe('');
    const gone = await until(() => provers().filter((p) => !before.includes(p)).length === 0, 20_000);
    expect(gone).toBe(true);
    await closeAll();
  }, 90_000);

  // Defect: as CANCEL — close() disposes the channel's old engine, the PRELUDE's new one is left running.
  it('shell.close() while a channel\'s first PRELUDE boots leaves no prover running', async () => {
    await cleanEnvironment.read('True');
    const before = provers();
    const shell = await shellOver(0);
    const id = ((await one(shell, 'NEW_CHANNEL'))?.RESPONSE as { ID: number }).ID;
    const prelude = one(shell, `${id} PRELUDE bare`);
    expect(await until(() => provers().some((p) => !before.includes(p)), 30_000)).toBe(true);
    await shell.close();
    await prelude;
    const gone = await until(() => provers().filter((p) => !before.includes(p)).length === 0, 20_000);
    expect(gone, `still running: ${provers().filter((p) => !before.includes(p)).join(', ')}`).toBe(true);
    await closeAll();
  }, 90_000);

  it('an engine disposed before its first use never starts a prover afterwards (execute, adopt, opened)', async () => {
    const real = await loadBackend('coq');
    let opened = 0;
    const counting: ProverBackend = Object.assign(Object.create(real) as ProverBackend, {
      open: (o: Parameters<ProverBackend['open']>[0]) => {
        opened++;
        return real.open(o);
      },
    });
    const factory = createProverEngineFactory(counting, { backend: 'coq', timeoutMs: 20_000, poolSize: 0 });
    made.push({ factory, shell: new Shell({ createEngine: () => factory.createEngine(0) }) });
    const engine = factory.createEngine(1) as TacticEngine;
    expect(engine).toBeInstanceOf(TacticEngine);
    await engine.dispose();
    const goal = await engine.execute({ name: 'GOAL', expr: '1 = 1' } as Parameters<TacticEngine['execute']>[0]);
    expect(goal.error).toBeTruthy();
    expect(opened, 'execute').toBe(0);
    await engine.adopt({ backend: 'coq', records: [], printMode: 1, hypCounter: 0 }).catch(() => undefined);
    expect(opened, 'adopt').toBe(0);
    await engine.opened().catch(() => undefined);
    // A disposed engine is nobody's: whatever it opened now would run until Arbor exits.
    expect(opened).toBe(0);
    await closeAll();
  }, 60_000);

  it('the warm pool\'s prover killed (kill -9) before any channel takes it: the first GOAL still works', async () => {
    await cleanEnvironment.read('True');
    const before = provers();
    const shell = await shellOver(1);
    // The pool starts filling at creation: its prover appears with no channel at all.
    expect(await until(() => provers().some((p) => !before.includes(p)), 30_000)).toBe(true);
    const warm = provers().filter((p) => !before.includes(p));
    // Let it finish booting (so the pool holds a ready session: the prover sits idle on its input), then kill it.
    const id = ((await one(shell, 'NEW_CHANNEL'))?.RESPONSE as { ID: number }).ID;
    expect(await until(settled(warm), 60_000)).toBe(true);
    for (const pid of warm) process.kill(pid, 'SIGKILL');
    expect(await until(() => warm.every((p) => !provers().includes(p)), 10_000)).toBe(true);
    const goal = await one(shell, `${id} GOAL "forall b : bool, negb (negb b) = b"`);
    // Seen: 'prover crashed: coqidetop exited (137); restarted at step 0' — the channel did nothing yet, and the
    // pool handed it a prover that had died while waiting (before b2b3e0d the first channel opened its own).
    expect(goal?.ERR).toBe('');
    const step = await one(shell, `${id} APPLY (intros b; destruct b; reflexivity)`);
    expect(step?.ERR).toBe('');
    const end = await one(shell, `${id} END`);
    expect(end?.ERR).toBe('');
    await closeAll();
  }, 120_000);
});
