import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LineSplitter } from './line-splitter.ts';
import { splitRequests } from './split-requests.ts';

const texts = (line: string): string[] => splitRequests(line).map((r) => r.text);

describe('splitRequests', () => {
  it('splits on semicolons and ignores empty requests', () => {
    expect(texts('HAVE "A"; END ;; ; NEXT')).toEqual(['HAVE "A"', 'END', 'NEXT']);
    expect(texts(' ; ')).toEqual([]);
  });

  it('does not split inside quotes, cartouches or brackets', () => {
    expect(texts('GOAL "a; b"; END')).toEqual(['GOAL "a; b"', 'END']);
    expect(texts('APPLY (intros a; simpl; rewrite IH); END')).toEqual(['APPLY (intros a; simpl; rewrite IH)', 'END']);
    expect(texts('APPLY [a;b] {c;d}')).toEqual(['APPLY [a;b] {c;d}']);
    expect(texts('OBTAIN m where \\<open>x; y\\<close>; END')).toEqual(['OBTAIN m where \\<open>x; y\\<close>', 'END']);
    expect(texts('HAVE ‹a;‹b;›c›; END')).toEqual(['HAVE ‹a;‹b;›c›', 'END']);
  });

  it('ignores whole-line // comments only', () => {
    expect(texts('  // HAVE "A"; END')).toEqual([]);
    expect(texts('END // not a comment')).toEqual(['END // not a comment']);
  });

  it('treats \\" as a literal quote inside strings', () => {
    expect(texts('GOAL "a \\"; b\\" c"; END')).toEqual(['GOAL "a \\"; b\\" c"', 'END']);
  });

  it('marks a segment left inside an unclosed quote or bracket as a parse error', () => {
    expect(splitRequests('END; GOAL "a; b')).toEqual([{ text: 'END' }, { text: 'GOAL "a; b', error: 'parse error: unclosed quote' }]);
    expect(splitRequests('APPLY (intros; END')[0]?.error).toBe("parse error: unclosed '('");
    expect(splitRequests('APPLY intros); END')[0]?.error).toBe("parse error: unbalanced ')'");
    expect(splitRequests('APPLY intros); END')[1]).toEqual({ text: 'END' });
  });

  it('never throws and never loses a non-blank segment (property)', () => {
    fc.assert(fc.property(fc.string({ unit: 'binary', maxLength: 200 }), (line) => {
      fc.pre(!/^\s*\/\//.test(line));
      const requests = splitRequests(line);
      for (const r of requests) expect(typeof r.text).toBe('string');
      // Every non-blank character of the line outside separators ends up in some request.
      const kept = requests.map((r) => r.text).join('').replace(/[\s;]/g, '').length;
      expect(kept).toBe(line.replace(/[\s;]/g, '').length);
    }));
  });
});

describe('LineSplitter', () => {
  it('splits on CR, LF and CRLF, including a CRLF across chunks', () => {
    const s = new LineSplitter();
    expect(s.push('a\rb\nc\r').map((l) => l.text)).toEqual(['a', 'b', 'c']);
    expect(s.push('\nd\r\ne').map((l) => l.text)).toEqual(['d']);
    expect(s.end().map((l) => l.text)).toEqual(['e']);
  });

  it('keeps empty lines between two line breaks of the same kind', () => {
    const s = new LineSplitter();
    expect(s.push('a\n\nb\r\rc\n').map((l) => l.text)).toEqual(['a', '', 'b', '', 'c']);
  });

  it('bounds the memory of an overlong line and reports its length', () => {
    const s = new LineSplitter(10);
    const out = [...s.push('x'.repeat(7)), ...s.push('y'.repeat(20)), ...s.push('z\nok\n')];
    expect(out).toEqual([{ text: 'xxxxxxxyyy', overlongLength: 28 }, { text: 'ok' }]);
  });

  it('reassembles any chunking of a text into the same lines (property)', () => {
    fc.assert(fc.property(fc.string({ maxLength: 100 }), fc.array(fc.nat(100), { maxLength: 5 }), (text, cuts) => {
      const whole = new LineSplitter();
      const expected = [...whole.push(text), ...whole.end()];
      const chunked = new LineSplitter();
      const points = [...new Set(cuts.map((c) => c % (text.length + 1)))].sort((a, b) => a - b);
      const got = [];
      let prev = 0;
      for (const p of [...points, text.length]) {
        got.push(...chunked.push(text.slice(prev, p)));
        prev = p;
      }
      got.push(...chunked.end());
      expect(got).toEqual(expected);
    }));
  });
});
