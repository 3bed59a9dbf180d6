import { describe, expect, it } from 'vitest';
import type { ShellResponse } from '../../../shared/protocol/shell-command.ts';
import { finished, quoted as q, useRealShell } from './testing/real-shell.ts';

/**
 * Attacks on the statement judge's "only new words" shortcut (statement-judge.ts): when the statement does
 * not elaborate in the clean environment because it uses a word the document defined, the judge accepts the
 * document's reading unseen unless a declaration looks like it changes how text reads. A declaration that
 * changes how text reads but does not look like it gave a plain "proved" of a statement false as read.
 */
const errs = (rs: ShellResponse[]): string => JSON.stringify(rs.map((r) => r.ERR));

describe('the judge never accepts a changed reading as "only new words"', () => {
  const { session } = useRealShell(['--timeout', '20']);

  const cases: { name: string; requests: string[] }[] = [
    {
      // `+` is multiplication in nat_scope, declared by a sentence that starts with a comment: was plain "proved".
      name: 'a comment before `Notation`',
      requests: [
        `DEFINE ${q('(* helper *) Notation "x + y" := (Nat.mul x y) : nat_scope. Definition zero_word := 0.')}`,
        `GOAL ${q('zero_word + 2 + 2 = zero_word')}`,
        'APPLY reflexivity',
        'END',
      ],
    },
    {
      name: 'a comment between the attribute and `Notation`',
      requests: [
        `DEFINE ${q('#[local] (* x *) Notation "x + y" := (Nat.mul x y) : nat_scope. Definition zero_word := 0.')}`,
        `GOAL ${q('zero_word + 2 + 2 = zero_word')}`,
        'APPLY reflexivity',
        'END',
      ],
    },
    {
      // Part of the statement is built by the document's tactic: was plain "proved" of `zero_word + 2 = zero_word`-looking text.
      name: 'ltac:(…) in the statement running the document\'s Ltac',
      requests: [
        `DEFINE ${q('Definition zero_word := 0. Ltac two := exact 0.')}`,
        `GOAL ${q('zero_word + ltac:(two) = zero_word')}`,
        'APPLY reflexivity',
        'END',
      ],
    },
    {
      // A canonical structure declared by attribute: `op _ 2 3` is `Nat.mul 2 3`, and nothing said so.
      name: '`#[canonical] Definition` picking what `op` means',
      requests: [
        `DEFINE ${q('Structure S := { carrier : Type; op : carrier -> carrier -> carrier }. #[canonical] Definition natS := {| carrier := nat; op := Nat.mul |}.')}`,
        `GOAL ${q('op _ 2 3 = 6')}`,
        'APPLY reflexivity',
        'END',
      ],
    },
  ];
  for (const c of cases) {
    it(`STATEMENT shown: ${c.name}`, async () => {
      const rs = await session(c.requests);
      const end = rs.at(-1);
      expect(finished(end), errs(rs)).toBe(true);
      expect(end?.STATEMENT, JSON.stringify(end)).toBeTruthy();
    }, 180_000);
  }

  it('an honest document with new words and a comment still finishes without a meaning line', async () => {
    const rs = await session([
      `DEFINE ${q('(* doubles *) Definition double (n : nat) := n + n.')}`,
      `GOAL ${q('double 2 = 4')}`,
      'APPLY reflexivity',
      'END',
    ]);
    const end = rs.at(-1);
    expect(finished(end), errs(rs)).toBe(true);
    expect(end?.STATEMENT).toBeUndefined();
  }, 180_000);
});
