import { describe, expect, it } from 'vitest';
import { formatCommand } from './format-command.ts';
import { parseRequest } from './parse-request.ts';
import type { ShellCommand } from './shell-command.ts';

describe('formatCommand', () => {
  const lines = [
    'GOAL "forall n : nat, n + 0 = n"', 'GOAL plus_n_O\' "forall n, n = n + 0"', 'HAVE "a \\/ b"', 'HAVE h "x = y"',
    'OBTAIN x y :: "nat" where h1: "x < y" and "y > 0"', 'CRUSH', 'CRUSH foo, bar', 'HAMMER', 'HAMMER 5',
    'RULE app_nil_r', 'UNFOLD rev', 'APPLY induction l as [|x l IH]', 'LET ?a = "n + 0"', 'PRINT_MODE 2', 'REVERT 3',
    'DEFINE "Definition f := 1."', 'END', 'NEXT', 'STATE', 'SEARCH "_ + 0 = _"', 'CHECK "S O"', 'PRINT plus',
    'APPLY rewrite "a" in H',
  ];
  for (const line of lines) {
    it(`reads back ${line}`, () => {
      const parsed = parseRequest(line);
      if ('error' in parsed) throw new Error(parsed.error);
      const again = parseRequest(formatCommand(parsed.command));
      expect(again).toMatchObject({ command: parsed.command });
    });
  }

  it('wire form (a process reading one request per line): rules separated by blanks, line breaks in text become blanks', () => {
    expect(formatCommand({ name: 'CRUSH', rules: ['foo', 'bar'] })).toBe('CRUSH foo, bar');
    expect(formatCommand({ name: 'CRUSH', rules: ['foo', 'bar'] }, { wire: true })).toBe('CRUSH foo bar');
    const define: ShellCommand = { name: 'DEFINE', text: 'Definition f :=\n  1.' };
    expect(formatCommand(define)).toBe('DEFINE "Definition f :=\n  1."');
    expect(formatCommand(define, { wire: true })).toBe('DEFINE "Definition f :=   1."');
    const prelude: ShellCommand = { name: 'PRELUDE', text: 'Require Import Lia.\r\nRequire Import List.', environment: 'coq' };
    expect(formatCommand(prelude)).toBe('PRELUDE coq "Require Import Lia.\r\nRequire Import List."');
    expect(formatCommand(prelude, { wire: true })).toBe('PRELUDE coq "Require Import Lia. Require Import List."');
    for (const c of [define, prelude, { name: 'CRUSH', rules: ['a', 'b'] } satisfies ShellCommand]) {
      const back = parseRequest(formatCommand(c, { wire: true }));
      expect('error' in back ? back.error : back.command.name).toBe(c.name);
    }
  });
});
