import { describe, expect, it } from 'vitest';
import { quoted, useOwnCacheShell } from './testing/real-shell.ts';

/**
 * Attack (atk-memo) on END's assumption judge (closed-constants.ts): its memory of the document's globals, by path,
 * is dropped (`forgetDocumentGlobals`, since 08cfd6e) only when a DEFINE leaves other blocks open than it found. A
 * DEFINE that closes a block and opens one of the same kind and name again leaves the open blocks "equal", while a
 * path it passed through now names another object.
 */
describe('the judge\'s memory of document globals across a DEFINE with the same blocks before and after (attack, real arbor-shell with the plugin)', () => {
  const run = useOwnCacheShell(['--pool', '0', '--timeout', '30'], 'atk-memo-blocks-');
  const script = (section: string) => [
    // Inside functor F (parameter X : T, whose field bad : False), a section: its closed `y` has the path Top.F.<section>.y.
    `DEFINE ${quoted(`Module Type T. Axiom bad : False. End T. Module F (X : T). Section ${section}. Definition y : True := I.`)}`,
    'GOAL t1 "True"',
    'APPLY (exact y)',
    'END',
    // One DEFINE: the section ends (its y becomes Top.F.y), a module S inside F gets a y resting on X.bad (path
    // Top.F.S.y), and the section opens again: open blocks before and after are both [module F, section <section>].
    `DEFINE ${quoted(`End ${section}. Module S. Definition y : False := X.bad. End S. Section ${section}.`)}`,
    'GOAL t2 "False"',
    'APPLY (exact S.y)',
    'END',
  ];

  // Control: the section is named R, so the memory holds Top.F.R.y, not Top.F.S.y: t2's premise X.bad is said.
  it('control: False from the module S\'s y resting on the functor parameter\'s field is a premise', { timeout: 180_000 }, async () => {
    const r = await run(script('R'));
    expect(r[3]?.ERR).toBe('');
    expect(r[7]?.ERR).toBe('');
    expect(r[7]?.ASSUMPTIONS).toEqual([expect.stringContaining('X.bad : False (field of the functor\'s parameter')]);
  });

  // Fixed (session 15): the memory is dropped after any DEFINE holding a Module, Section or End sentence. Broke (soundness): `False` proved with ASSUMPTIONS []. t1's END remembered the section's `y : True := I` as closed
  // under its path Top.F.S.y. The second DEFINE runs `End S. Module S. Definition y : False := X.bad. End S. Section S.`:
  // the open blocks before ([module F, section S]) and after are equal by kind and name, so coq-session.ts `define()`
  // never calls `forgetDocumentGlobals`, yet Top.F.S.y is now the module S's y (the section's went to Top.F.y). t2's
  // only reference, Top.F.S.y, is found "closed" in the memory; X.bad is never asked (coqc: `Axioms: X.bad : False`).
  it('a section\'s closed y remembered as Top.F.S.y does not hide module S\'s y resting on X.bad when the DEFINE reopens section S', { timeout: 180_000 }, async () => {
    const r = await run(script('S'));
    expect(r[3]?.ERR).toBe('');
    expect(r[7]?.ERR).toBe('');
    expect(r[7]?.ASSUMPTIONS).toEqual([expect.stringContaining('X.bad : False (field of the functor\'s parameter')]);
  });
});
