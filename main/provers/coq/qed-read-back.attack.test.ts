import { describe, expect, it } from 'vitest';
import { useRealClient } from './testing/real-client.ts';

/**
 * Attack on END's one-exchange Qed (`addAndGoalsThen`): its contract is that the Qed's outcome is exactly
 * `addAndGoals'`. A read-back slower than the limit (Print under Set Printing All of a large proof term can
 * take longer than the kernel's check) must not turn an accepted Qed into a timeout: the limit is the Qed's,
 * and the read-back, which may always be dropped and asked again, gets its own.
 */
describe('a slow read-back behind an accepted Qed (real coqidetop)', () => {
  const client = useRealClient();

  it('the Qed is accepted; the read-back is dropped (interrupted), and the session goes on from the Qed', async () => {
    const c = client();
    const start = c.tip;
    await c.addAndGoals('Theorem t : True.');
    await c.addAndGoals('exact I.');
    // A trivial Qed (well under the limit), then a query that never ends on its own (an exponential reduction, interruptible).
    const r = await c.addAndGoalsThen('Qed.', 'Set Printing All.', ['Eval cbv in (let fix f (n : nat) : nat := match n with 0 => 0 | S m => f m + f m end in f 60).'], 4000).then(
      (v) => ({ ok: true as const, v }),
      (e: unknown) => ({ ok: false as const, e }),
    );
    expect(r.ok ? 'accepted' : String(r.e)).toBe('accepted');
    if (!r.ok) return;
    expect(r.v.added.goals).toBeUndefined();
    expect(r.v.answers).toBeUndefined();
    expect(c.alive).toBe(true);
    expect(c.tip).toBe(r.v.added.stateId);
    // The interrupt left nothing pending: the next calls answer for themselves.
    const checked = (await c.query('Check t.')).filter((m) => m.level === 'notice').map((m) => m.text).join('\n');
    expect(checked).toMatch(/t\s*:\s*True/);
    await c.addAndGoals('Theorem u : True.');
    const u = await c.addAndGoalsThen('exact I.', 'Set Printing All.', ['Check t.'], 30_000);
    expect(u.added.goals).toEqual([]);
    await c.editAt(start);
  }, 120_000);

  it('a Qed that itself outlasts the limit is still a timeout (the read-back has its own limit, not the Qed)', async () => {
    const c = client();
    const before = c.tip;
    await c.addAndGoals('Definition arbor_f := fix f (n : nat) : nat := match n with 0 => 0 | S m => f m + f m end.');
    await c.addAndGoals('Theorem slow : arbor_f 40 = 0.');
    // The tactic does not check; the kernel does at Qed (2^40 steps).
    await c.addAndGoals('exact_no_check (@eq_refl nat 0).');
    const open = c.tip;
    const err = await c.addAndGoalsThen('Qed.', 'Set Printing All.', ['Check slow.'], 3000).catch((e: unknown) => e);
    expect(String(err)).toMatch(/CoqTimeout/);
    if (c.alive) {
      await c.editAt(open);
      // Back in the proof, its goals closed (not undefined: not past a Qed).
      expect((await c.goals()).goals).toEqual([]);
    }
    if (c.alive) await c.editAt(before);
  }, 120_000);
});
