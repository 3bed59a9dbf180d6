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
});
