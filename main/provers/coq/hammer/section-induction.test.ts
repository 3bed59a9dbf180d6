import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ShellProcess } from '../../../cli/shell-process.ts';

/**
 * A goal stated inside an open section has the section's variables in its context, not under a `forall`:
 * HAMMER's induction and case analysis must consider them too (issue 25; coq-tricks' IntroPatterns.v states
 * its theorems so). Real arbor-shell and coqidetop.
 */
describe('HAMMER inducts on section variables (real coqidetop)', () => {
  let shell: ShellProcess;
  beforeAll(() => {
    shell = new ShellProcess(['--timeout', '60', '--max-channels', '4', '--pool', '0']);
  });
  afterAll(async () => {
    expect(await shell.end()).toBe(0);
  });

  const cases = [
    { defs: 'Fixpoint dbl (n : nat) : nat := match n with 0 => 0 | S k => S (S (dbl k)) end. Section Twice. Variable n : nat.', goal: 'dbl n = n + n' },
    { defs: 'Section Lists. Variables (A : Type) (xs ys : list A).', goal: 'S (length ys) = 1 -> xs ++ ys = xs' },
  ];
  for (const { defs, goal } of cases) {
    it(`closes ${goal} by induction on a section variable`, async () => {
      const c = ((await shell.request('NEW_CHANNEL', 0)).RESPONSE as { ID: number }).ID;
      expect((await shell.request(`${c} DEFINE "${defs}"`, c)).ERR).toBe('');
      expect((await shell.request(`${c} GOAL "${goal}"`, c)).ERR).toBe('');
      const t0 = performance.now();
      const r = await shell.request(`${c} HAMMER 20`, c);
      expect(performance.now() - t0).toBeLessThan(21_000);
      expect(r.ERR).toBe('');
      expect(r.HAMMER_REPORT?.closedWith).toMatch(/induction (n|ys|xs)\b/);
      expect((await shell.request(`${c} END`, c)).ERR).toBe('');
    }, 120_000);
  }
});
