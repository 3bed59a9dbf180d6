import { describe, expect, it } from 'vitest';
import { completionPlace } from './completion-place.ts';

describe('completionPlace', () => {
  it('offers commands at the start of a line, after a channel number and after a top-level ;', () => {
    expect(completionPlace('')).toBe('command');
    expect(completionPlace('    ')).toBe('command');
    expect(completionPlace('3 ')).toBe('command');
    expect(completionPlace('CRUSH; ')).toBe('command');
  });
  it('offers names inside a tactic: after APPLY, inside parentheses even after ;, after RULE, in quotes', () => {
    expect(completionPlace('APPLY ')).toBe('names');
    expect(completionPlace('    APPLY (simpl; ')).toBe('names');
    expect(completionPlace('APPLY (induction l; [ simpl; ')).toBe('names');
    expect(completionPlace('RULE ')).toBe('names');
    expect(completionPlace('HAVE h "forall n; ')).toBe('names');
    expect(completionPlace('APPLY (simpl); ')).toBe('command');
  });
  it('offers nothing in a comment', () => {
    expect(completionPlace('// APPLY x')).toBe('none');
  });
});
