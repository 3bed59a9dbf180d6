import { describe, expect, it } from 'vitest';
import { readTermInput, quoteTerm } from './term-input.ts';
import { ToolError } from './tool-error.ts';
import { termShape } from './term-shape.ts';

const reason = (f: () => unknown): string | undefined => {
  try {
    f();
  } catch (err) {
    return err instanceof ToolError ? `${err.reason}: ${err.message}` : String(err);
  }
  return undefined;
};

describe('check_term_validity input', () => {
  it('reads the seed\'s assert form and bare terms', () => {
    expect(readTermInput('assert (n + 0 = n).')).toEqual({ kind: 'assertion', prop: 'n + 0 = n' });
    expect(readTermInput('assert (H1 : forall x, x = x)')).toEqual({ kind: 'assertion', prop: 'forall x, x = x' });
    expect(readTermInput('Nat.add n 0')).toEqual({ kind: 'term', term: 'Nat.add n 0' });
    expect(readTermInput('(a, b).1')).toEqual({ kind: 'term', term: '(a, b).1' });
  });

  it('refuses injection attempts with parse error', () => {
    for (const attempt of [
      'True). Redirect "/tmp/arbor-pwned" Print nat. (True',
      'assert (True). Load "/etc/passwd".',
      'n (* comment *)',
      'True)',
      'Redirect "/tmp/x" Print nat',
      'x\ny',
    ]) expect(reason(() => readTermInput(attempt)), attempt).toMatch(/^injection: parse error: /);
    expect(reason(() => readTermInput('  '))).toMatch(/^bad_argument/);
  });

  it('quotes terms for the protocol', () => {
    expect(quoteTerm('a "b"')).toBe('‹a "b"›');
    expect(quoteTerm('a')).toBe('"a"');
  });

  it('reads top-level shapes', () => {
    expect(termShape('forall n : nat, n + 0 = n')).toMatchObject({ kind: 'forall', binders: 'n : nat', body: { kind: 'relation', op: '=' } });
    expect(termShape('A -> B <-> C')).toMatchObject({ kind: 'implies', parts: [{ kind: 'atom' }, { kind: 'iff' }] });
    expect(termShape('P -> forall x, Q x -> R')).toMatchObject({ kind: 'implies', parts: [{ text: 'P' }, { kind: 'forall' }] });
    expect(termShape('(a <= b) /\\ f (x = y) z')).toMatchObject({ kind: 'and', parts: [{ kind: 'relation', op: '<=' }, { kind: 'application', head: 'f' }] });
  });
});
