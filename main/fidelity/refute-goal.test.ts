import { describe, expect, it } from 'vitest';
import { refuteStatement } from './refute-goal.ts';

describe('refuteStatement (real coqc)', () => {
  it('finds and checks an instance that makes a false goal false', async () => {
    const r = await refuteStatement('forall n : nat, n = 0');
    expect(r?.instances.join(' ')).toMatch(/n = [1-9]/);
    expect(await refuteStatement('forall l : list nat, length (l ++ [0]) = length l')).toBeDefined();
    // A closed false statement has no instance: the summary speaks to whoever proves it, not of fidelity.
    expect((await refuteStatement('1 = 2'))?.summary).toBe('Coq proved its negation');
  }, 60_000);

  it('says nothing of true goals or goals outside the fragment', async () => {
    expect(await refuteStatement('forall n m : nat, n + m = m + n')).toBeUndefined();
    expect(await refuteStatement('forall f : nat -> nat, f 0 = f 0')).toBeUndefined();
  }, 60_000);
});
