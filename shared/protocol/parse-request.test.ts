import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseRequest } from './parse-request.ts';

const command = (text: string) => {
  const r = parseRequest(text);
  if ('error' in r) throw new Error(r.error);
  return r.command;
};
const error = (text: string) => {
  const r = parseRequest(text);
  return 'error' in r ? r.error : undefined;
};

describe('parseRequest', () => {
  it('reads an optional leading channel id', () => {
    expect(parseRequest('42 GOAL "1 + 1 = 2"')).toMatchObject({ channel: 42, command: { name: 'GOAL', expr: '1 + 1 = 2' } });
    expect(parseRequest('END')).toMatchObject({ channel: 0, command: { name: 'END' } });
    expect(error('42GOAL "x"')).toBe('parse error: bad channel id');
  });

  it('parses every seed command', () => {
    expect(command('NEXT')).toEqual({ name: 'NEXT' });
    expect(command('CRUSH')).toEqual({ name: 'CRUSH', rules: [] });
    expect(command('CRUSH add_comm, Nat.mul_comm foo')).toEqual({ name: 'CRUSH', rules: ['add_comm', 'Nat.mul_comm', 'foo'] });
    expect(command('HAVE "A"')).toEqual({ name: 'HAVE', expr: 'A' });
    expect(command('HAVE G "forall l, P l"')).toEqual({ name: 'HAVE', hypName: 'G', expr: 'forall l, P l' });
    expect(command('HAMMER')).toEqual({ name: 'HAMMER' });
    expect(command('HAMMER 30')).toEqual({ name: 'HAMMER', timeoutSeconds: 30 });
    expect(command('RULE exI[where x=1]')).toEqual({ name: 'RULE', rule: 'exI[where x=1]' });
    expect(command('UNFOLD Nat.double')).toEqual({ name: 'UNFOLD', rule: 'Nat.double' });
    expect(command('APPLY (intros a; simpl; rewrite IH)')).toEqual({ name: 'APPLY', tactic: '(intros a; simpl; rewrite IH)' });
    expect(command('LET ?x = "sqrt 2"')).toEqual({ name: 'LET', abbrev: '?x', term: 'sqrt 2' });
    expect(command('PRINT_MODE 2')).toEqual({ name: 'PRINT_MODE', mode: 2 });
    expect(command('NEW_CHANNEL')).toEqual({ name: 'NEW_CHANNEL' });
    expect(command('RELEASE_CHANNEL')).toEqual({ name: 'RELEASE_CHANNEL' });
  });

  it('reads a name holding a no-break space as one name, as Coq does (LOCATE and\u00a0P)', () => {
    expect(command('LOCATE and\u00a0P')).toMatchObject({ name: 'LOCATE', ident: 'and\u00a0P' });
    expect(command('ABOUT x\u00a0')).toMatchObject({ name: 'ABOUT', ident: 'x\u00a0' });
  });
  it('parses OBTAIN with types, names and several conditions', () => {
    expect(command('OBTAIN m n :: nat where "m = n" and "coprime m n"')).toEqual({
      name: 'OBTAIN', vars: ['m', 'n'], type: 'nat', conds: [{ expr: 'm = n' }, { expr: 'coprime m n' }],
    });
    expect(command('OBTAIN k where hk: "m = 2 * k"')).toEqual({ name: 'OBTAIN', vars: ['k'], conds: [{ name: 'hk', expr: 'm = 2 * k' }] });
    expect(command('OBTAIN k where sqrt_rat : \\<open>¦x¦ = m / n\\<close>')).toEqual({ name: 'OBTAIN', vars: ['k'], conds: [{ name: 'sqrt_rat', expr: '¦x¦ = m / n' }] });
    expect(command('OBTAIN x y :: list nat where "x = y"')).toMatchObject({ type: 'list nat' });
    expect(error('OBTAIN where "x"')).toBe('parse error: OBTAIN needs at least one variable');
    expect(error('OBTAIN x "x"')).toMatch(/^parse error/);
  });

  it('parses the extensions', () => {
    expect(command('STATE')).toEqual({ name: 'STATE' });
    expect(command('REVERT 3')).toEqual({ name: 'REVERT', step: 3 });
    expect(command('SCRIPT')).toEqual({ name: 'SCRIPT' });
    expect(command('PRELUDE "Require Import ZArith."')).toEqual({ name: 'PRELUDE', text: 'Require Import ZArith.' });
  });

  it('takes names of every form Coq allows: unicode letters and digits, primes, dots (names are data)', () => {
    expect(command("GOAL αβ' \"True\"")).toEqual({ name: 'GOAL', theoremName: "αβ'", expr: 'True' });
    expect(command('HAVE λ₁ "True"')).toEqual({ name: 'HAVE', hypName: 'λ₁', expr: 'True' });
    expect(command('PRINT Nat.add_0_r')).toEqual({ name: 'PRINT', ident: 'Nat.add_0_r' });
    expect(command('GOAL 𝔸 "True"')).toEqual({ name: 'GOAL', theoremName: '𝔸', expr: 'True' });
    // Still no digit, prime or dot first.
    expect(error('GOAL 1x "True"')).toBe('parse error: expected a theorem name or a quoted term');
  });

  it('decodes \\" inside quoted terms', () => {
    expect(command('GOAL "s = \\"a\\""')).toEqual({ name: 'GOAL', expr: 's = "a"' });
  });

  it('gives short, stable errors', () => {
    expect(error('FOO bar')).toBe('unknown command: FOO');
    expect(error('goal "x"')).toBe('unknown command: goal');
    expect(error('')).toBe('parse error: missing command');
    expect(error('GOAL x = y')).toBe('parse error: expected a quoted term');
    expect(error('GOAL "x" junk')).toBe('parse error: unexpected text after GOAL: junk');
    expect(error('END now')).toBe('parse error: unexpected text after END: now');
    expect(error('GOAL ""')).toBe('parse error: empty quoted term');
    expect(error('PRINT_MODE 3')).toBe('parse error: PRINT_MODE takes 1 or 2');
    expect(error('HAMMER soon')).toBe('parse error: HAMMER takes a timeout in seconds');
    expect(error('APPLY')).toBe('parse error: APPLY needs a tactic');
    expect(error('GOAL "a\u0000b"')).toBe('parse error: control character in term');
    expect(error('LET x = "t"')).toBe('parse error: LET needs ?name = "term"');
  });

  it('never throws, whatever the input (property)', () => {
    fc.assert(fc.property(fc.string({ unit: 'binary', maxLength: 300 }), (text) => {
      const r = parseRequest(text);
      expect(typeof r.channel).toBe('number');
      expect('command' in r || 'error' in r).toBe(true);
    }), { numRuns: 2000 });
    const words = fc.constantFrom('GOAL', 'HAVE', 'OBTAIN', 'CRUSH', 'HAMMER', 'LET', 'REVERT', 'where', 'and', '::', '"', '\\<open>', '\\<close>', '‹', '›', ':', '?x', '=', '1', ' ');
    fc.assert(fc.property(fc.array(words, { maxLength: 12 }), (parts) => {
      const r = parseRequest(parts.join(' '));
      expect('command' in r || 'error' in r).toBe(true);
    }), { numRuns: 2000 });
  });
});
