import { describe, expect, it } from 'vitest';
import { decodeAnnotate, decodeAnnotateHead, decodeGoals, ppText } from './xml-protocol.ts';
import { XmlStream, type XmlElement } from './xml-tree.ts';

const NBSP = '\u00a0';

const parse = (xml: string): XmlElement => {
  let out: XmlElement | undefined;
  new XmlStream((e) => (out = e)).write(xml);
  if (!out) throw new Error('no element');
  return out;
};

describe('ppText: only Coq\'s layout blanks are normalised', () => {
  it('collapses runs of space, tab, CR and LF into one space and trims them, and keeps a no-break space and every other character', () => {
    const e: XmlElement = {
      tag: 'richpp',
      attrs: {},
      children: [
        ' \t\n',
        { tag: 'pp', attrs: {}, children: [`Definition and${NBSP}P`, { tag: 'constr.reference', attrs: {}, children: [`\t(Q${NBSP}:\r\n Prop)`] }] },
        // Spaces JavaScript's `\s` takes but Coq's lexer does not (thin space, ideographic space, BOM, form feed): kept.
        ' :=\n\n   True\u2009\u3000\ufeff\f.',
        `${NBSP}\n\t `,
      ],
    };
    expect(ppText(e)).toBe(`Definition and${NBSP}P (Q${NBSP}: Prop) := True\u2009\u3000\ufeff\f.${NBSP}`);
    // A no-break space at either end is part of a name (`Axiom x${NBSP}: False.` declares `x${NBSP}`): kept.
    expect(ppText({ tag: 'richpp', attrs: {}, children: [`${NBSP}x${NBSP}`] })).toBe(`${NBSP}x${NBSP}`);
    expect(ppText({ tag: 'richpp', attrs: {}, children: [' \t\r\n '] })).toBe('');
  });

  it('Annotate\'s print of a sentence and its head keep a no-break space inside a name', () => {
    const sentence = parse(`<value val="good"><_><pp><constr.reference>Require${NBSP}Import</constr.reference>&nbsp;<constr.reference>Arith</constr.reference>.</pp></_></value>`);
    expect(decodeAnnotate(sentence)).toBe(`Require${NBSP}Import Arith.`);
    expect(decodeAnnotateHead(sentence)).toBe(`Require${NBSP}Import`);
  });

  it('a goal\'s hypotheses and conclusion keep a no-break space inside a name', () => {
    const goals = parse(
      '<value val="good"><option val="some"><goals><list><goal><string>1</string>' +
        `<list><richpp><pp>H${NBSP}x :&nbsp;True</pp></richpp><richpp><pp>n${NBSP}m :\n nat</pp></richpp></list>` +
        `<richpp><pp>and${NBSP}P\n  (n${NBSP}m = n${NBSP}m)</pp></richpp></goal></list><list/><list/><list/></goals></option></value>`,
    );
    const g = decodeGoals(goals)?.goals[0];
    expect(g?.hyps).toEqual([`H${NBSP}x : True`, `n${NBSP}m : nat`]);
    expect(g?.goal).toBe(`and${NBSP}P (n${NBSP}m = n${NBSP}m)`);
  });
});
