import { afterAll, describe, expect, it } from 'vitest';
import { cleanEnvironment } from '../provers/coq/statement-reading.ts';
import { Shell } from '../shell/shell.ts';
import { createProverEngineFactory, loadBackend } from './engine-factory.ts';
import type { EngineFactory } from './engine-factory.ts';
import { proversBelow, until } from '../process/testing/wait-for.ts';

/**
 * A channel opens its prover on first use: a document whose first line is a PRELUDE (`PRELUDE bare`, a
 * project's prelude) starts one prover, not a default one killed at once — on two cores that start took the
 * CPU the document's own prover was booting on. The warm pool is what is started ahead. Real coqidetop.
 */
const provers = (): number[] => proversBelow();

let factory: EngineFactory | undefined;
let shell: Shell | undefined;

afterAll(async () => {
  await shell?.close();
  await factory?.dispose();
  await cleanEnvironment.dispose();
});

describe('channels start their prover on first use (real coqidetop)', () => {
  it('a channel whose first request is PRELUDE starts exactly one prover, the prelude\'s', async () => {
    factory = createProverEngineFactory(await loadBackend('coq'), { backend: 'coq', timeoutMs: 20_000, poolSize: 0 });
    const made = factory;
    shell = new Shell({ createEngine: (channel, prelude, environment) => made.createEngine(channel, prelude, environment) });
    // The clean environment (one per process, where statements are read) is up first: it is not the channel's.
    await cleanEnvironment.read('True');
    const before = provers();
    const [opened] = await Promise.all(shell.submitLine('NEW_CHANNEL'));
    const id = (opened?.RESPONSE as { ID: number }).ID;
    // Nothing asked of the channel yet: no prover for it.
    expect(provers()).toEqual(before);
    const seen = new Set<number>();
    const watch = setInterval(() => provers().forEach((p) => seen.add(p)), 20);
    try {
      const [prelude] = await Promise.all(shell.submitLine(`${id} PRELUDE bare`));
      expect(prelude?.ERR).toBe('');
      const [goal] = await Promise.all(shell.submitLine(`${id} GOAL "forall b : bool, negb (negb b) = b"`));
      expect(goal?.ERR).toBe('');
    } finally {
      clearInterval(watch);
    }
    // One prover came and stays: the bare one the GOAL ran on.
    const started = [...seen].filter((p) => !before.includes(p));
    expect(started).toHaveLength(1);
    expect(provers().filter((p) => !before.includes(p))).toEqual(started);
  }, 120_000);
});

describe('the warm pool and a project trusted after start-up (real coqidetop)', () => {
  it("the pool's prover, started without the project's load paths, is stopped once channels take the project's", async () => {
    const { mkdtemp } = await import('node:fs/promises');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const dir = await mkdtemp(join(tmpdir(), 'arbor-pool-project-'));
    let project: { args: string[]; readOnly: string[] } | undefined;
    const made = createProverEngineFactory(await loadBackend('coq'), { backend: 'coq', timeoutMs: 20_000, poolSize: 1, project: () => project });
    const own = new Shell({ createEngine: (channel, prelude, environment) => made.createEngine(channel, prelude, environment) });
    await cleanEnvironment.read('True');
    const before = provers();
    try {
      // Started with the factory: the pool's prover.
      expect(await until(() => provers().some((p) => !before.includes(p)), 60_000)).toBe(true);
      const pooled = provers().filter((p) => !before.includes(p));
      project = { args: ['-Q', dir, 'MyProj'], readOnly: [dir] };
      const [opened] = await Promise.all(own.submitLine('NEW_CHANNEL'));
      const id = (opened?.RESPONSE as { ID: number }).ID;
      const [goal] = await Promise.all(own.submitLine(`${id} GOAL "1 = 1"`));
      expect(goal?.ERR).toBe('');
      // The pool's prover is gone (the channel's own, with the project's load paths, answered the GOAL).
      expect(await until(() => pooled.every((p) => !provers().includes(p)), 60_000)).toBe(true);
    } finally {
      await own.close();
      await made.dispose();
    }
  }, 120_000);
});
