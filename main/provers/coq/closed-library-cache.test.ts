import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeEach, describe, expect, it } from 'vitest';
import { ClosedLibraryCache, type LibraryIO } from './closed-library-cache.ts';

const ROOT = fileURLToPath(new URL('../../../.tmp/closed-library-cache/', import.meta.url));
const COQLIB = join(ROOT, 'coq');
const PROJECT = join(ROOT, 'project');
/** One store file per test: a process keeps what it read of a store file. */
let n = 0;
let STORE = '';

/**
 * A unit-test double of coqidetop's answers to `Print Libraries` and `Locate Library` (the real ones are
 * exercised by closed-constants.test.ts through arbor-shell): which libraries are loaded, from which files.
 */
const fakeCoq = (files: Record<string, string>, version = '8.16.1'): LibraryIO => ({
  query: async (sentences) => {
    if (sentences === 'Print Libraries.') return [`Loaded library files: \n${Object.keys(files).map((l) => `  ${l}`).join('\n')}`];
    return [...sentences.matchAll(/Locate Library (\S+)\./g)].map((m) => `${m[1]} has been loaded from file\n${files[m[1] as string]}`);
  },
  coqVersion: async () => version,
});

const write = (file: string, text: string): string => {
  mkdirSync(join(file, '..'), { recursive: true });
  writeFileSync(file, text);
  return file;
};

describe('closed library constants remembered on disk', () => {
  let files: Record<string, string>;
  beforeEach(() => {
    rmSync(ROOT, { recursive: true, force: true });
    STORE = join(ROOT, 'cache', `closed-${n++}.json`);
    files = {
      'Coq.Init.Prelude': write(join(COQLIB, 'theories/Init/Prelude.vo'), 'prelude'),
      'Coq.Arith.PeanoNat': write(join(COQLIB, 'theories/Arith/PeanoNat.vo'), 'peano v1'),
      'Coq.Evil': write(join(PROJECT, 'Evil.vo'), 'a project bound to the Coq root'),
    };
  });
  // The session began after the library files were written (they are older than what it loaded).
  const later = (): number => Date.now() + 60_000;

  it('knows, in a new session, a library constant an earlier one found closed; never a document or project constant', async () => {
    const first = new ClosedLibraryCache(fakeCoq(files), STORE, later());
    await first.remember(['Coq.Arith.PeanoNat.Nat.min', 'Top.dbl', 'Coq.Evil.cheat', 'Other.Lib.x']);
    const second = new ClosedLibraryCache(fakeCoq(files), STORE, later());
    expect([...(await second.knownClosed(['Coq.Arith.PeanoNat.Nat.min', 'Coq.Arith.PeanoNat.Nat.max', 'Top.dbl', 'Coq.Evil.cheat', 'Other.Lib.x']))]).toEqual(['Coq.Arith.PeanoNat.Nat.min']);
  });

  it('forgets everything when the library file, the Coq build, or the file since the session began differ', async () => {
    await new ClosedLibraryCache(fakeCoq(files), STORE, later()).remember(['Coq.Arith.PeanoNat.Nat.min']);
    expect((await new ClosedLibraryCache(fakeCoq(files, '8.17.0'), STORE, later()).knownClosed(['Coq.Arith.PeanoNat.Nat.min'])).size).toBe(0);
    // Changed after the session began: what is on disk may not be what its coqidetop loaded.
    expect((await new ClosedLibraryCache(fakeCoq(files), STORE, 0).knownClosed(['Coq.Arith.PeanoNat.Nat.min'])).size).toBe(0);
    write(files['Coq.Arith.PeanoNat'] as string, 'peano v2, rebuilt');
    expect((await new ClosedLibraryCache(fakeCoq(files), STORE, later()).knownClosed(['Coq.Arith.PeanoNat.Nat.min'])).size).toBe(0);
  });

  it('reads a damaged cache file as empty', async () => {
    write(STORE, '{ not json');
    expect((await new ClosedLibraryCache(fakeCoq(files), STORE, later()).knownClosed(['Coq.Arith.PeanoNat.Nat.min'])).size).toBe(0);
  });
});
