import { describe, expect, it } from 'vitest';
import { finished, useRealShell } from './testing/real-shell.ts';

/**
 * Attack (atk-locate) on `Arbor_locate` (session 14): names a notation made keywords (`land` after `Import Uint63`)
 * that `Print Assumptions` prints for what is no axiom of the document — a functor parameter's field, a section's
 * variable. Honest work, judged as such when the name is no keyword (each second case below passes).
 */
// Fixed (session 15): both were refusals or errors, never a wrong "proved". A name `Locate Term` cannot parse is read
// from the plugin's `Arbor_locate` answer with its bound-module mark (coq-closure-queries.ts `keywordName`: the field is
// the functor's premise, as `lor2` is), and a section variable the judge walks by a keyword name is walked with the
// plugin's `Arbor_assumptions "land".`, `Print Assumptions`' own code on the name given as a string.
describe('keyword names of premises at END (attack, real arbor-shell with the plugin)', () => {
  const real = useRealShell(['--pool', '0', '--timeout', '30']);

  it('a functor parameter\'s field named `land` is the functor\'s premise, as `lor2` is (not "unsound: depends on land")', { timeout: 120_000 }, async () => {
    const r = await real.session([
      'PRELUDE bare',
      'DEFINE "Module Type T. Parameter land : True. Parameter lor2 : True. End T. Require Import Uint63. Module F (Import X : T)."',
      'GOAL plain "True"', 'APPLY (exact X.lor2)', 'END',
      'GOAL keyword "True"', 'APPLY (exact X.land)', 'END',
    ]);
    expect(r[4]?.ERR).toBe('');
    expect(r[4]?.ASSUMPTIONS).toEqual([expect.stringMatching(/^lor2 : True \(field of the functor's parameter/)]);
    // Arbor_locate answers `Constant X.land (bound module)`; constantFromLocate takes only `Constant PATH`, and
    // boundModule's `Arbor_references land.` cannot be parsed either: the field resolves to nothing.
    expect(r[7]?.ERR).toBe('');
    expect(finished(r[7]) || r[7]?.SCRIPT !== undefined).toBe(true);
  });

  it('a section variable named `land` is a premise, as `landx` is (not a raw syntax error of `Print Assumptions land.`)', { timeout: 120_000 }, async () => {
    const plain = await real.session(['PRELUDE bare', 'DEFINE "Require Uint63. Section S. Variable landx : 0 = 1. Import Uint63."', 'GOAL g "0 = 1"', 'APPLY (assumption)', 'END']);
    expect(plain[4]?.ERR).toBe('');
    expect(plain[4]?.ASSUMPTIONS).toEqual([expect.stringMatching(/^landx : 0 = 1 \(section variable/)]);
    const keyword = await real.session(['PRELUDE bare', 'DEFINE "Require Uint63. Section S. Variable land : 0 = 1. Import Uint63."', 'GOAL g "0 = 1"', 'APPLY (assumption)', 'END']);
    // The plugin lists `Variable land`; the judge walks it with `Print Assumptions land.`, which Coq cannot parse.
    expect(keyword[4]?.ERR).toBe('');
    expect(keyword[4]?.ASSUMPTIONS).toEqual([expect.stringMatching(/^land : 0 = 1 \(section variable/)]);
  });
});
