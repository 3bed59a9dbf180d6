import { describe, expect, it } from 'vitest';
import type { ShellResponse } from '../../../shared/protocol/shell-command.ts';
import { quoted, useRealShell } from './testing/real-shell.ts';

const real = useRealShell(['--timeout', '20', '--pool', '0']);

/** Runs `requests` on a fresh channel; returns END's response (the last). */
const ended = async (requests: readonly string[]): Promise<ShellResponse> => (await real.session(requests)).at(-1) as ShellResponse;

/** A prelude whose lemma `via` is proved only through the axiom behind `admit` (an untrusted assumption). */
const ADMITTED = 'Require Import Coq.Compat.AdmitAxiom. Lemma via : 1 = 2. Proof. case proof_admitted. Qed.';

/**
 * Attack on END's read-back (printed-all.ts: Print and Check in one query after `Qed`): a theorem name that is
 * also a `Print` subcommand's keyword made `Print NAME.` print something else (the universe graph, the coercion
 * classes, "No proof in progress"), one notice, so the pair still looked like Print's then Check's: `Hint`,
 * `Classes` and `Strategies` proved `1 = 2` through admit with no assumption (broke, before and after the merge;
 * fixed by asking `Print Term NAME.`). What the assumption judge reads must never let an axiom through.
 */
describe('END: theorem names that `Print` takes as a subcommand (real arbor-shell)', () => {
  const cases = ['Classes', 'Hint', 'Strategies', 'Graph', 'Universes', 'Scopes', 'All', 'Libraries', 'Registered', 'Visibility', 'Tables', 'Coercions'];
  for (const name of cases) {
    it(`a theorem named ${name} proved through admit is refused`, { timeout: 240_000 }, async () => {
      const end = await ended([`PRELUDE ${quoted(ADMITTED)}`, `GOAL ${name} ${quoted('1 = 2')}`, 'APPLY (exact via)', 'END']);
      expect(end.ERR).toBe('unsound: depends on proof_admitted (Coq.Compat.AdmitAxiom.proof_admitted)');
    });
  }
});

/**
 * Names the merged query puts into `Print Term NAME. Check NAME.`: primes, unicode, a library lemma's name,
 * command keywords that Coq still takes as theorem names, a module's name, and a theorem inside an open
 * Section or Module. Each: proved through admit is refused; proved honestly is closed, its statement as written.
 */
describe('END: the read-back of awkward theorem names (real arbor-shell)', () => {
  const cases: { name: string; define?: string }[] = [
    { name: "t'" },
    { name: "x'_1'" },
    { name: 'θεώρημα' },
    { name: 'plus_n_O' },
    { name: 'Print' },
    { name: 'Check' },
    { name: 'Term' },
    { name: 'Assumptions' },
    { name: 'Module' },
    { name: 'M', define: 'Module M. Definition d := 0. End M.' },
    { name: 'in_section', define: 'Section S. Variable n : nat.' },
    { name: 'in_module', define: 'Module N.' },
  ];
  for (const { name, define } of cases) {
    const before = [`PRELUDE ${quoted(ADMITTED)}`, ...(define === undefined ? [] : [`DEFINE ${quoted(define)}`])];
    it(`${name}${define === undefined ? '' : ` after ${define}`}: through admit refused, honest proof closed`, { timeout: 240_000 }, async () => {
      const rs = await real.session([...before, `GOAL ${name} ${quoted('1 = 2')}`, 'APPLY (exact via)', 'END']);
      // A name Coq refuses for a theorem is refused at GOAL: nothing to judge.
      const goal = rs.at(-3) as ShellResponse;
      if (goal.ERR !== '') {
        console.log(`GOAL ${name} refused: ${goal.ERR}`);
        return;
      }
      expect((rs.at(-1) as ShellResponse).ERR).toBe('unsound: depends on proof_admitted (Coq.Compat.AdmitAxiom.proof_admitted)');
      const honest = await ended([...before, `GOAL ${name} ${quoted('2 + 2 = 4')}`, 'APPLY reflexivity', 'END']);
      expect(honest.ERR).toBe('');
      expect(honest.ASSUMPTIONS).toEqual([]);
      expect(honest.STATEMENT).toBeUndefined();
    });
  }
});
