import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ShellResponse } from '../../../../shared/protocol/shell-command.ts';
import { ShellProcess } from '../../../cli/shell-process.ts';

/**
 * Attacks on HAMMER (issue 25) with real arbor-shell and coqidetop: hostile names, rewrite rules that loop,
 * 500 lemmas in scope; every answer within the user's budget + 1 s, measured from outside the process.
 */
describe('HAMMER under attack (real coqidetop)', () => {
  let shell: ShellProcess;
  beforeAll(() => {
    // The channel's timeout is what an END that hammers gets: 5 s.
    shell = new ShellProcess(['--timeout', '5']);
  });
  afterAll(async () => {
    expect(await shell.end()).toBe(0);
  });

  const channel = async (): Promise<number> => ((await shell.request('NEW_CHANNEL', 0)).RESPONSE as { ID: number }).ID;
  const on = async (ch: number, line: string, err = '', via = shell): Promise<ShellResponse> => {
    const r = await via.request(`${ch} ${line}`, ch);
    expect(r.ERR, line.slice(0, 120)).toBe(err);
    return r;
  };
  /** A hammering request timed from outside: it answers within 6 s, as proved, failed or timed out — never a crash. */
  const hammer = async (ch: number, line: string, via = shell): Promise<{ r: ShellResponse; ms: number }> => {
    const started = Date.now();
    const r = await via.request(`${ch} ${line}`, ch);
    const ms = Date.now() - started;
    expect(ms, `${line}: answered after ${ms} ms`).toBeLessThan(6_000);
    expect(r.ERR, line).toMatch(/^(|fail.*|timeout.*)$/);
    expect(r.ERR, line).not.toMatch(/regular expression|Invalid escape|undefined|TypeError/);
    return { r, ms };
  };

  it('names with primes, unicode, and names that look like tactics or commands: HAMMER 5 answers in time, never crashes', { timeout: 300_000 }, async () => {
    const ch = await channel();
    await on(ch, 'DEFINE "Fixpoint plus\' (n m : nat) : nat := match n with 0 => m | S k => S (plus\' k m) end. Fixpoint rév\'\' (l : list nat) : list nat := match l with nil => nil | cons x t => rév\'\' t ++ [x] end. Definition Redirect\' := 3. Fixpoint intros (n : nat) := n. Definition αβ\' (n : nat) := n + 0."');
    const goals = [
      "forall l : list nat, length (rév'' l) = length l",
      "forall n m, plus' n m = n + m",
      "forall n m k, plus' n (plus' m k) = plus' (plus' n m) k",
      "forall n, intros n + Redirect' = 3 + n",
      "forall n, αβ' n = n",
      "forall l : list nat, rév'' (rév'' l) = l",
    ];
    let proved = 0;
    for (const [k, goal] of goals.entries()) {
      await on(ch, `GOAL g${k} "${goal}"`);
      const { r } = await hammer(ch, 'HAMMER 5');
      if (r.ERR === '') {
        proved++;
        await on(ch, 'REVERT 1');
      }
    }
    // The two easiest (induction on a primed fixpoint; the length of a primed reverse) are proved, names and all.
    expect(proved).toBeGreaterThanOrEqual(2);
    await on(ch, 'RELEASE_CHANNEL');
  });

  it('a commutativity lemma in scope (rewrite would loop) and 500 lemmas sharing the goal\'s constant: still within budget', { timeout: 600_000 }, async () => {
    // Declaring 500 lemmas takes longer than 5 s on a loaded machine: a shell of its own, with room for the DEFINEs.
    const roomy = new ShellProcess(['--timeout', '120']);
    try {
      const ch = ((await roomy.request('NEW_CHANNEL', 0)).RESPONSE as { ID: number }).ID;
      await on(ch, 'DEFINE "Fixpoint zz (n : nat) : nat := match n with 0 => 0 | S k => S (zz k) end. Definition pl (a b : nat) := a + b. Lemma pl_comm : forall a b, pl a b = pl b a. Proof. intros; unfold pl; lia. Qed."', '', roomy);
      const lemmas = Array.from({ length: 500 }, (_, i) => `Lemma zz_${i}' : forall n, zz (n + ${i}) = zz (n + ${i}) + 0. Proof. intros; apply plus_n_O. Qed.`).join(' ');
      await on(ch, `DEFINE "${lemmas}"`, '', roomy);
      for (const goal of ['forall n m k, zz (n + m + k) = zz (k + m + n) + zz 0', 'forall a b c, pl a (pl b c) = pl (pl c b) a + 0 + pl 0 0', 'forall n, zz n = n']) {
        await on(ch, `GOAL t "${goal}"`, '', roomy);
        await hammer(ch, 'HAMMER 5', roomy);
        await on(ch, 'REVERT 1', '', roomy);
      }
    } finally {
      expect(await roomy.end()).toBe(0);
    }
  });

  it('an END that has to hammer gets the channel\'s timeout (5 s) as its budget, measured from outside', { timeout: 300_000 }, async () => {
    const ch = await channel();
    await on(ch, 'DEFINE "Definition pl (a b : nat) := a + b. Lemma pl_comm : forall a b, pl a b = pl b a. Proof. intros; unfold pl; lia. Qed."');
    for (const goal of ['forall a b c, pl a (pl b c) = pl (pl c b) (a + 0) + 0', 'forall a b, pl a b * pl b a = pl (a * a) (b * b) + 2 * a * b']) {
      await on(ch, `GOAL e "${goal}"`);
      await hammer(ch, 'END');
      await on(ch, 'REVERT 1');
    }
    await on(ch, 'RELEASE_CHANNEL');
  });
});
