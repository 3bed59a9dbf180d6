import { describe, expect, it } from 'vitest';
import { useRealShell } from './testing/real-shell.ts';
import { blockEffect } from './document-blocks.ts';

/**
 * Attack (atk-text): the SCRIPT's closing sentences are read from each DEFINE sentence's exact text (comments kept,
 * coq-document-text.ts `effectsOf` → `blockEffect`), and `blockEffect` splits the whole sentence on blanks after
 * removing only the *leading* comments. A comment between `Module`/`Section` and the name is taken as the name:
 * `Module (* c *) M.` closes with `End (*.` — an unterminated comment, so the reproduction script never compiles
 * with coqc (guarantee 4) although Coq ran the document and the proof finished.
 */
// Fixed (session 15): a block sentence is read without its comments (coqCode), and Coq's own answer (Arbor_blocks) must agree.
describe('a comment inside a block-opening sentence (attack, real arbor-shell)', () => {
  const real = useRealShell(['--pool', '0', '--timeout', '30']);
  it('the SCRIPT closes `Module (* c *) M.` with `End M.`, never `End (*.`', { timeout: 120_000 }, async () => {
    const r = await real.session(['DEFINE "Module (* c *) M. Definition x := 1."', 'GOAL t "x = 1"', 'APPLY (reflexivity)', 'END']);
    const end = r[3];
    expect(end?.ERR).toBe('');
    expect(end?.SCRIPT).not.toContain('End (*.');
    expect(end?.SCRIPT).toMatch(/End M\.\n?$/);
  });
  it('blockEffect of the exact text reads the name after a comment', () => {
    expect(blockEffect('Module (* c *) M.')).toEqual({ open: { kind: 'module', name: 'M' } });
    expect(blockEffect('Section (* c *) S.')).toEqual({ open: { kind: 'section', name: 'S' } });
    expect(blockEffect('Module Type (* c *) T.')).toEqual({ open: { kind: 'module type', name: 'T' } });
  });
});
