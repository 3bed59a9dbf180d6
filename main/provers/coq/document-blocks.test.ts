import { describe, expect, it } from 'vitest';
import { blockEffect, closingSentences, openBlocksAfter, withoutLeadingComments, withoutModuleType } from './document-blocks.ts';
import { parsePrintAssumptions, judgeAssumptions, sectionVariableFromLocate } from './assumptions.ts';
import { SentencePolicy } from './vernacular-policy.ts';

describe('document blocks', () => {
  it('reads which section or module a sentence opens or closes', () => {
    expect(blockEffect('Section S.')).toEqual({ open: { kind: 'section', name: 'S' } });
    expect(blockEffect('(* a "*)" comment *) Module Import M.')).toEqual({ open: { kind: 'module', name: 'M' } });
    expect(blockEffect('Module Type T.')).toEqual({ open: { kind: 'module type', name: 'T' } });
    expect(blockEffect('Module M (X : T) <: U.')).toEqual({ open: { kind: 'module', name: 'M', params: ['X'] } });
    expect(blockEffect("Module Import Mλ' (X Y : T) (Z : U with Definition t := 1) : V.")).toEqual({ open: { kind: 'module', name: "Mλ'", params: ['X', 'Y', 'Z'] } });
    expect(blockEffect('Module M := N.')).toBeUndefined();
    expect(blockEffect("End S'.")).toEqual({ close: "S'" });
    expect(blockEffect('Definition Section := 1.')).toBeUndefined();
    expect(withoutLeadingComments('#[local] (* x (* y *) *) Hint Resolve a : core.')).toBe('Hint Resolve a : core.');
  });
  it('closes what a script leaves open, innermost first', () => {
    const open = openBlocksAfter(['Module M.', 'Section S.', 'Variable n : nat.', 'End S.', 'Section T.']);
    expect(open.map((b) => b.name)).toEqual(['M', 'T']);
    expect(closingSentences(open.map((b) => b.name)).slice(1)).toEqual(['End T.', 'End M.']);
    expect(closingSentences([])).toEqual([]);
  });
  it('a DEFINE may leave a section open and a later one close it; variables stay section-only', () => {
    const first = new SentencePolicy('define', [], true);
    expect(first.judge('Section S.', false)).toBeUndefined();
    expect(first.judge('Variable n : nat.', false)).toBeUndefined();
    expect(first.finish(false)).toBeUndefined();
    const later = new SentencePolicy('define', first.blocks, true);
    expect(later.judge('Hypothesis H : n = 0.', false)).toBeUndefined();
    expect(later.judge('End S.', false)).toBeUndefined();
    expect(later.judge('Variable m : nat.', false)).toMatch(/assumptions are not allowed/);
    // Preludes and fidelity contexts still may not leave anything open.
    const prelude = new SentencePolicy('prelude');
    prelude.judge('Section S.', false);
    expect(prelude.finish(false)).toMatch(/leaves a section open/);
    expect(new SentencePolicy('define', [], true).judge('End S.', false)).toMatch(/did not open/);
  });
});

describe('a module\'s opening sentence without its signature (▶ Convert inside a module)', () => {
  it('drops `<: T`, `: T` and chained checks; keeps parameters, whose colons are inside parentheses', () => {
    expect(withoutModuleType('Module FunTable (VT : ValType) <: Table.')).toBe('Module FunTable (VT : ValType).');
    expect(withoutModuleType('Module M : T.')).toBe('Module M.');
    expect(withoutModuleType('Module Import M (X Y : A) (Z : B) <: S1 <: S2.')).toBe('Module Import M (X Y : A) (Z : B).');
    expect(withoutModuleType('Module M : T with Definition x := 1.')).toBe('Module M.');
    expect(withoutModuleType('#[local] Module M <: T.')).toBe('#[local] Module M.');
  });
  it('leaves alone what opens no module or has no signature', () => {
    expect(withoutModuleType('Module M.')).toBeUndefined();
    expect(withoutModuleType('Module M (X : T).')).toBeUndefined();
    expect(withoutModuleType('Module M := N.')).toBeUndefined();
    expect(withoutModuleType('Module M : T := N.')).toBeUndefined();
    expect(withoutModuleType('Module Type T.')).toBeUndefined();
    expect(withoutModuleType('Section S.')).toBeUndefined();
    expect(withoutModuleType('Definition x : nat := 1.')).toBeUndefined();
  });
});

describe('section variables in the assumption judgement', () => {
  it('lists an open section\'s variables (Locate says Variable) and still refuses axioms', async () => {
    const printed = parsePrintAssumptions('Section Variables:\nn\n: nat\nH\n: n = 0\nAxioms:\nax : False\n');
    expect(printed.axioms.map((a) => [a.name, a.statement])).toEqual([['n', 'nat'], ['H', 'n = 0'], ['ax', 'False']]);
    const locate: Record<string, string> = { n: 'Variable n', H: 'Variable H', ax: 'Constant Top.ax' };
    const resolve = async (name: string): Promise<string | { sectionVariable: string } | undefined> =>
      sectionVariableFromLocate(locate[name] ?? '') ?? (/^Constant (\S+)$/.exec(locate[name] ?? '')?.[1]);
    expect(await judgeAssumptions(printed, resolve, new Set())).toEqual({ ok: false, reason: 'unsound: depends on ax (Top.ax)' });
    const sectionOnly = parsePrintAssumptions('Section Variables:\nn\n: nat\n');
    expect(await judgeAssumptions(sectionOnly, resolve, new Set())).toEqual({ ok: true, assumptions: ['n : nat (section variable: a premise of the theorem once its section ends)'], sectionVariables: [{ name: 'n', statement: 'nat' }] });
    expect(sectionVariableFromLocate('Constant Top.n')).toBeUndefined();
  });
});
