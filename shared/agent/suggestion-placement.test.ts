import { describe, expect, it } from 'vitest';
import { placeSuggestion, staleReason, suggestionLine } from './suggestion-placement.ts';

const script = [
  'GOAL "forall l : list nat, fold_left Nat.add l 0 = fold_right Nat.add 0 l"',
  '    HAVE G "forall (l : list nat) (a : nat), fold_left Nat.add l a = a + fold_right Nat.add 0 l"',
  '        APPLY induction l as [|x l IH]',
  '        APPLY nonsense',
  '        END',
];
const entries = [
  { line: 1, text: script[0] as string, stepBefore: 0, stepAfter: 1 },
  { line: 2, text: script[1] as string, stepBefore: 1, stepAfter: 2 },
  { line: 3, text: script[2] as string, stepBefore: 2, stepAfter: 3 },
];

describe('placing an accepted suggestion in the script', () => {
  it('joins the commands into one line (a hypothesis edit becomes HAVE …; END)', () => {
    expect(suggestionLine({ apply: ['HAVE H\' "n = n"', 'END'] })).toBe('HAVE H\' "n = n"; END');
  });

  it('inserts after the last checked line, indented like the next line', () => {
    expect(placeSuggestion(script, entries, undefined, { apply: ['APPLY lia'], step: 3 }))
      .toEqual({ line: 4, replace: 0, text: '        APPLY lia', checkThrough: 4 });
  });

  it('replaces the line that failed right after the checked region', () => {
    expect(placeSuggestion(script, entries, { line: 4 }, { apply: ['NEXT'], step: 3 }))
      .toEqual({ line: 4, replace: 1, text: '        NEXT', checkThrough: 4 });
  });

  it('goes after the line that produced the suggestion\'s step, and into a new block at the end', () => {
    expect(placeSuggestion(script, entries, undefined, { apply: ['CRUSH'], step: 2 }).line).toBe(3);
    expect(placeSuggestion(script.slice(0, 2), entries.slice(0, 2), undefined, { apply: ['CRUSH'], step: 2 }).text).toBe('        CRUSH');
  });
});

describe('staleReason', () => {
  const entries = [
    { line: 1, text: 'GOAL "A /\\ B"', stepBefore: 0, stepAfter: 1 },
    { line: 2, text: 'APPLY split', stepBefore: 1, stepAfter: 2 },
  ];
  it('a suggestion for the last checked state still fits', () => {
    expect(staleReason(entries, { step: 2 })).toBeUndefined();
  });
  it('is stale once the document moved past the state it was made for', () => {
    expect(staleReason(entries, { step: 1 })).toMatch(/after line 1; the document has moved on to line 2/);
  });
  it('is stale when the state is gone (edited or stepped back)', () => {
    expect(staleReason(entries.slice(0, 1), { step: 2 })).toMatch(/no longer has/);
    expect(staleReason([], { step: 2 })).toMatch(/no longer has/);
  });
});
