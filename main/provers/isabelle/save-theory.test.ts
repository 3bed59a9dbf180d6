import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { saveTheory, toTheory } from './save-theory.ts';

describe('toTheory / saveTheory', () => {
  it('adds a header when the script has none', () => {
    expect(toTheory('lemma "A --> A"\n  by auto\n', 'Sqrt2')).toBe('theory Sqrt2\n  imports Main\nbegin\n\nlemma "A --> A"\n  by auto\n\nend\n');
  });
  it('renames an existing header to the file name', () => {
    const script = 'theory Scratch imports Main begin\nlemma "True" by simp\nend\n';
    expect(toTheory(script, 'Proof_1')).toBe('theory Proof_1 imports Main begin\nlemma "True" by simp\nend\n');
  });
  it('rejects names Isabelle cannot use and files that are not .thy', async () => {
    expect(() => toTheory('x', 'my-proof')).toThrow(/theory name/);
    await expect(saveTheory('/tmp/x.txt', 'lemma')).rejects.toThrow(/\.thy/);
  });
  it('writes the file', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'arbor-thy-'));
    try {
      const path = join(dir, 'Demo.thy');
      await saveTheory(path, 'lemma "True" by simp', ['Main', 'HOL.Real']);
      expect(await readFile(path, 'utf8')).toBe('theory Demo\n  imports Main HOL.Real\nbegin\n\nlemma "True" by simp\n\nend\n');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
