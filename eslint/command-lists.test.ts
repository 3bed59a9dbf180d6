import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { COMMAND_NAMES } from '../shared/protocol/commands.ts';

/**
 * One command table (shared/protocol/commands.ts): no other source file keeps its own list of command names —
 * an array or set of two or more of them, a regex alternation of them, or a chain of `=== 'NAME' ||` tests.
 * A single name (`command.name === 'GOAL'`, a `case`) is typed dispatch, not a list.
 */
const ROOTS = ['main', 'shared', 'renderer', 'preload'];
/** Minilang's own keywords (the Isabelle REPL's language, which shares some words with Arbor's), and test doubles of it. */
const NOT_ARBOR_VOCABULARY = ['main/provers/isabelle/minilang-policy.ts', 'main/provers/isabelle/test-fixtures/'];
const TABLE = ['shared/protocol/commands.ts'];

const sourceFiles = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return e.name === 'node_modules' ? [] : sourceFiles(path);
    return /\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name) ? [path] : [];
  });

const names = COMMAND_NAMES.join('|');
const quoted = new RegExp(`['"\`](${names})['"\`]`, 'g');
const alternation = new RegExp(`\\b(${names})\\|(${names})\\b`);

/** The lines of `text` (comments left out) that list command names. */
function commandLists(text: string): string[] {
  return text.split('\n').filter((line) => {
    const code = line.trim();
    if (code.startsWith('*') || code.startsWith('/*') || code.startsWith('//')) return false;
    const literals = new Set([...code.matchAll(quoted)].map((m) => m[1]));
    return literals.size >= 2 || alternation.test(code);
  });
}

describe('command names live in the command table only', () => {
  it('finds a list when there is one', () => {
    expect(commandLists("const ALLOWED = new Set(['HAVE', 'OBTAIN']);")).toHaveLength(1);
    expect(commandLists('const ACTS = /^\\s*(HAVE|CRUSH)\\b/;')).toHaveLength(1);
    expect(commandLists("if (name === 'GOAL' || name === 'DEFINE') {")).toHaveLength(1);
    expect(commandLists("if (command.name === 'GOAL') return;\n * `HAVE` and `OBTAIN` open blocks")).toEqual([]);
  });

  it('no other source file lists command names', () => {
    const offenders = ROOTS.flatMap(sourceFiles)
      .map((p) => p.split('\\').join('/'))
      .filter((p) => !TABLE.includes(p) && !NOT_ARBOR_VOCABULARY.some((x) => p.startsWith(x)))
      .flatMap((p) => commandLists(readFileSync(p, 'utf8')).map((line) => `${p}: ${line.trim()}`));
    expect(offenders).toEqual([]);
  });
});
