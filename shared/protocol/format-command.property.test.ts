import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatCommand } from './format-command.ts';
import { parseRequest } from './parse-request.ts';
import type { ShellCommand } from './shell-command.ts';

/**
 * The one formatter against the one parser, on hostile text (quotes, backslashes, cartouches, `\<open>`,
 * line breaks, unicode, Coq's own strings): what `formatCommand` writes, `parseRequest` reads back as the
 * same command; the wire form is one line and reads back as the command with its line breaks as blanks.
 */
const pieces = fc.constantFrom('"', '\\', '\\"', '‹', '›', '\\<open>', '\\<close>', '\n', '\r\n', ' ', ',', ';', '.', '∀', 'λ', 'ℕ', '𝔽', "x'", '(*', '*)', '""', 'é');
const hostile = fc.array(fc.oneof(pieces, fc.string({ unit: 'grapheme', maxLength: 4 })), { maxLength: 12 }).map((a) => a.join(''));
/**
 * Text the parser can hold at all: something after trimming (an empty quote is its own case), and not
 * the one shape no quoting holds (a trailing backslash with both cartouches unbalanced; see quoteArgument).
 */
const unbalanced = (t: string, open: string, close: string): boolean => t.split(open).length !== t.split(close).length || t.indexOf(close) < t.indexOf(open) && t.includes(close);
const text = hostile.filter((t) => t.trim() !== '' && !(t.endsWith('\\') && unbalanced(t, '‹', '›') && unbalanced(t, '\\<open>', '\\<close>')));
const ruleName = fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_'.]{0,8}$/);

const commandsOf = (text: fc.Arbitrary<string>): fc.Arbitrary<ShellCommand> => fc.oneof(
  text.map((t) => ({ name: 'DEFINE', text: t }) as ShellCommand),
  text.map((t) => ({ name: 'PRELUDE', text: t }) as ShellCommand),
  text.map((t) => ({ name: 'GOAL', expr: t }) as ShellCommand),
  text.map((t) => ({ name: 'HAVE', expr: t }) as ShellCommand),
  text.map((t) => ({ name: 'APPLY', tactic: t.trim() }) as ShellCommand),
  text.map((t) => ({ name: 'CHECK', term: t }) as ShellCommand),
  fc.array(ruleName, { maxLength: 4 }).map((rules) => ({ name: 'CRUSH', rules }) as ShellCommand),
);
/** What a request can carry: no CR (the parser refuses control characters; a line feed inside a quote is kept). */
const commands = commandsOf(text.filter((t) => !t.includes('\r')));
/** What a typed command may hold before the wire form (text from a CRLF file included). */
const anyCommands = commandsOf(text);

const oneLine = (c: ShellCommand): ShellCommand => Object.fromEntries(Object.entries(c).map(([k, v]) => [k, typeof v === 'string' ? v.replace(/[\r\n]+/g, ' ') : v])) as ShellCommand;

describe('formatCommand ∘ parseRequest round-trips (fast-check)', () => {
  it('the plain form reads back as the same command', () => {
    fc.assert(fc.property(commands, (c) => {
      const parsed = parseRequest(formatCommand(c));
      expect('command' in parsed ? parsed.command : parsed).toEqual(c);
    }), { numRuns: 2000 });
  });

  it('the wire form is one line and reads back as the command with line breaks as blanks', () => {
    fc.assert(fc.property(anyCommands, (c) => {
      const line = formatCommand(c, { wire: true });
      expect(line).not.toMatch(/[\r\n]/);
      const parsed = parseRequest(line);
      expect('command' in parsed ? parsed.command : parsed).toEqual(oneLine(c));
    }), { numRuns: 2000 });
  });
});
