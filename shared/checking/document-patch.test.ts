import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { CheckedLine } from './checked-lines.ts';
import type { DocumentState } from './document-check.ts';
import { applyDocumentPatch, diffDocumentState } from './document-patch.ts';

const state = (seq: number, entries: CheckedLine[], extra: Partial<DocumentState> = {}): DocumentState =>
  ({ uri: 'u', client: 'c', version: 1, session: 1, seq, check: { entries }, ...extra });
const line = (n: number): CheckedLine => ({ line: n, text: `APPLY t${n}`, stepBefore: n - 1, stepAfter: n });

describe('document patches', () => {
  it('send only the lines that changed, and rebuild the state on the other side', () => {
    const a = state(1, [line(1), line(2)]);
    const b = state(2, [...a.check.entries, line(3)], { channel: 4 });
    b.check.running = { line: 4, since: 9 };
    const patch = diffDocumentState(a, b);
    expect(patch).toMatchObject({ seq: 2, keep: 2, append: [line(3)], channel: 4, running: { line: 4, since: 9 } });
    expect(applyDocumentPatch(a, patch)).toEqual(b);
    const c = state(3, [line(1)]);
    expect(diffDocumentState(b, c)).toMatchObject({ keep: 1, append: [] });
    expect(applyDocumentPatch(b, diffDocumentState(b, c))).toEqual(c);
  });

  it('refuse a patch that does not follow the state (a missed one, another session)', () => {
    const a = state(1, [line(1)]);
    const c = state(3, [line(1), line(2)]);
    expect(applyDocumentPatch(a, diffDocumentState(state(2, [line(1)]), c))).toBeUndefined();
    expect(applyDocumentPatch(a, { ...diffDocumentState(a, state(2, [])), session: 2 })).toBeUndefined();
    // A new session starts from nothing.
    expect(applyDocumentPatch(a, diffDocumentState(undefined, state(1, [line(1)], { session: 2 })))).toEqual(state(1, [line(1)], { session: 2 }));
  });

  it('any sequence of appends and cuts arrives intact, each patch as large as the change', () => {
    fc.assert(fc.property(fc.array(fc.oneof(fc.integer({ min: 1, max: 3 }).map((n) => ({ add: n })), fc.nat(5).map((n) => ({ cut: n }))), { maxLength: 40 }), (ops) => {
      let host: DocumentState | undefined;
      let client: DocumentState | undefined;
      let entries: CheckedLine[] = [];
      ops.forEach((op, i) => {
        const before = entries.length;
        entries = 'add' in op ? [...entries, ...Array.from({ length: op.add }, (_, k) => line(before + k + 1))] : entries.slice(0, Math.max(0, before - op.cut));
        const next = state(i + 1, entries);
        const patch = diffDocumentState(host, next);
        expect(patch.append.length).toBe('add' in op ? op.add : 0);
        client = applyDocumentPatch(client, patch);
        host = next;
        expect(client).toEqual(next);
      });
    }));
  });
});
