import { describe, expect, it } from 'vitest';
import type { ShellResponse } from '../../../shared/protocol/shell-command.ts';
import { ShellProcess } from '../../cli/shell-process.ts';

/**
 * Attack on END's one-exchange Qed + read-back (issue 24): a Qed the kernel refuses after the tactic
 * accepted (`exact_no_check` of a false equation: the kernel's check overflows or runs out of time), a Qed
 * that declares another name first (`abstract … using`), and the same name proved twice. Nothing refused
 * is called proved, and the read-back is always of the theorem just closed. Real arbor-shell and coqidetop.
 */
describe('END: Qed with its read-back cannot be fooled (real coqidetop)', () => {
  it('a Qed the kernel refuses is not proved; the next END reads its own theorem', { timeout: 300_000 }, async () => {
    const shell = new ShellProcess(['--timeout', '10']);
    try {
      const ch = ((await shell.request('NEW_CHANNEL', 0)).RESPONSE as { ID: number }).ID;
      const say = async (line: string): Promise<ShellResponse> => shell.request(`${ch} ${line}`, ch);
      expect((await say('PRELUDE bare')).ERR).toBe('');
      // The tactic skips the check; the kernel's, at Qed, fails (stack overflow) or times out.
      expect((await say('GOAL bad "Nat.pow 2 19 = Nat.pow 2 19 + 1"')).ERR).toBe('');
      expect((await say('APPLY (exact_no_check (@eq_refl nat (Nat.pow 2 19)))')).ERR).toBe('');
      const end = await say('END');
      expect(end.ERR).toMatch(/kernel did not accept|timeout/);
      expect(end.ASSUMPTIONS).toBeUndefined();
      // The session still works, and a later theorem's read-back is its own (not the refused one's).
      expect((await say('GOAL good "forall n : nat, n + 0 = n"')).ERR).toBe('');
      expect((await say('APPLY (intro n; rewrite <- plus_n_O; reflexivity)')).ERR).toBe('');
      const good = await say('END');
      expect(good.ERR).toBe('');
      expect(good.STATEMENT).toBeUndefined();
      // `abstract … using` declares another constant at Qed, before the theorem: the read-back is still the theorem's.
      expect((await say('GOAL twice "2 + 2 = 4 /\\ True"')).ERR).toBe('');
      expect((await say('APPLY (split; [abstract reflexivity using good_aux | exact I])')).ERR).toBe('');
      const abs = await say('END');
      expect(abs.ERR).toBe('');
      expect(abs.STATEMENT).toBeUndefined();
      expect(abs.ASSUMPTIONS ?? []).toEqual([]);
      // The same name again, for another statement: refused by Coq, or read back as the new statement.
      const again = await say('GOAL good "1 = 1"');
      if (again.ERR === '') {
        expect((await say('APPLY reflexivity')).ERR).toBe('');
        const second = await say('END');
        expect(second.ERR === '' ? second.STATEMENT : undefined).toBeUndefined();
        console.log('same name twice:', JSON.stringify(second).slice(0, 300));
      } else console.log('same name twice refused:', again.ERR);
    } finally {
      expect(await shell.end()).toBe(0);
    }
  });
});
