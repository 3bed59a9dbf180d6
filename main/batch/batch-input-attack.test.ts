import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readBatchInput } from './batch-input.ts';

/**
 * Issue 21 attack on batch inputs: paths that try to leave the folder (symlink chains, a folder that is a
 * link, `..` hidden in a path), and files inside it that are not files (a FIFO would block the read for
 * ever; a directory made the whole input fail). Each is refused for its own case; the others run.
 */
let dir: string;
beforeAll(() => { dir = mkdtempSync(join(tmpdir(), 'arbor-batch-attack-')); });
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const mkfifo = (path: string): void => {
  execFileSync('mkfifo', [path]);
};
/** Settles within the test's time, or says it hung (a blocked read never settles). */
const settles = <T>(p: Promise<T>, ms = 10_000): Promise<T> => Promise.race([
  p, new Promise<T>((_, reject) => setTimeout(() => reject(new Error(`did not settle within ${ms} ms (a blocked read?)`)), ms).unref()),
]);

describe('batch inputs under attack', () => {
  it('fidelity contexts: symlink chains, a linked folder, hidden .., FIFOs and directories', async () => {
    const outside = join(dir, 'outside');
    const cases = join(dir, 'cases');
    mkdirSync(outside, { recursive: true });
    mkdirSync(join(cases, 'lib', 'dir.v'), { recursive: true });
    writeFileSync(join(outside, 'secret.v'), 'Definition secret := 42.');
    writeFileSync(join(cases, 'lib', 'ok.v'), 'Definition ok := 1.');
    // chain1.v -> chain2.v -> outside/secret.v; good1.v -> good2.v -> lib/ok.v; up -> .. (a folder link out)
    symlinkSync(join(outside, 'secret.v'), join(cases, 'chain2.v'));
    symlinkSync('chain2.v', join(cases, 'chain1.v'));
    symlinkSync('lib/ok.v', join(cases, 'good2.v'));
    symlinkSync('good2.v', join(cases, 'good1.v'));
    symlinkSync('..', join(cases, 'up'));
    symlinkSync('loop2.v', join(cases, 'loop1.v'));
    symlinkSync('loop1.v', join(cases, 'loop2.v'));
    mkfifo(join(cases, 'pipe.v'));
    const rows = [
      ['chain', 'chain1.v'], ['good', 'good1.v'], ['uplink', 'up/outside/secret.v'], ['hidden', 'lib/../../outside/secret.v'],
      ['dotslash', './lib/ok.v'], ['win', 'C:\\outside\\secret.v'], ['loop', 'loop1.v'], ['fifo', 'pipe.v'], ['folder', 'lib/dir.v'],
      ['after', 'lib/ok.v'],
    ];
    const tsv = `id\tcanonical\tcandidate\tcontext\n${rows.map(([id, ctx]) => `${id}\tTrue\tTrue\t${ctx}`).join('\n')}\n`;
    writeFileSync(join(cases, 'cases.tsv'), tsv);
    // The same cases read through a folder that is itself a link to `cases`.
    symlinkSync(cases, join(dir, 'cases-link'));
    for (const input of [join(cases, 'cases.tsv'), join(dir, 'cases-link', 'cases.tsv')]) {
      const { items, bad } = await settles(readBatchInput('fidelity', input));
      const context = (id: string): unknown => (items.find((i) => i.id === id)?.job as { context?: string } | undefined)?.context;
      expect(context('good')).toBe('Definition ok := 1.');
      expect(context('dotslash')).toBe('Definition ok := 1.');
      expect(context('after')).toBe('Definition ok := 1.');
      expect(bad.map((b) => b.id).sort()).toEqual(['chain', 'fifo', 'folder', 'hidden', 'uplink', 'win'].sort());
      expect(bad.find((b) => b.id === 'fifo')?.message).toMatch(/not a regular file/);
      expect(bad.find((b) => b.id === 'folder')?.message).toMatch(/not a regular file/);
      expect(JSON.stringify({ items, bad })).not.toContain('secret := 42');
    }
  });

  it('check folders: a FIFO is refused alone, a folder link out is not walked; odd names run', async () => {
    const docs = join(dir, 'docs');
    mkdirSync(join(docs, 'sub.arbor'), { recursive: true });
    writeFileSync(join(docs, 'a.arbor'), 'GOAL "True"\nEND\n');
    writeFileSync(join(docs, 'new\nline.arbor'), 'GOAL "True"\nEND\n');
    writeFileSync(join(docs, 'sub.arbor', 'inner.arbor'), 'GOAL "True"\nEND\n');
    mkfifo(join(docs, 'pipe.arbor'));
    // A folder link that leads back up: the listing does not follow it (it walked the disk until ELOOP).
    symlinkSync('..', join(docs, 'parent'));
    const { items, bad } = await settles(readBatchInput('check', docs));
    expect(items.map((i) => i.id).sort()).toEqual(['a.arbor', 'new\nline.arbor', 'sub.arbor/inner.arbor']);
    expect(bad.map((b) => [b.id, b.message])).toEqual([['pipe.arbor', expect.stringMatching(/not a regular file/)]]);
  });
});
