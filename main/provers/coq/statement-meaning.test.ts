import { describe, expect, it } from 'vitest';
import { parseCoqTerm } from './coq-sexp.ts';
import { compareReadings, type Reading } from './statement-meaning.ts';

const reading = (printed: string, full: Record<string, string>, parse = true): Reading => ({ printed, term: parse ? parseCoqTerm(printed) : undefined, full: new Map(Object.entries(full)) });

describe('compareReadings', () => {
  it('the same term (up to bound names) has nothing to show', () => {
    const full = { eq: 'Coq.Init.Logic.eq', nat: 'Coq.Init.Datatypes.nat', O: 'Coq.Init.Datatypes.O' };
    expect(compareReadings(reading('forall n : nat, @eq nat n O', full), reading('forall m : nat, @eq nat m O', full))).toBeUndefined();
  });

  it('the same printed text naming other objects differs, and says which', () => {
    const m = compareReadings(reading('False', { False: 'Top.False' }), reading('False', { False: 'Coq.Init.Logic.False' }));
    expect(m).toEqual({
      elaborated: 'Top.False',
      clean: 'Coq.Init.Logic.False',
      differences: ['here `Top.False` stands where a clean reading has `Coq.Init.Logic.False`', "`False` is the document's own `Top.False`, not `Coq.Init.Logic.False`"],
    });
  });

  it('a term it cannot parse is never called the same', () => {
    const m = compareReadings(reading('False', { False: 'Top.False' }, false), reading('False', {}, false));
    expect(m?.differences[0]).toMatch(/could not tell/);
  });
});
