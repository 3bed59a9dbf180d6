import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { COMMAND_NAMES } from '../shared/protocol/commands.ts';

/**
 * Attack on the command-list lint (command-lists.test.ts reads line by line): a list written one name per
 * line — an array or a Set literal spread over lines — passes it. This scan reads whole array literals.
 */
const ROOTS = ['main', 'shared', 'renderer', 'preload'];
const EXEMPT = ['shared/protocol/commands.ts', 'main/provers/isabelle/minilang-policy.ts', 'main/provers/isabelle/test-fixtures/'];
const sourceFiles = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return e.name === 'node_modules' ? [] : sourceFiles(path);
    return /\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name) ? [path] : [];
  });

const name = `['"\`](?:${COMMAND_NAMES.join('|')})['"\`]`;
/** An array literal whose elements include two or more command names, over any number of lines. */
const multiLineArray = new RegExp(`\\[[^\\[\\]]*?${name}\\s*,[^\\[\\]]*?${name}[^\\[\\]]*?\\]`, 'g');

function arrayLists(text: string): string[] {
  const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
  return [...code.matchAll(multiLineArray)].map((m) => m[0].replace(/\s+/g, ' ')).filter((m) => /\n/.test(m) || true);
}

describe('the command-list lint, attacked', () => {
  it('finds a list of command names written one per line', () => {
    expect(arrayLists("const ALLOWED = new Set([\n  'HAVE',\n  'OBTAIN',\n]);")).toHaveLength(1);
    expect(arrayLists("const ONE = ['HAVE'];\nconst xs = [1, 2];")).toEqual([]);
  });

  it('no source file outside the table holds an array of command names, however it is laid out', () => {
    const offenders = ROOTS.flatMap(sourceFiles)
      .map((p) => p.split('\\').join('/'))
      .filter((p) => !EXEMPT.some((x) => p.startsWith(x)))
      .flatMap((p) => arrayLists(readFileSync(p, 'utf8')).map((list) => `${p}: ${list.slice(0, 160)}`));
    expect(offenders).toEqual([]);
  });
});
