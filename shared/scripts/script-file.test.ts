import { describe, expect, it } from 'vitest';
import { scriptFile, toTheory } from './script-file.ts';

describe('scriptFile', () => {
  it('names the file after the document with the prover\'s extension', () => {
    expect(scriptFile('coq', 'Qed.', '03-sqrt2.arbor')).toEqual({ name: 'sqrt2.v', text: 'Qed.' });
    expect(scriptFile('lean', 'theorem t : True := by trivial', 'my proof.arbor').name).toBe('my_proof.lean');
    expect(scriptFile('eq', 'Qed.').name).toBe('arbor_proof.v');
  });

  it('gives an Isabelle script a theory header matching the file name', () => {
    const file = scriptFile('isabelle', 'lemma "True" by simp', 'sqrt2.arbor');
    expect(file.name).toBe('sqrt2.thy');
    expect(file.text).toBe('theory sqrt2\n  imports Main\nbegin\n\nlemma "True" by simp\n\nend\n');
    expect(toTheory('theory Scratch imports Main begin lemma "True" by simp end', 'sqrt2')).toMatch(/^theory sqrt2 imports Main/);
    expect(() => toTheory('x', '1bad')).toThrow(/not an Isabelle theory name/);
  });
});
