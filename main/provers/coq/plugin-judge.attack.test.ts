import { describe, expect, it } from 'vitest';
import { ProverError } from '../../shell/prover-session.ts';
import { coqBackend } from './coq-backend.ts';

/**
 * Attacks on END's assumption judge reading Arbor's Coq plugin (`Arbor_references`, closed-constants.ts):
 * "proved" only when every axiom and every kernel-check bypass the theorem reaches is trusted.
 */
const finishOf = async (prelude: string, goal: string, tactics: string[]): Promise<unknown> => {
  const s = await coqBackend.open({ timeoutMs: 20_000, prelude });
  try {
    await s.start(goal, 't');
    for (const tactic of tactics) await s.step({ kind: 'apply', tactic });
    return await (s.finish as () => Promise<unknown>).call(s).catch((e: unknown) => e);
  } finally {
    await s.dispose();
  }
};

describe('the theorem\'s own kernel-check flags (the plugin lists its references, never the theorem itself)', () => {
  it('a prelude that switched guard checking off: a non-guarded fix inside the proof proves nothing', async () => {
    const r = await finishOf('Unset Guard Checking.', 'False', ['exact ((fix f (n : nat) : False := f n) 0)']);
    expect(r).toBeInstanceOf(ProverError);
    expect((r as ProverError).message).toMatch(/^unsound: depends on switched-off kernel checks/);
  }, 120_000);
});
