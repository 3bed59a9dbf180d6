import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatQuery, queryCommand } from './format-query.ts';
import { parseRequest } from './parse-request.ts';

describe('formatQuery', () => {
  it('round-trips through the shell parser', () => {
    for (const [kind, text] of [['search', '_ ++ [_]'], ['search', 'length (rev _)'], ['check', 'fun x => "a"'], ['about', 'app_length'], ['print', 'Nat.add'], ['locate', '"++"']] as const) {
      const q = queryCommand(kind, text);
      expect(parseRequest(formatQuery(q))).toMatchObject({ command: q });
    }
  });

  it('never lets a pattern or term out of its quotes', () => {
    // eslint-disable-next-line no-control-regex
    fc.assert(fc.property(fc.string({ minLength: 1 }).filter((s) => s.trim() !== '' && !/[\u0000-\u001f\u007f]/.test(s)), (text) => {
      const parsed = parseRequest(formatQuery(queryCommand('check', text)));
      expect(parsed).toMatchObject({ command: { name: 'CHECK', term: text.trim() } });
    }));
  });
});
