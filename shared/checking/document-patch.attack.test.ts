import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { CheckedLine } from './checked-lines.ts';
import type { DocumentState } from './document-check.ts';
import type { DocumentPatch } from './document-patch.ts';
import { applyDocumentPatch, diffDocumentState } from './document-patch.ts';

/**
 * Attacks on the pure patch code: whatever two states the host publishes one after the other, the patch
 * between them rebuilds the second exactly; a client that drops, reorders or duplicates patches either
 * ends equal to the host or refuses (and resyncs), never silently different.
 */
const lineArb: fc.Arbitrary<CheckedLine> = fc.record({
  line: fc.integer({ min: 1, max: 6 }),
  text: fc.constantFrom('APPLY a', 'APPLY b', 'END', 'GOAL "x"'),
  stepBefore: fc.integer({ min: 0, max: 3 }),
  stepAfter: fc.integer({ min: 0, max: 3 }),
});

const stateArb = (seq: number, session = 1): fc.Arbitrary<DocumentState> => fc.record({
  entries: fc.array(lineArb, { maxLength: 6 }),
  error: fc.option(fc.record({ line: fc.nat(5), message: fc.string() }), { nil: undefined }),
  running: fc.option(fc.record({ line: fc.nat(5), since: fc.nat() }), { nil: undefined }),
  target: fc.option(fc.nat(9), { nil: undefined }),
  channel: fc.option(fc.nat(9), { nil: undefined }),
}).map(({ entries, error, running, target, channel }) => {
  const s: DocumentState = { uri: 'file:///a.arbor', client: 'w', version: seq, session, seq, check: { entries } };
  if (error) s.check.error = error;
  if (running) s.check.running = running;
  if (target !== undefined) s.check.target = target;
  if (channel !== undefined) s.channel = channel;
  return s;
});

describe('document patches under attack', () => {
  it('the patch between any two states rebuilds the second (not only appends and cuts)', () => {
    fc.assert(fc.property(stateArb(1), stateArb(2), (a, b) => {
      expect(applyDocumentPatch(a, diffDocumentState(a, b))).toEqual(b);
    }), { numRuns: 2000 });
  });

  it('the patch rebuilds the second state when its first line is the same object but a middle line changed', () => {
    // The host shares unchanged CheckedLine objects between states; a middle line can differ by value
    // while the first is the same object and the last compares equal.
    const first: CheckedLine = { line: 1, text: 'GOAL "x"', stepBefore: 0, stepAfter: 1 };
    const last: CheckedLine = { line: 3, text: 'END', stepBefore: 2, stepAfter: 3 };
    const a: DocumentState = { uri: 'u', client: 'c', version: 1, session: 1, seq: 1, check: { entries: [first, { line: 2, text: 'APPLY a', stepBefore: 1, stepAfter: 2 }, last] } };
    const b: DocumentState = { ...a, seq: 2, check: { entries: [first, { line: 2, text: 'APPLY b', stepBefore: 1, stepAfter: 2 }, { ...last }] } };
    expect(applyDocumentPatch(a, diffDocumentState(a, b))).toEqual(b);
  });

  it('a client that receives the host\'s patches dropped, duplicated or reordered ends equal or knows it is behind', () => {
    fc.assert(fc.property(
      fc.array(stateArb(0), { minLength: 1, maxLength: 12 }),
      fc.array(fc.constantFrom('deliver', 'drop', 'dup', 'swap'), { minLength: 12, maxLength: 12 }),
      (raw, fate) => {
        // The host: consecutive states of one session, each published as a patch of the previous.
        const states = raw.map((s, i) => ({ ...s, seq: i + 1 }));
        const patches: DocumentPatch[] = states.map((s, i) => diffDocumentState(states[i - 1], s));
        const wire: DocumentPatch[] = [];
        patches.forEach((p, i) => {
          const f = fate[i];
          if (f === 'drop') return;
          if (f === 'swap' && wire.length > 0) wire.splice(wire.length - 1, 0, p);
          else wire.push(p);
          if (f === 'dup') wire.push(p);
        });
        // The client as document-client.ts: apply when it follows; on a gap, fetch the whole state.
        let known: DocumentState | undefined;
        for (const p of wire) {
          if (known && known.session === p.session && known.seq >= p.seq) continue;
          const next = applyDocumentPatch(known, p);
          known = next ?? states[p.seq - 1];
        }
        const last = states.at(-1) as DocumentState;
        if (known?.seq === last.seq) expect(known).toEqual(last);
        else {
          // Behind only when the last patch(es) never arrived, never with a wrong state at a seq it claims.
          if (known) expect(known).toEqual(states[known.seq - 1]);
        }
      },
    ), { numRuns: 1000 });
  });

  it('a patch of another session or with keep past the state refuses instead of guessing', () => {
    const a: DocumentState = { uri: 'u', client: 'c', version: 1, session: 1, seq: 1, check: { entries: [] } };
    expect(applyDocumentPatch(a, { uri: 'u', client: 'c', version: 1, session: 1, seq: 2, keep: 1, append: [] })).toBeUndefined();
    expect(applyDocumentPatch(a, { uri: 'u', client: 'c', version: 1, session: 2, seq: 2, keep: 0, append: [] })).toBeUndefined();
    expect(applyDocumentPatch(a, { uri: 'u', client: 'c', version: 1, session: 1, seq: 1, keep: 0, append: [] })).toBeUndefined();
    expect(applyDocumentPatch(a, { uri: 'u', client: 'c', version: 1, session: 1, seq: Number.MAX_SAFE_INTEGER, keep: 0, append: [] })).toBeUndefined();
  });
});
