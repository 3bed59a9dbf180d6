import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ShellProcess } from '../../cli/shell-process.ts';

const PREMISE = "(field of the functor's parameter: a premise of the theorem, given by each module the functor is applied to)";

/**
 * Attacks (by someone who did not build it) on functor parameters as premises, with real arbor-shell and
 * coqidetop: a path that only looks like a parameter's field is an axiom (unsound); a real field is accepted
 * only as a premise named in ASSUMPTIONS, and nothing of a closed functor's parameter stays usable.
 */
describe('functor premises (attack, real coqidetop)', () => {
  let shell: ShellProcess;
  beforeAll(() => { shell = new ShellProcess(['--timeout', '20']); });
  afterAll(async () => { expect(await shell.end()).toBe(0); });

  const runAll = async (lines: string[]): Promise<{ ERR: string; ASSUMPTIONS?: unknown }[]> => {
    const ch = ((await shell.request('NEW_CHANNEL', 0)).RESPONSE as { ID: number }).ID;
    const out = [];
    for (const line of lines) out.push(await shell.request(`${ch} ${line}`, ch));
    await shell.request(`${ch} RELEASE_CHANNEL`, ch);
    return out;
  };
  const MT = 'Module Type MT. Parameter cheat : False. End MT.';

  const spoofs: [string, string, string, RegExp][] = [
    ['a functor inside the module type whose Parameter it uses, its parameter named like that module type', 'Module Type T0. End T0. Module Type MT. Parameter cheat : False. Module F (MT : T0).', 'exact MT.cheat', /^unsound: depends on cheat \(Top\.MT\.cheat\)/],
    ['a module-type functor (its parameter is no functor parameter of a module)', `${MT} Module Type FT (X : MT).`, 'exact X.cheat', /^unsound: depends on X\.cheat/],
    ['a parameter named like a required library\'s short path', 'Require Coq.Compat.AdmitAxiom. Module Type MT. Parameter proof_admitted : False. End MT. Module F (AdmitAxiom : MT).', 'exact Coq.Compat.AdmitAxiom.proof_admitted', /^unsound: depends on .*\(Coq\.Compat\.AdmitAxiom\.proof_admitted\)/],
    ['a parameter named like the middle of a library path, with a declared sub-module', 'Require Coq.Compat.AdmitAxiom. Module Type T2. Parameter proof_admitted : False. End T2. Module Type MT. Declare Module AdmitAxiom : T2. End MT. Module F (Compat : MT).', 'exact Coq.Compat.AdmitAxiom.proof_admitted', /^unsound: depends on .*\(Coq\.Compat\.AdmitAxiom\.proof_admitted\)/],
  ];
  for (const [what, define, tactic, err] of spoofs) {
    it(`spoofed parameter path: ${what}`, { timeout: 300_000 }, async () => {
      const rs = await runAll([`DEFINE "${define}"`, 'GOAL g "False"', `APPLY ${tactic}`, 'END']);
      expect(rs.slice(0, 3).map((r) => r.ERR), what).toEqual(['', '', '']);
      expect(rs[3]?.ERR, what).toMatch(err);
    });
  }

  // The kernel says which globals are a parameter's (Arbor's Coq plugin, `(bound module)`): a parameter named
  // `Top` is a parameter like any other, its field a premise (before the plugin, the path's text could not
  // tell it from the document's own `Top.cheat`, so it was refused).
  it('a parameter named Top: its field is a premise, named in ASSUMPTIONS', { timeout: 300_000 }, async () => {
    const rs = await runAll([`DEFINE "${MT} Module F (Top : MT)."`, 'GOAL g "False"', 'APPLY exact Top.cheat', 'END']);
    expect(rs.map((r) => r.ERR)).toEqual(['', '', '', '']);
    expect(rs[3]?.ASSUMPTIONS).toEqual([`Top.cheat : False ${PREMISE}`]);
  });

  it('real fields (through an alias, a declared sub-module, nested functors) are premises named in ASSUMPTIONS; a closed functor\'s parameter is gone', { timeout: 300_000 }, async () => {
    const rs = await runAll([
      `DEFINE "${MT} Module F (X : MT). Module I := X."`, 'GOAL g "False"', 'APPLY exact I.cheat', 'END',
      'DEFINE "Module Type U. Parameter c2 : False. End U. Module G (Y : U)."', 'GOAL h "False"', 'APPLY exact Y.c2', 'END',
      'DEFINE "End G."', 'GOAL k "False"', 'APPLY exact Y.c2', 'APPLY exact X.cheat', 'END',
      'DEFINE "End F. Module Type W. Declare Module J : MT. End W. Module H (Z : W)."', 'GOAL m "False"', 'APPLY exact Z.J.cheat', 'END',
      'DEFINE "End H."', 'GOAL n "False"', 'APPLY exact X.cheat',
    ]);
    expect(rs[3]?.ASSUMPTIONS).toEqual([`X.cheat : False ${PREMISE}`]);
    expect(rs[7]?.ASSUMPTIONS).toEqual([`Y.c2 : False ${PREMISE}`]);
    expect(rs[10]?.ERR).toMatch(/Y\.c2 was not found/);
    expect(rs[12]?.ASSUMPTIONS).toEqual([`X.cheat : False ${PREMISE}`]);
    expect(rs[16]?.ASSUMPTIONS).toEqual([`Z.J.cheat : False ${PREMISE}`]);
    expect(rs[19]?.ERR).toMatch(/X\.cheat was not found/);
  });
});
