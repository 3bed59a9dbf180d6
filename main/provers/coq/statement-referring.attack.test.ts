import { describe, expect, it } from 'vitest';
import type { ShellResponse } from '../../../shared/protocol/shell-command.ts';
import { finished, quoted as q, useRealShell } from './testing/real-shell.ts';

/**
 * The statement judge's "only new words" rule (statement-judge.ts `onlyNewWords`): a statement that does not
 * elaborate in the clean environment only because of the document's own words means what it says, unless one
 * of its names refers to something there (`referring`, statement-reading.ts). A library abbreviation with
 * parameters (`iter_nat n A f x`, `Pcompare x y m`) is such a name, yet `Check @iter_nat` fails there
 * ("Abbreviation is not applied enough"): a document that redefines it must get a STATEMENT difference.
 * Real arbor-shell and coqidetop.
 */
/** The requests before END (`before` of them) ran, and END finished the proof with a STATEMENT line. */
const expectStatementShown = (rs: ShellResponse[], before: number): void => {
  expect(rs.map((r) => r.ERR).slice(0, before)).toEqual(Array(before).fill(''));
  const end = rs.at(-1);
  expect(finished(end), JSON.stringify(end)).toBe(true);
  expect(end?.STATEMENT, JSON.stringify(end)).toBeDefined();
};

describe('a library abbreviation the document redefines is not one of its new words', () => {
  const { session } = useRealShell(['--timeout', '20', '--pool', '0']);

  const cases = [
    {
      name: 'iter_nat (Coq.Arith.Wf_nat) redefined to ignore its function',
      define: 'Definition iter_nat (n : nat) (A : Type) (f : A -> A) (x : A) : A := x. Definition my_zero := 0.',
      // Read with the library's iter_nat: f (f (f 0)) = 0 for every f, which is false.
      goal: 'forall f : nat -> nat, iter_nat 3 nat f 0 = my_zero',
      tactic: 'intro f; reflexivity',
    },
    {
      name: 'Pcompare (Coq.PArith.BinPos) redefined as a constant answer',
      define: 'Definition Pcompare (x y : positive) (m : comparison) : comparison := Eq. Definition my_eq := Eq.',
      // Read with the library's Pcompare: 1 and 2 compare Eq, which is false.
      goal: 'Pcompare 1 2 Eq = my_eq',
      tactic: 'reflexivity',
    },
  ];
  for (const c of cases) {
    it(`STATEMENT shows it: ${c.name}`, async () => {
      const rs = await session([`DEFINE ${q(c.define)}`, `GOAL ${q(c.goal)}`, `APPLY (${c.tactic})`, 'END']);
      expectStatementShown(rs, 3);
    }, 180_000);
  }
});

describe('a library name of the channel\'s environment the document redefines is not one of its new words', () => {
  const { session } = useRealShell(['--timeout', '20', '--pool', '0']);

  it('STATEMENT shows it: String.substring (environment `strings`) redefined to return its argument', { timeout: 180_000 }, async () => {
    const rs = await session([
      'PRELUDE strings',
      `DEFINE ${q('Definition substring (n m : nat) (s : string) : string := s. Definition my_s : string := "abc".')}`,
      // Read with the environment's substring: "a" = "abc", which is false.
      `GOAL ${q('substring 0 1 my_s = my_s')}`,
      'APPLY reflexivity',
      'END',
    ]);
    expectStatementShown(rs, 4);
  });

  it('an honest statement over the environment\'s strings has no STATEMENT line', { timeout: 180_000 }, async () => {
    const rs = await session(['PRELUDE strings', `GOAL ${q('length "ab"%string = 2 /\\ (substring 0 1 "ab" = "a")%string')}`, 'APPLY (split; reflexivity)', 'END']);
    expect(rs.map((r) => r.ERR)).toEqual(['', '', '', '']);
    expect(rs.at(-1)?.STATEMENT, JSON.stringify(rs.at(-1))).toBeUndefined();
  });
});

describe('a module alias that makes a library path mean another library\'s', () => {
  const { session } = useRealShell(['--timeout', '20', '--pool', '0']);

  it('STATEMENT shows it: Module Nat := Z, then Nat.lt (Nat.sub 0 1) my_zero', { timeout: 180_000 }, async () => {
    const rs = await session([
      `DEFINE ${q('Module Nat := Z. Definition my_zero := 0%Z.')}`,
      // Read with the library's Nat: 0 - 1 < 0 on nat, which is false; here it is -1 < 0 on Z.
      `GOAL ${q('Nat.lt (Nat.sub 0 1) my_zero')}`,
      'APPLY reflexivity',
      'END',
    ]);
    expectStatementShown(rs, 3);
  });
});
