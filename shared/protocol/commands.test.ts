import { describe, expect, it } from 'vitest';
import { COMMAND_DOCS } from '../language/command-docs.ts';
import {
  AGENT_PROPOSALS, AGENT_SESSION_COMMANDS, COMMAND_NAMES, COMMANDS, DOCUMENT_COMMANDS, MINILANG_COMMAND_NAMES, NO_NEW_STEP,
  PROOF_COMMANDS, QUERY_NAMES, TRY_COMMANDS, commandAt, commandSpec, linePattern, type ArgumentShape, type CommandName,
} from './commands.ts';
import { formatCommand } from './format-command.ts';
import { parseRequest } from './parse-request.ts';

/** Arguments of each shape, as a user writes them. */
const EXAMPLE_ARGS: Record<ArgumentShape, string> = {
  none: '',
  goal: 'plus_comm "forall n m : nat, n + m = m + n"',
  hypothesis: 'h "n + 0 = n"',
  obtain: 'k where "n = 2 * k"',
  declarations: '"Definition double (n : nat) := n + n."',
  prelude: '"Require Import Lia."',
  rules: 'app_nil_r',
  seconds: '5',
  rule: 'le_S',
  tactic: '(intros; simpl)',
  abbreviation: '?x = "n + 1"',
  'print-mode': '2',
  step: '3',
  pattern: '(_ + 0)',
  term: 'Nat.add',
  name: 'Nat.add_comm',
  'name-or-notation': '"++"',
  minilang: 'xs arbitrary: ys',
  'minilang-optional': '',
};

const sorted = (s: Iterable<string>): string[] => [...s].sort();

describe('the command table', () => {
  it('every command is parsed: its name with arguments of its shape reads back as that command, formatted the same way', () => {
    for (const name of COMMAND_NAMES) {
      const args = EXAMPLE_ARGS[commandSpec(name).args];
      const text = args === '' ? name : `${name} ${args}`;
      const parsed = parseRequest(text);
      expect(parsed, text).toHaveProperty('command.name', name);
      if ('command' in parsed) expect(parseRequest(formatCommand(parsed.command)), text).toEqual({ ...parsed, text: formatCommand(parsed.command) });
    }
  });

  it('a name outside the table is no command', () => {
    expect(parseRequest('SORRY')).toMatchObject({ error: 'unknown command: SORRY' });
    expect(parseRequest('goal "x"')).toMatchObject({ error: 'unknown command: goal' });
  });

  it('every command is documented: syntax and snippet start with its name, and the hover docs are the table\'s', () => {
    expect(sorted(Object.keys(COMMAND_DOCS))).toEqual(sorted(COMMAND_NAMES));
    for (const name of COMMAND_NAMES) {
      const { doc } = commandSpec(name);
      expect(doc.syntax, name).toMatch(new RegExp(`^(n )?${name}\\b`));
      expect(doc.snippet, name).toMatch(new RegExp(`^${name}\\b`));
      expect(doc.summary.length, name).toBeGreaterThan(20);
      expect(COMMAND_DOCS[name]).toBe(doc);
    }
  });

  it('every command is categorised, and names are plain words (safe in the patterns built from them)', () => {
    for (const name of COMMAND_NAMES) {
      const spec = commandSpec(name);
      expect(name).toMatch(/^[A-Z_]+$/);
      expect(['document', 'proof', 'setting', 'channel', 'query']).toContain(spec.level);
      expect(spec.backends === 'all' || spec.backends.every((b) => b === 'isabelle'), name).toBe(true);
      // What answers with a STEP is what works on the channel's proof; a new step always answers with one.
      if (spec.newStep) expect(spec.step, name).toBe(true);
      if (spec.actsOnGoal || spec.closesGoal) expect(spec.level, name).toBe('proof');
    }
    expect(Object.keys(COMMANDS)).toEqual(COMMAND_NAMES);
  });

  // The sets every client reads, pinned to what they were when each was its own list.
  it('derives the lists each client used to keep', () => {
    expect(sorted(DOCUMENT_COMMANDS)).toEqual(sorted(['GOAL', 'END', 'NEXT', 'CRUSH', 'HAVE', 'OBTAIN', 'HAMMER', 'RULE', 'UNFOLD', 'APPLY', 'LET', 'DEFINE']));
    expect(sorted(AGENT_PROPOSALS)).toEqual(sorted(['HAVE', 'OBTAIN', 'APPLY', 'CRUSH', 'HAMMER', 'RULE', 'UNFOLD', 'END', 'NEXT', 'LET']));
    const all = new Set<CommandName>(COMMAND_NAMES);
    const without = (names: CommandName[]): string[] => sorted([...all].filter((n) => !names.includes(n)));
    expect(sorted(TRY_COMMANDS)).toEqual(without(['NEW_CHANNEL', 'RELEASE_CHANNEL', 'CANCEL', 'GOAL', 'DEFINE', 'PRELUDE', 'PRINT_MODE']));
    expect(sorted(AGENT_SESSION_COMMANDS)).toEqual(without(['NEW_CHANNEL', 'RELEASE_CHANNEL', 'CANCEL']));
    expect(sorted(QUERY_NAMES)).toEqual(sorted(['SEARCH', 'CHECK', 'ABOUT', 'PRINT', 'LOCATE']));
    expect(sorted(MINILANG_COMMAND_NAMES)).toEqual(sorted(['INDUCT', 'CASE_SPLIT', 'INTRO', 'ALL_INTRO', 'CONSIDER', 'CHOOSE', 'NOTATION', 'OPEN_MODULE', 'CONFIG', 'STEP', 'SIMPLIFY']));
    expect(sorted(PROOF_COMMANDS)).toEqual(sorted(['GOAL', 'END', 'NEXT', 'CRUSH', 'HAVE', 'OBTAIN', 'HAMMER', 'RULE', 'UNFOLD', 'APPLY', 'LET', 'PRINT_MODE', 'STATE', 'REVERT', 'DEFINE', ...MINILANG_COMMAND_NAMES]));
    expect(sorted([...NO_NEW_STEP].filter((n) => commandSpec(n).level !== 'channel'))).toEqual(sorted(['REVERT', 'PRINT_MODE', 'STATE', 'SCRIPT', 'PRELUDE', 'SEARCH', 'CHECK', 'ABOUT', 'PRINT', 'LOCATE']));
    expect(sorted(COMMAND_NAMES.filter((n) => commandSpec(n).actsOnGoal))).toEqual(sorted(['HAVE', 'OBTAIN', 'CRUSH', 'HAMMER', 'RULE', 'UNFOLD', 'APPLY', 'END', 'NEXT', 'INDUCT', 'CASE_SPLIT', 'INTRO', 'ALL_INTRO', 'CONSIDER', 'CHOOSE']));
  });

  it('reads the command a line starts with, and builds line patterns from the table', () => {
    expect(commandAt('    HAVE h "x"')?.opensBlock).toBe(true);
    expect(commandAt('END;')?.closesGoal).toBe(true);
    expect(commandAt('ENDING')).toBeUndefined();
    expect(commandAt('END_X')).toBeUndefined();
    const openers = linePattern((c) => c.opensBlock === true);
    expect(['GOAL g "x"', '  HAVE "y"', 'OBTAIN k where "z"'].every((l) => openers.test(l))).toBe(true);
    expect(openers.test('APPLY auto')).toBe(false);
    expect(openers.test('GOALS')).toBe(false);
  });
});

