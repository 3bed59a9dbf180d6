import { describe, expect, it } from 'vitest';
import { EditHistory } from './edit-history.ts';
import { formatEditHistory } from './format-edit-history.ts';
import { SuggestionQueue } from './suggestion-queue.ts';

describe('edit history and suggestion queue', () => {
  it('prints the seed format and round-trips through JSON', () => {
    const h = new EditHistory();
    h.add({ lhs: 'n + 0', rhs: 'n', outcome: 'manual', source: 'user', time: 0 });
    h.add({ lhs: 'x * 1', rhs: 'x', outcome: 'accepted', source: 'agent:claude', time: 1000, suggestionId: 2 });
    h.add({ lhs: 'H : P -> Q', rhs: 'H : Q', outcome: 'rejected', source: 'agent:other', time: 2000, hypothesisName: 'H' });
    const text = formatEditHistory(h.list());
    expect(text.split('\n').slice(0, 3)).toEqual(['=== EDIT HISTORY (3 edits) ===', '', '1. "n + 0" -> "n"']);
    expect(text).toContain('2. "x * 1" -> "x"');
    expect(text).toContain('3. "H : P -> Q" -> "H : Q"');
    expect(text).toContain('   rejected · agent:other · 1970-01-01T00:00:02.000Z');
    const back = EditHistory.parse(h.serialize());
    expect(back.list()).toEqual(h.list());
    expect(() => EditHistory.parse('{"version":2,"edits":[]}')).toThrow(/edit history/);
    expect(() => EditHistory.parse('nope')).toThrow('edit history: not JSON');
  });

  it('queues suggestions tagged by author, finds pending duplicates, decides once', () => {
    const q = new SuggestionQueue();
    const edit = { kind: 'hypothesis-edit' as const, hypothesisName: 'H', originalValue: 'n + 0 = n', suggestedValue: 'n = n', newName: "H'" };
    const a = q.add({ from: 'agent:a', edit, label: 'valid', apply: [], step: 2 });
    q.add({ from: 'agent:b', edit: { kind: 'commands', commands: ['APPLY lia'] }, label: 'closes_goal', apply: ['APPLY lia'], step: 2 });
    expect(q.findPendingDuplicate({ ...edit, suggestedValue: 'n  =  n' })?.id).toBe(a.id);
    expect(q.list({ from: 'agent:b' })).toHaveLength(1);
    q.decide(a.id, 'accepted');
    expect(() => q.decide(a.id, 'rejected')).toThrow('already accepted');
    expect(q.findPendingDuplicate(edit)).toBeUndefined();
    expect(formatEditHistory([], q.list({ status: 'pending' }))).toContain('#2 APPLY lia  [closes_goal] from agent:b');
  });
});
