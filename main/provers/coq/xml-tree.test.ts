import { describe, expect, it } from 'vitest';
import { XmlStream, textOf, type XmlElement } from './xml-tree.ts';

describe('XmlStream', () => {
  it('yields top-level elements across arbitrary chunk boundaries and decodes &nbsp;', () => {
    const got: XmlElement[] = [];
    const s = new XmlStream((e) => got.push(e));
    const xml =
      '<feedback object="state"><state_id val="2"/></feedback>' +
      '<value val="good"><richpp><_><pp>n,&nbsp;m&nbsp;:&nbsp;<constr.variable>nat</constr.variable>&amp;&lt;-&gt;</pp></_></richpp></value>';
    for (let i = 0; i < xml.length; i += 7) s.write(xml.slice(i, i + 7));
    expect(got.map((e) => e.tag)).toEqual(['feedback', 'value']);
    expect(got[1]?.attrs.val).toBe('good');
    expect(textOf(got[1]!)).toBe('n, m : nat&<->');
  });

  it("keeps a richpp's text only (in order, entities decoded), and every other element's structure", () => {
    const got: XmlElement[] = [];
    const s = new XmlStream((e) => got.push(e));
    const xml =
      '<value val="good"><list><richpp><_><pp><constr.keyword>fun</constr.keyword>&nbsp;x&nbsp;=&gt;<constr.variable>x</constr.variable></pp></_></richpp>' +
      '<richpp></richpp><richpp><_>a<b/>c</_></richpp></list></value>' +
      '<value val="good"><_><pp><tactic.primitive>exact</tactic.primitive> <constr.variable>I</constr.variable>.</pp></_></value>';
    for (let i = 0; i < xml.length; i += 5) s.write(xml.slice(i, i + 5));
    const items = (got[0]?.children[0] as XmlElement).children as XmlElement[];
    expect(items.map((e) => e.tag)).toEqual(['richpp', 'richpp', 'richpp']);
    expect(items.map((e) => e.children)).toEqual([['fun x =>x'], [], ['ac']]);
    // Outside a richpp (Annotate's answer) the highlighting tags stay elements: the tactic head is read from them.
    const pp = ((got[1]?.children[0] as XmlElement).children[0] as XmlElement);
    expect(pp.children.map((c) => (typeof c === 'string' ? c : c.tag))).toEqual(['tactic.primitive', ' ', 'constr.variable', '.']);
  });
});
