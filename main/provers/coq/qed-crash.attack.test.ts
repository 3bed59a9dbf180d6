import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProverSession } from '../../shell/prover-session.ts';
import { ProverError } from '../../shell/prover-session.ts';
import { descendants } from '../../process/process-tree.ts';
import { coqBackend } from './coq-backend.ts';

/** The coqidetop process itself: the session's pid is its process group's leader (bwrap, when sandboxed). */
const coqidetopOf = (leader: number): number => (leader && descendants(leader).find((p) => /coqidetop/.test(p.name))?.pid) || leader;

/**
 * Attack on END's one exchange (Qed, Goal, Set Printing All, Print, Check, Edit_at): coqidetop dies while it is
 * in flight. The END fails as a crash, nothing of the Qed is kept, and the proof is open again on a new
 * coqidetop, where END then succeeds (the reading is asked again there, not taken from the dead one).
 */
describe('coqidetop killed during END (real coqidetop)', () => {
  let s: ProverSession;
  beforeAll(async () => {
    s = await coqBackend.open({ timeoutMs: 5000 });
  }, 60_000);
  afterAll(async () => {
    await s.dispose();
  });

  it('crashed, the proof open again, then END closes it with its assumptions and statement', async () => {
    await s.start('forall n : nat, n + 0 = n', 'killed_qed');
    const done = await s.step({ kind: 'apply', tactic: 'intros n; induction n; simpl; congruence' });
    expect(done.goals).toEqual([]);
    const pid = s.pid as number;
    const ending = (s.finish as () => Promise<unknown>).call(s);
    process.kill(coqidetopOf(pid), 'SIGKILL');
    const err = await ending.then(() => undefined, (e: unknown) => e);
    expect(err).toBeInstanceOf(ProverError);
    expect((err as ProverError).code).toBe('crashed');
    expect(s.pid).not.toBe(pid);
    // The proof is still open (its goals all closed), on the new coqidetop.
    expect(await s.goals()).toEqual([]);
    const finished = await (s.finish as () => Promise<{ assumptions: unknown; statement?: unknown }>).call(s);
    expect(finished.assumptions).toEqual([]);
    // The session goes on after it.
    await s.start('True', 'other');
    expect((await s.step({ kind: 'apply', tactic: 'exact I' })).goals).toEqual([]);
    await (s.finish as () => Promise<unknown>).call(s);
  }, 180_000);
});
