import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { parseArticle } from './article.ts';
import { checkProof } from './check-proof.ts';
import { proveByCompletion } from './completion.ts';
import { kboGreater } from './kbo.ts';
import { parseEquation, parseTerm } from './parse-term.ts';
import { proofToJson } from './proof-json.ts';
import { aimDataAvailable, aimDataMissingMessage, readAim } from './test-data.ts';
import { printTerm, SYM, type Term, TermBank } from './term.ts';
import { DEFAULT_PRELUDE } from './default-prelude.ts';

describe('terms and parser', () => {
  it('hash-conses: equal structure is the same object', () => {
    const bank = new TermBank();
    const a = parseTerm(bank, 'T(x * y, z \\ e)', { names: 'variables' });
    const b = parseTerm(bank, 'T((x*y),(z\\e))', { names: 'variables' });
    expect(a).toBe(b);
    expect(printTerm(bank, a)).toBe('T(x * y,z \\ e)');
  });
  it('rejects unparenthesised operator chains', () => {
    expect(() => parseTerm(new TermBank(), 'x * y / z', { names: 'variables' })).toThrow(/parenthesise/);
  });
  it('print/parse round trip (property)', () => {
    const bank = new TermBank();
    const arb = fc.letrec((tie) => ({
      t: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        fc.constantFrom('x', 'y', 'z', 'e'),
        fc.tuple(fc.constantFrom('*', '\\', '/'), tie('t'), tie('t')).map(([o, l, r]) => `(${l as string} ${o} ${r as string})`),
        fc.tuple(tie('t'), tie('t')).map(([l, r]) => `T(${l as string},${r as string})`),
        fc.tuple(tie('t'), tie('t'), tie('t')).map(([a, b, c]) => `L(${a as string},${b as string},${c as string})`),
      ),
    })).t as fc.Arbitrary<string>;
    fc.assert(fc.property(arb, (text) => {
      const t = parseTerm(bank, text, { names: 'variables', varIndex: new Map([['x', 0], ['y', 1], ['z', 2]]) });
      const again = parseTerm(bank, printTerm(bank, t), { names: 'variables', varIndex: new Map([['x', 0], ['y', 1], ['z', 2]]) });
      expect(again).toBe(t);
    }));
  });
  it('KBO folds definitions and orients cancellation laws', () => {
    const bank = new TermBank();
    const a = parseArticle(bank, DEFAULT_PRELUDE);
    const T = a.byName.get('T')!;
    expect(kboGreater(T.rhs, T.lhs)).toBe(true);
    const b1 = a.byName.get('b1')!;
    expect(kboGreater(b1.lhs, b1.rhs)).toBe(true);
  });
});

describe('ARTICLE reader', () => {
  it.skipIf(!aimDataAvailable)('numbers the 87 preamble equations in file order as AIMLEAP does', () => {
    const a = parseArticle(new TermBank(), readAim('preamble.txt'));
    expect(a.equations).toHaveLength(87);
    expect(a.equations.map((e) => e.name).slice(0, 12)).toEqual(['lid', 'rid', 'b1', 'b2', 's1', 's2', 'a', 'K', 'T', 'L', 'R', 'TT']);
    expect(a.byName.get('prop_034cf5c5')?.index).toBe(23);
    expect(a.byName.get('prov9_183b179b43')?.index).toBe(86);
  });
  it.skipIf(!aimDataAvailable)('reads the complete original files', () => {
    const p = parseArticle(new TermBank(), readAim('p9_0008824f0b'));
    expect(p.theorems).toHaveLength(1);
    expect(p.theorems[0]?.name).toBe('p9_0008824f0b');
    const ex = parseArticle(new TermBank(), readAim('example1'));
    expect(ex.equations).toHaveLength(23);
    expect(ex.theorems[0]?.statement).toBe('x / e = e \\ x');
  });
  it.skipIf(!aimDataAvailable)('parses all 2000 dev theorems', () => {
    const bank = new TermBank();
    const lines = readAim('dev.txt').split('\n').filter(Boolean);
    expect(lines).toHaveLength(2000);
    for (const l of lines) expect(parseArticle(bank, l).theorems).toHaveLength(1);
  });
  it('skips data-dependent tests with a message when the data is absent', () => {
    if (!aimDataAvailable) console.warn(aimDataMissingMessage);
    expect(typeof aimDataAvailable).toBe('boolean');
  });
});

describe('checker', () => {
  const article = 'ARTICLE\nAxiom lid : e * x = x.\nAxiom rid : x * e = x.\n';
  it('accepts a correct chain and rejects a wrong one', () => {
    const good = { goal: 'e * (x * e) = x', constants: ['x'], lemmas: [], steps: [{ by: 'lid', dir: 'lr' as const, pos: [], term: 'x * e' }, { by: 'rid', dir: 'lr' as const, pos: [], term: 'x' }] };
    expect(checkProof(article, good)).toEqual({ ok: true, steps: 2 });
    const wrongPos = { ...good, steps: [{ by: 'lid', dir: 'lr' as const, pos: [2], term: 'x * e' }] };
    expect(checkProof(article, wrongPos).ok).toBe(false);
    const wrongEnd = { ...good, steps: good.steps.slice(0, 1) };
    expect(checkProof(article, wrongEnd).ok).toBe(false);
    const unknown = { ...good, steps: [{ by: 'nope', dir: 'lr' as const, pos: [], term: 'x * e' }] };
    expect(checkProof(article, unknown).ok).toBe(false);
  });
  it('checks lemmas with variables and uses them later', () => {
    const proof = {
      goal: 'e * (e * y) = y', constants: ['y'],
      lemmas: [{ name: 'twice', statement: 'e * (e * x) = x', steps: [{ by: 'lid', dir: 'lr' as const, pos: [2], term: 'e * x' }, { by: 'lid', dir: 'lr' as const, pos: [], term: 'x' }] }],
      steps: [{ by: 'twice', dir: 'lr' as const, pos: [], term: 'y' }],
    };
    expect(checkProof(article, proof).ok).toBe(true);
  });
});

describe('completion', () => {
  it('proves a small loop identity with a checked chain', async () => {
    const bank = new TermBank();
    const a = parseArticle(bank, DEFAULT_PRELUDE);
    const goal = parseEquation(bank, 'x / (y \\ x) = y', { names: 'constants' });
    const r = await proveByCompletion(bank, a.equations, goal, { deadline: Date.now() + 20_000 });
    expect(r.proof).toBeDefined();
    const check = checkProof(DEFAULT_PRELUDE, proofToJson(r.bank, r.proof!));
    expect(check).toMatchObject({ ok: true });
  });
  it.skipIf(!aimDataAvailable)('proves an AIM dev problem', async () => {
    const pre = readAim('preamble.txt');
    const bank = new TermBank();
    const line = readAim('dev.txt').split('\n')[1]!;
    const a = parseArticle(bank, `${pre}\n${line}`);
    const goal = parseEquation(bank, a.theorems[0]!.statement, { names: 'constants' });
    const r = await proveByCompletion(bank, a.equations, goal, { deadline: Date.now() + 20_000 });
    expect(checkProof(pre, proofToJson(r.bank, r.proof!), a.theorems[0]!.statement).ok).toBe(true);
  });
  it.skipIf(!aimDataAvailable)('goal-directed max weighting proves a hard dev problem; LPO stays within its deadline', async () => {
    const pre = readAim('preamble.txt');
    const line = readAim('dev.txt').split('\n').find((l) => l.includes('p9_6bd6a3af6c'))!;
    const bank = new TermBank();
    const a = parseArticle(bank, `${pre}\n${line}`);
    const goal = parseEquation(bank, a.theorems[0]!.statement, { names: 'constants' });
    const r = await proveByCompletion(bank, a.equations, goal, { deadline: Date.now() + 20_000, weighting: 'max', goalFactor: 0.5, fifoEvery: 12 });
    expect(checkProof(pre, proofToJson(r.bank, r.proof!), a.theorems[0]!.statement).ok).toBe(true);
    const hard = readAim('dev.txt').split('\n').find((l) => l.includes('p9_0db4c1d173'))!;
    const b2 = new TermBank();
    const a2 = parseArticle(b2, `${pre}\n${hard}`);
    const g2 = parseEquation(b2, a2.theorems[0]!.statement, { names: 'constants' });
    const t0 = Date.now();
    await proveByCompletion(b2, a2.equations, g2, { deadline: Date.now() + 1500, order: 'lpo' });
    expect(Date.now() - t0).toBeLessThan(6000);
  });
  it('never returns a proof of a false equation', async () => {
    const bank = new TermBank();
    const a = parseArticle(bank, DEFAULT_PRELUDE);
    const goal = parseEquation(bank, 'x * y = y * x', { names: 'constants' });
    const r = await proveByCompletion(bank, a.equations, goal, { deadline: Date.now() + 1500 });
    expect(r.proof).toBeUndefined();
  });
  it('keeps SYM codes stable (advisor tags depend on them)', () => {
    expect([SYM.e, SYM.mul, SYM.ldiv, SYM.rdiv, SYM.a, SYM.K, SYM.T, SYM.L, SYM.R]).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8]);
    const t: Term = new TermBank().v(0);
    expect(t.f).toBe(-1);
  });
});
