import { describe, expect, it } from 'vitest';
import { quoted, useOwnCacheShell } from './testing/real-shell.ts';

/**
 * Attack (atk-judge2) on END's assumption judge (closed-constants.ts): what it remembers of the document's globals,
 * by path. Each shell keeps its closed-library cache in a directory of its own (never the user's ~/.cache/arbor).
 */
describe('the judge\'s memory of document globals, keyed by path (attack, real arbor-shell with the plugin)', () => {
  const run = useOwnCacheShell(['--pool', '0', '--timeout', '30'], 'atk-judge2-cache-');
  const later = (first: string) => [
    `DEFINE ${quoted(`Section ${first}. Definition y : True := I.`)}`,
    'GOAL t1 "True"',
    'APPLY (exact y)',
    'END',
    `DEFINE ${quoted(`End ${first}. Module Type T. Axiom bad : False. End T. Module S (X : T). Definition y : False := X.bad.`)}`,
    'GOAL t2 "False"',
    'APPLY (exact y)',
    'END',
  ];

  // Control: a section named otherwise. t2 (in functor S) rests on its parameter's field X.bad, and END says so.
  it('control: False in a functor from its parameter\'s field is a premise', { timeout: 180_000 }, async () => {
    const r = await run(later('R'));
    expect(r[3]?.ERR).toBe('');
    expect(r[7]?.ERR).toBe('');
    expect(r[7]?.ASSUMPTIONS).toEqual([expect.stringContaining('X.bad : False (field of the functor\'s parameter')]);
  });

  // Fixed (session 15): the memory of document globals is dropped whenever a DEFINE opens or closes a block.
  // Broke (soundness): `False` proved with ASSUMPTIONS [] — the functor parameter's field X.bad is not said. The judge
  // remembers each document global it walked by its path (`walked`, keyed by `Top.S.y`), forgotten only when the log
  // is cut below it or coqidetop restarts. Inside `Section S`, a constant's path is `Top.S.y` (Coq 8.16 puts the
  // section in the path until it ends); after `End S` the name S is free, and a functor `Module S (X : T)` gives its own
  // `y` the very same path `Top.S.y` (not a bound module's: no mark). t2's only reference besides False is `Top.S.y`,
  // found "closed" in the memory from the section's `y : True := I`, so its walk (`X.bad : False`) is never asked.
  it('a section\'s closed `y` remembered under Top.S.y does not hide the functor S\'s `y` resting on X.bad', { timeout: 180_000 }, async () => {
    const r = await run(later('S'));
    expect(r[3]?.ERR).toBe('');
    expect(r[7]?.ERR).toBe('');
    expect(r[7]?.ASSUMPTIONS).toEqual([expect.stringContaining('X.bad : False (field of the functor\'s parameter')]);
  });
});
