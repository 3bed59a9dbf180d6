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

describe('librarySentences: what a section or module that has ended opened ended with it', () => {
  it('an Open Scope or Import inside an ended section or module is left out; a Require there only loads', () => {
    expect(librarySentences(['Section S.', 'Open Scope Z_scope.', 'End S.', 'Open Scope R_scope.'])).toEqual(['Open Scope R_scope.']);
    expect(librarySentences(['Module M.', 'Import ListNotations.', 'Module N.', 'Open Scope Z_scope.', 'End N.', 'End M.'])).toEqual([]);
    expect(librarySentences(['Module M.', 'From Coq Require Import ZArith.', 'Require Export Reals.', 'End M.'])).toEqual(['From Coq Require ZArith.', 'Require Reals.']);
  });

  it('inside a section or module still open at the goal, they are in force: kept', () => {
    expect(librarySentences(['Section S.', 'Open Scope Z_scope.'])).toEqual(['Open Scope Z_scope.']);
    expect(librarySentences(['Module M.', 'Section S.', 'Open Scope Z_scope.', 'End S.', 'Import ListNotations.'])).toEqual(['Import ListNotations.']);
  });
});
