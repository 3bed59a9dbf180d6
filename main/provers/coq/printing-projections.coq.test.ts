import { describe, expect, it } from 'vitest';
import type { ShellResponse } from '../../../shared/protocol/shell-command.ts';
import { ShellProcess } from '../../cli/shell-process.ts';

/**
 * `Set Printing Projections` (coq-tricks' Projections.v) is allowed in DEFINE because it only changes how
 * goals are shown: every judge reads under its own `Set Printing All`, which prints projections as
 * applications again. Evidence here, with a real arbor-shell and coqidetop: the tree shows Coq's projection
 * syntax, the finished statement's elaborated meaning is the same with the option on or off, and a false
 * statement written with projections is not proved.
 */
describe('Set Printing Projections changes only how goals are shown (real coqidetop)', () => {
  it('same elaborated meaning with the option on and off; nothing false reads as proved', { timeout: 300_000 }, async () => {
    const shell = new ShellProcess(['--timeout', '20']);
    try {
      const on = (ch: number) => async (line: string, ok = true): Promise<ShellResponse> => {
        const r = await shell.request(`${ch} ${line}`, ch);
        if (ok) expect(r.ERR, line).toBe('');
        return r;
      };
      const run = async (printing: boolean): Promise<{ shown: unknown; end: ShellResponse; bad: ShellResponse; badEnd: ShellResponse }> => {
        const ch = ((await shell.request('NEW_CHANNEL', 0)).RESPONSE as { ID: number }).ID;
        const say = on(ch);
        await say('PRELUDE bare');
        await say(`DEFINE "${printing ? 'Set Printing Projections. ' : ''}Record t := mk { x : nat; y : nat }. Class ToNat T := { to_nat (v : T) : nat }. #[global] Instance u : ToNat unit := { to_nat _ := 0 }."`);
        await say('GOAL t_eta "forall p : t, p = {| x := p.(x); y := p.(y) |} /\\ to_nat tt = 0"');
        const shown = (await say('APPLY intros')).RESPONSE;
        await say('APPLY (destruct p; split; reflexivity)');
        const end = await say('END');
        // A false statement, written with projections: its proof fails, and END does not call it proved.
        await say('GOAL bad "forall p : t, p.(x) = p.(y)"');
        const bad = await say('APPLY (intros; reflexivity)', false);
        const badEnd = await shell.request(`${ch} SCRIPT`, ch);
        await shell.request(`${ch} RELEASE_CHANNEL`, ch);
        return { shown, end, bad, badEnd };
      };
      const withOption = await run(true);
      const without = await run(false);
      // The option is in force: the tree shows Coq's projection syntax (and without it, applications).
      expect(JSON.stringify(withOption.shown)).toMatch(/p\.\(x\)/);
      expect(JSON.stringify(without.shown)).not.toMatch(/p\.\(x\)/);
      // Both finished; the statement's elaborated meaning (read under Set Printing All) is the same.
      expect(withOption.end.SCRIPT).toMatch(/Set Printing Projections\./);
      expect(withOption.end.STATEMENT?.elaborated).toBeDefined();
      expect(withOption.end.STATEMENT?.elaborated).toBe(without.end.STATEMENT?.elaborated);
      expect(withOption.end.STATEMENT?.elaborated).not.toMatch(/\.\(/);
      expect(withOption.end.ASSUMPTIONS).toEqual(without.end.ASSUMPTIONS);
      // The false statement: the tactic fails, and the script does not hold it as proved.
      expect(withOption.bad.ERR).not.toBe('');
      expect(String(withOption.badEnd.RESPONSE)).not.toMatch(/Theorem bad[^]*Qed/);
    } finally {
      expect(await shell.end()).toBe(0);
    }
  });
});
