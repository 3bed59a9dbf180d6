import { describe, expect, it } from 'vitest';
import type { ShellResponse } from '../../../shared/protocol/shell-command.ts';
import { ShellProcess } from '../../cli/shell-process.ts';
import { type Send, useRealShell } from './testing/real-shell.ts';

/**
 * Issue 24 item 4: assumptions are judged from each theorem's direct references, each global's closure
 * walked once per session and remembered (closed-constants.ts). Remembering must not weaken the rule: a
 * theorem that reaches an axiom directly, through an earlier lemma, or through a lemma that was redone
 * after a REVERT, is still refused or listed — against the real coqidetop behind the real arbor-shell.
 */
describe('assumptions remembered per global (real coqidetop)', () => {
  const real = useRealShell(['--timeout', '20', '--pool', '0']);

  const channel = async (prelude?: string): Promise<Send> => {
    const send = await real.channel();
    if (prelude !== undefined) expect((await send(`PRELUDE "${prelude}"`)).ERR).toBe('');
    return send;
  };

  it('lists a trusted axiom reached through an earlier lemma, also after the library was walked for lia', async () => {
    const send = await channel('Require Import Classical.');
    for (const r of ['GOAL first "forall n m : nat, n + m = m + n"', 'APPLY lia']) expect((await send(r)).ERR).toBe('');
    expect((await send('END')).ASSUMPTIONS).toEqual([]);
    for (const r of ['GOAL em "forall P : Prop, P \\/ ~ P"', 'APPLY (exact classic)']) expect((await send(r)).ERR).toBe('');
    expect((await send('END')).ASSUMPTIONS).toEqual(['classic : forall P : Prop, P \\/ ~ P']);
    // Through `em` only: the earlier lemma's remembered assumptions are this one's.
    for (const r of ['GOAL nn "forall P : Prop, ~ ~ P -> P"', 'APPLY (intros P H; destruct (em P); [assumption | contradiction])']) expect((await send(r)).ERR).toBe('');
    expect((await send('END')).ASSUMPTIONS).toEqual(['classic : forall P : Prop, P \\/ ~ P']);
    // A second lia lemma reuses the library's judgement and is still closed.
    for (const r of ['GOAL second "forall n : nat, n <= n * n + 1"', 'APPLY nia']) expect((await send(r)).ERR).toBe('');
    expect((await send('END')).ASSUMPTIONS).toEqual([]);
  }, 240_000);

  it('refuses a theorem that reaches the axiom behind admit through a proved lemma', async () => {
    const send = await channel('Require Import Coq.Compat.AdmitAxiom. Lemma via : 1 = 2. Proof. case proof_admitted. Qed.');
    for (const r of ['GOAL ok "2 + 2 = 4"', 'APPLY lia']) expect((await send(r)).ERR).toBe('');
    expect((await send('END')).ERR).toBe('');
    for (const r of ['GOAL bad "1 = 2"', 'APPLY (exact via)']) expect((await send(r)).ERR).toBe('');
    expect((await send('END')).ERR).toBe('unsound: depends on proof_admitted (Coq.Compat.AdmitAxiom.proof_admitted)');
  }, 240_000);

  it('forgets a lemma judged closed once it is reverted and redone with an axiom', async () => {
    const send = await channel('Require Import Classical.');
    expect((await send('DEFINE "Definition zero := 0."')).ERR).toBe('');
    const goal = await send('GOAL helper "forall P : Prop, P -> P \\/ ~ P"');
    expect(goal.ERR).toBe('');
    expect((await send('APPLY (intros P H; left; exact H)')).ERR).toBe('');
    expect((await send('END')).ASSUMPTIONS).toEqual([]);
    for (const r of ['GOAL user "True -> True \\/ ~ True"', 'APPLY (exact (helper True))']) expect((await send(r)).ERR).toBe('');
    expect((await send('END')).ASSUMPTIONS).toEqual([]);
    // Back before `helper`, which is now proved with excluded middle: `user` must say so.
    expect((await send(`REVERT ${(goal.STEP as number) - 1}`)).ERR).toBe('');
    for (const r of ['GOAL helper "forall P : Prop, P -> P \\/ ~ P"', 'APPLY (intros P _; exact (classic P))']) expect((await send(r)).ERR).toBe('');
    expect((await send('END')).ASSUMPTIONS).toEqual(['classic : forall P : Prop, P \\/ ~ P']);
    for (const r of ['GOAL user "True -> True \\/ ~ True"', 'APPLY (exact (helper True))']) expect((await send(r)).ERR).toBe('');
    expect((await send('END')).ASSUMPTIONS).toEqual(['classic : forall P : Prop, P \\/ ~ P']);
  }, 240_000);

  it('asks again what a qualified name stands for once a declaration may have shadowed it', async () => {
    // Its own shell: one shell serves a few channels at a time.
    const own = new ShellProcess(['--timeout', '20', '--pool', '0']);
    try {
      await shadowedQualifiedName(own);
    } finally {
      await own.end();
    }
  }, 240_000);
});

/** A kept answer for `M.c` is not used once a DEFINE made `M.c` stand for another constant, one resting on an axiom. */
async function shadowedQualifiedName(shell: ShellProcess): Promise<void> {
  const ch = ((await shell.request('NEW_CHANNEL', 0)).RESPONSE as { ID: number }).ID;
  const send = (r: string): Promise<ShellResponse> => shell.request(`${ch} ${r}`, ch);
  expect((await send('PRELUDE "Require Import Classical."')).ERR).toBe('');
  expect((await send('DEFINE "Module M. Definition c : 0 = 0 := eq_refl. End M."')).ERR).toBe('');
  for (const r of ['GOAL first "0 = 0"', 'APPLY (exact M.c)']) expect((await send(r)).ERR).toBe('');
  expect((await send('END')).ASSUMPTIONS).toEqual([]);
  for (const r of ['GOAL second "0 = 0"', 'APPLY (exact M.c)']) expect((await send(r)).ERR).toBe('');
  expect((await send('END')).ASSUMPTIONS).toEqual([]);
  // `M.c` now stands for Sh.M.c, which rests on excluded middle: the kept answer for `M.c` must not be used.
  const shadow = 'Module Sh. Module M. Definition c : 0 = 0 := match classic True with or_introl _ => eq_refl | or_intror _ => eq_refl end. End M. End Sh. Import Sh.';
  expect((await send(`DEFINE "${shadow}"`)).ERR).toBe('');
  for (const r of ['GOAL third "0 = 0"', 'APPLY (exact M.c)']) expect((await send(r)).ERR).toBe('');
  expect((await send('END')).ASSUMPTIONS).toEqual(['classic : forall P : Prop, P \\/ ~ P']);
}
