import { describe, expect, it } from 'vitest';
import { quoted as q, useRealShell } from './testing/real-shell.ts';

/** A request's Coq text reaches Coq as written: a no-break space ending it is part of its last name (real coqidetop). */
const NBSP = '\u00a0';

describe('APPLY runs the tactic as written, a no-break space at its end kept', () => {
  const { session } = useRealShell(['--timeout', '30', '--pool', '0']);

  it('`APPLY intros h h<NBSP>` introduces `h` and `h<NBSP>` (it ran `intros h h`: "h is used twice")', { timeout: 240_000 }, async () => {
    const [, intros] = await session([
      `GOAL t ${q(`forall (h : True) (h${NBSP} : False), True`)}`,
      `APPLY intros h h${NBSP}`,
    ]);
    expect(intros?.ERR).toBe('');
    expect((intros?.RESPONSE as { ctxt: { hyps: { name: string }[] } }).ctxt.hyps.map((h) => h.name)).toEqual(['h', `h${NBSP}`]);
  });
});
