import { describe, expect, it } from 'vitest';
import { checkCoqPrelude } from './prelude-policy.ts';

describe('checkCoqPrelude', () => {
  it('allows declarations and imports', () => {
    expect(checkCoqPrelude('Require Import ZArith. (* arithmetic *)\nDefinition double (n : nat) := n + n.')).toBeUndefined();
    expect(checkCoqPrelude('From Coq Require Import List. #[local] Hint Resolve app_nil_r : core. Local Open Scope Z_scope.')).toBeUndefined();
    expect(checkCoqPrelude('Fixpoint sum (n : nat) : nat := match n with 0 => 0 | S k => S k + sum k end.')).toBeUndefined();
    expect(checkCoqPrelude('Definition s := "a. Load x.".')).toBeUndefined();
  });

  it('refuses commands that reach files, the load path or the process', () => {
    expect(checkCoqPrelude('Redirect "x" Print nat.')).toBe('parse error: prelude sentence not allowed: Redirect');
    expect(checkCoqPrelude('Require Import Arith. Load "/etc/passwd".')).toBe('parse error: prelude sentence not allowed: Load');
    expect(checkCoqPrelude('Cd "/tmp".')).toBe('parse error: prelude sentence not allowed: Cd');
    expect(checkCoqPrelude('Declare ML Module "evil".')).toBe('parse error: prelude sentence not allowed: Declare');
    expect(checkCoqPrelude('Local Redirect "x" Print nat.')).toBe('parse error: prelude sentence not allowed: Redirect');
    expect(checkCoqPrelude('Set Extraction Output Directory "/tmp".')).toMatch(/^parse error: prelude option not allowed/);
  });

  it('refuses assumptions, so reproduction scripts stay closed under the global context', () => {
    expect(checkCoqPrelude('Axiom cheat : False.')).toBe('parse error: prelude sentence not allowed: Axiom');
    expect(checkCoqPrelude('Parameter x : nat.')).toBe('parse error: prelude sentence not allowed: Parameter');
    expect(checkCoqPrelude('Definition x : nat. admit.')).toBe('parse error: prelude may not admit anything');
  });

  it('refuses unfinished text', () => {
    expect(checkCoqPrelude('Require Import Arith')).toBe('parse error: prelude does not end with "."');
    expect(checkCoqPrelude('Definition x := 1. (* open')).toBe('parse error: unclosed comment in prelude');
  });
});
