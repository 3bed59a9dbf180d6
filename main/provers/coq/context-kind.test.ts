import { describe, expect, it } from 'vitest';
import { guessKind, kindsFromCheck, looksLikeProp, sortQuery } from './context-kind.ts';

describe('context kinds', () => {
  it('recognises propositional shapes', () => {
    for (const p of ['n + m = m + n', 'a <> b', 'A /\\ B', '~ P', 'exists x, x = 1', 'n <= m', 'True']) expect(looksLikeProp(p)).toBe(true);
    for (const t of ['nat', 'list nat', 'nat -> nat', 'Type', 'P']) expect(looksLikeProp(t)).toBe(false);
  });
  it('reads Check answers', () => {
    expect(sortQuery(['nat', 'P'])).toBe('Check ((nat), (P)).');
    expect(kindsFromCheck('(nat, P)\n     : Set * Prop', 2)).toEqual(['var', 'hyp']);
    expect(kindsFromCheck('nat -> nat\n     : Set', 1)).toEqual(['var']);
    expect(kindsFromCheck('(Type, P) : Type * Prop', 2)).toEqual(['var', 'hyp']);
    expect(kindsFromCheck('(nat, P) : Set * Prop', 3)).toBeUndefined();
  });
  it('guesses when Coq cannot say', () => {
    expect(guessKind('n', 'nat')).toBe('var');
    expect(guessKind('H', 'P')).toBe('hyp');
  });
});
