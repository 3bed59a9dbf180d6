import { describe, expect, it } from 'vitest';
import { librarySentences } from './statement-reading.ts';

describe('librarySentences: the declarations the clean reading also runs', () => {
  const declarations = ['Require Import  Reals.', 'Open Scope R_scope.', 'Definition x := 1.', 'Export Set Implicit Arguments.', 'From Coq Require Import\nZArith.', 'Import (* c *) M.', 'Local Close Scope nat_scope.'];

  it('keeps whole library sentences, blanks collapsed; never an option or a sentence with a comment', () => {
    expect(librarySentences(declarations)).toEqual(['Require Import Reals.', 'Open Scope R_scope.', 'From Coq Require Import ZArith.', 'Local Close Scope nat_scope.']);
  });

  it('answers the same when asked again (each sentence is read once and remembered)', () => {
    const first = librarySentences(declarations);
    expect(librarySentences([...declarations, 'Import M.'])).toEqual([...first, 'Import M.']);
    expect(librarySentences(declarations)).toEqual(first);
  });
});
