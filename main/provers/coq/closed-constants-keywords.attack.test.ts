import { describe, expect, it } from 'vitest';
import { type Send, useRealShell } from './testing/real-shell.ts';

/**
 * END's assumption judge reads the globals a finished theorem mentions from `Print` under `Set Printing All`
 * and drops words of Coq's term grammar (closed-constants.ts `KEYWORDS`). `is`, `IF` and `struct` are words
 * there, yet Coq takes each as a constant's name: a theorem proved by such a constant, which rests on an
 * axiom, must list it (coqc's `Print Assumptions` does). Real arbor-shell and coqidetop.
 */
const AXIOMATIC = 'match classic True with or_introl _ => eq_refl | or_intror _ => eq_refl end';

describe('a constant named like a word of the term grammar (real Coq)', () => {
  const { channel } = useRealShell(['--timeout', '20', '--pool', '0']);
  /** A channel of its own, released after `body` (one shell serves a few channels at a time). */
  const onChannel = async (body: (send: Send) => Promise<void>): Promise<void> => {
    const send = await channel();
    try {
      await body(send);
    } finally {
      await send('RELEASE_CHANNEL');
    }
  };

  for (const word of ['is', 'IF', 'struct']) {
    it(`lists the axiom behind a constant named \`${word}\``, { timeout: 180_000 }, () => onChannel(async (send) => {
      expect((await send('PRELUDE "Require Import Classical."')).ERR).toBe('');
      expect((await send(`DEFINE "Definition ${word} : 0 = 0 := ${AXIOMATIC}."`)).ERR).toBe('');
      for (const r of ['GOAL t "0 = 0"', `APPLY (exact ${word})`]) expect((await send(r)).ERR).toBe('');
      expect((await send('END')).ASSUMPTIONS).toEqual(['classic : forall P : Prop, P \\/ ~ P']);
      // A fix prints `{struct n}`: with a constant named like the word, still read, never a wrong answer.
      for (const r of ['GOAL u "forall n : nat, n + 0 = n"', 'APPLY (fix f 1; intros [|n]; [reflexivity | simpl; f_equal; apply f])']) expect((await send(r)).ERR).toBe('');
      expect((await send('END')).ERR).toBe('');
    }));
  }

  it('an axiom of the document named `is` is not hidden: END refuses the theorem', { timeout: 180_000 }, () => onChannel(async (send) => {
    const defined = await send('DEFINE "Axiom is : False."');
    if (defined.ERR !== '') return expect(defined.ERR).toMatch(/refused|axiom/i);
    for (const r of ['GOAL wrong "1 = 2"', 'APPLY (exact (False_ind _ is))']) expect((await send(r)).ERR).toBe('');
    expect((await send('END')).ERR).toMatch(/^unsound/);
  }));
});
