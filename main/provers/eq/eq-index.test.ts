import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fingerprint, unifiableFp } from './fingerprint.ts';
import { PassiveQueue } from './passive-queue.ts';
import { PerfectIndex } from './perfect-index.ts';
import { match, unify } from './substitution.ts';
import { type Term, TermBank } from './term.ts';

/** Random terms over *, \, T and three variables / the identity. */
const termArb = (bank: TermBank, vars: number): fc.Arbitrary<Term> =>
  fc.letrec((tie) => ({
    t: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      fc.integer({ min: 0, max: vars - 1 }).map((i) => bank.v(i)),
      fc.constant(bank.app(0, [])),
      fc.tuple(fc.constantFrom(1, 2, 6), tie('t'), tie('t')).map(([f, a, b]) => bank.app(f, [a as Term, b as Term])),
    ),
  })).t as fc.Arbitrary<Term>;

describe('perfect discrimination tree', () => {
  it('finds exactly the stored patterns that match, with their substitution (property)', () => {
    const bank = new TermBank();
    fc.assert(
      fc.property(fc.array(termArb(bank, 3), { minLength: 1, maxLength: 8 }), termArb(bank, 3), (patterns, query) => {
        const index = new PerfectIndex<number>();
        patterns.forEach((p, i) => index.insert(p, i));
        const hits: number[] = [];
        index.retrieve(query, (i, s) => {
          const p = patterns[i] as Term;
          // the handed substitution really instantiates the pattern to the query
          const m = match(p, query);
          expect(m).toBeDefined();
          for (let v = 0; v <= p.maxVar; v++) if (m?.[v]) expect(s[v]).toBe(m[v]);
          hits.push(i);
          return false;
        });
        const expected = patterns.map((p, i) => (match(p, query) ? i : -1)).filter((i) => i >= 0);
        expect(hits.sort()).toEqual(expected.sort());
      }),
      { numRuns: 300 },
    );
  });
  it('decides non-linear patterns in the tree and prunes dead values', () => {
    const bank = new TermBank();
    const x = bank.v(0);
    const e = bank.app(0, []);
    const index = new PerfectIndex<string>();
    index.insert(bank.app(1, [x, x]), 'xx');
    const hits: string[] = [];
    index.retrieve(bank.app(1, [e, e]), (v) => (hits.push(v), false));
    index.retrieve(bank.app(1, [e, bank.v(1)]), (v) => (hits.push(v), false));
    expect(hits).toEqual(['xx']);
    index.prune(() => true);
    expect(index.count).toBe(0);
  });
});

describe('fingerprints', () => {
  it('never reject a unifiable pair (property)', () => {
    const bank = new TermBank();
    fc.assert(
      fc.property(termArb(bank, 2), termArb(bank, 2), (a, b) => {
        const shifted = bank.import(b, bank);
        const rename = (t: Term): Term => (t.f < 0 ? bank.v(-t.f - 1 + 10) : t.args.length ? bank.app(t.f, t.args.map(rename)) : t);
        const c = rename(shifted);
        if (unify(bank, a, c)) expect(unifiableFp(fingerprint(a), fingerprint(c))).toBe(true);
      }),
      { numRuns: 500 },
    );
  });
  it('reject different head symbols and missing positions', () => {
    const bank = new TermBank();
    const x = bank.v(0);
    const e = bank.app(0, []);
    expect(unifiableFp(fingerprint(bank.app(1, [x, x])), fingerprint(bank.app(2, [x, x])))).toBe(false);
    expect(unifiableFp(fingerprint(bank.app(1, [x, e])), fingerprint(bank.app(1, [e, bank.app(1, [x, x])])))).toBe(false);
    expect(unifiableFp(fingerprint(x), fingerprint(bank.app(1, [e, e])))).toBe(true);
  });
});

describe('passive queue', () => {
  it('takes the best first and every n-th the oldest, each entry once', () => {
    const q = new PassiveQueue<{ priority: number; age: number; done: boolean }>(3);
    [5, 1, 4, 2, 3].forEach((priority, age) => q.push({ priority, age, done: false }));
    const order: number[] = [];
    for (let p = q.pop(); p; p = q.pop()) order.push(p.priority);
    // 3rd pick is the oldest not yet taken (priority 5, age 0)
    expect(order).toEqual([1, 2, 5, 3, 4]);
  });
});
