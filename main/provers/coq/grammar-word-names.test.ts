import { describe, expect, it } from 'vitest';
import { quoted, useRealShell } from './testing/real-shell.ts';

/**
 * Names that are words of `Locate`'s own grammar (`Term`, `Module`, `Library`…) are ordinary Coq names: the
 * s-expression goals (PRINT_MODE 2) and SEARCH results qualify them as any other (joint-query attack's
 * follow-up: a bare `Locate Term.` is Coq's syntax error, `Locate Term Term.` answers).
 */
describe('names that are words of Locate (real arbor-shell)', () => {
  const { session } = useRealShell(['--pool', '0']);

  it('PRINT_MODE 2 gives a constant named Term its full name; SEARCH knows a lemma named Library for a constant', async () => {
    const [define, mode, goal, search] = await session([
      `DEFINE ${quoted('Definition Term := 7. Lemma Library : Term = 7. Proof. reflexivity. Qed.')}`,
      'PRINT_MODE 2',
      `GOAL ${quoted('Term = 7')}`,
      'SEARCH (Term = _)',
    ]);
    expect(define?.ERR).toBe('');
    expect(mode?.ERR).toBe('');
    expect(goal?.ERR).toBe('');
    expect(JSON.stringify(goal?.RESPONSE)).toMatch(/Top\.Term/);
    expect(search?.ERR).toBe('');
    const results = (search?.RESPONSE as { results: { name: string; kind?: string; module?: string }[] }).results;
    const found = results.find((r) => r.name === 'Library');
    expect(found).toBeDefined();
    expect(found?.kind).toMatch(/Constant/);
  }, 120_000);

  it('PRINT of names that are `Print` subcommands (Hint, Classes) prints those objects, not the subcommand', async () => {
    const [define, hint, classes] = await session([
      `DEFINE ${quoted('Inductive Hint := A | B. Definition Classes := 3.')}`,
      'PRINT Hint',
      'PRINT Classes',
    ]);
    expect(define?.ERR).toBe('');
    expect(hint?.ERR).toBe('');
    expect(JSON.stringify(hint?.RESPONSE)).toMatch(/Inductive Hint/);
    expect(JSON.stringify(hint?.RESPONSE)).not.toMatch(/No proof in progress/);
    expect(classes?.ERR).toBe('');
    expect(JSON.stringify(classes?.RESPONSE)).toMatch(/Classes = 3/);
  }, 120_000);
});
