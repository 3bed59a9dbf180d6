import { describe, expect, it } from 'vitest';
import { CoqFailure } from './coqidetop-client.ts';
import { XmlStream, textOf, type XmlElement } from './xml-tree.ts';
import { quoted, useRealShell } from './testing/real-shell.ts';
import { useRealClient } from './testing/real-client.ts';

/** Every top-level element of `xml`, written to a stream `step` characters at a time. */
const parse = (xml: string, step: number): XmlElement[] => {
  const got: XmlElement[] = [];
  const s = new XmlStream((e) => got.push(e));
  for (let i = 0; i < xml.length; i += step) s.write(xml.slice(i, i + step));
  return got;
};

/**
 * Attack on the richpp text-only parse (xml-tree.ts) and on what Coq's XML printer writes into it. Coq escapes
 * `&` except before `#` (xml_printer.ml), so a user's `&#…` reached the parser as a character reference:
 * `"&#65;"` was shown as `"A"` (a goal `"&#65;" <> "A"` displayed as `"A" <> "A"`), and `idtac "&#zz;"` made the
 * stream malformed and killed the channel's coqidetop (broke; fixed in `XmlStream.write`). Likewise a string
 * holding a character XML 1.0 forbids (U+FFFF, C0 controls): "prover crashed: malformed output" (broke; fixed:
 * shown as U+FFFD).
 */
describe('richpp and entity-looking text (parser)', () => {
  it("a `&#` is the user's text, at every chunk boundary; Coq's own entities still decode", () => {
    const xml = '<value val="good"><richpp><_><pp>"&#65;"&nbsp;&lt;&gt;&nbsp;"A"&nbsp;&amp;#66;&#zz;&amp;&</pp></_></richpp></value>'.replace('&</pp>', '&amp;</pp>');
    for (const step of [1, 2, 3, 7, 1000]) {
      const [v] = parse(xml, step);
      expect(textOf(v as XmlElement)).toBe('"&#65;" <> "A" &#66;&#zz;&&');
    }
  });

  it('characters XML 1.0 forbids are shown as U+FFFD; tab, newline and carriage return stay', () => {
    const xml = '<value val="good"><richpp><_>a\u0001b\u000cc\uffffd\te\nf</_></richpp></value>';
    for (const step of [1, 3, 1000]) expect(textOf(parse(xml, step)[0] as XmlElement)).toBe('a\ufffdb\ufffdc\ufffdd\te\nf');
  });

  it('nested, empty and self-closing richpp; an element after a richpp keeps its structure', () => {
    const xml = '<value val="good"><list><richpp><_>a<richpp>b<x>c</x></richpp>d</_></richpp><richpp/><richpp><_/></richpp><pair><string>k</string></pair></list></value>';
    for (const step of [1, 4, 1000]) {
      const [v] = parse(xml, step);
      const list = v?.children[0] as XmlElement;
      expect(list.children.map((c) => (typeof c === 'string' ? c : `${c.tag}:${JSON.stringify(c.children)}`))).toEqual(['richpp:["abcd"]', 'richpp:[]', 'richpp:[]', 'pair:[{"tag":"string","attrs":{},"children":["k"]}]']);
    }
  });

  it('a huge richpp (a printed proof term: thousands of highlighting tags) is one string', () => {
    const words = Array.from({ length: 20_000 }, (_, i) => `<constr.reference>f${i}</constr.reference>`).join('&nbsp;');
    const [v] = parse(`<feedback><richpp><_><pp>${words}</pp></_></richpp></feedback>`, 4096);
    const rich = v?.children[0] as XmlElement;
    expect(rich.children).toHaveLength(1);
    expect((rich.children[0] as string).split(' ')).toHaveLength(20_000);
  });
});

describe('richpp text from real coqidetop', () => {
  const client = useRealClient();

  it('entity-looking text in a message, a goal and an error is shown as Coq holds it; the channel lives on', async () => {
    const c = client();
    const start = c.tip;
    await c.addAndGoals('Require Import Coq.Strings.String.');
    await c.addAndGoals('Open Scope string_scope.');
    const goal = await c.addAndGoals('Goal "&#65;" <> "A" /\\ 1 < 2.');
    expect(goal.goals?.[0]?.goal).toBe('"&#65;" <> "A" /\\ 1 < 2');
    const said = await c.addAndGoals('idtac "&#zz; &#60; &amp; < >".');
    expect(said.messages.map((m) => m.text)).toEqual(['&#zz; &#60; &amp; < >']);
    const err = await c.addAndGoals('fail "a &#60; b & c".').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CoqFailure);
    expect((err as CoqFailure).message).toMatch(/a &#60; b & c/);
    expect(c.alive).toBe(true);
    await c.editAt(said.stateId);
    // Hypotheses with `<` and `&&`, as coqc prints them.
    await c.addAndGoals('split; [discriminate |].');
    const h = await c.addAndGoals('assert (H : (true && false)%bool = false /\\ 0 < 1) by (split; auto).');
    expect(h.goals?.[0]?.hyps).toEqual(['H : (true && false)%bool = false /\\ 0 < 1']);
    await c.editAt(start);
  }, 120_000);
});

describe('entity-looking text through arbor-shell', () => {
  const real = useRealShell(['--timeout', '20', '--pool', '0']);

  it('a goal is shown as written, a message with U+FFFF and `&#zz;` does not crash the prover, END is as usual', { timeout: 240_000 }, async () => {
    const rs = await real.session(['PRELUDE bare', `DEFINE ${quoted('Require Import Coq.Strings.String. Open Scope string_scope.')}`, `GOAL t ${quoted('"&#65;" <> "A"')}`, 'APPLY (idtac "x\uffffy&#zz;")', 'APPLY discriminate', 'END']);
    expect(rs.map((r) => r.ERR)).toEqual(['', '', '', '', '', '']);
    expect((rs[2]?.RESPONSE as { goal: string }).goal).toBe('"&#65;" <> "A"');
    expect((rs[3]?.RESPONSE as { goal: string }).goal).toBe('"&#65;" <> "A"');
    expect(rs[5]?.ASSUMPTIONS).toEqual([]);
    expect(rs[5]?.STATEMENT).toBeUndefined();
    expect(String(rs[5]?.SCRIPT)).toContain('Theorem t : ("&#65;" <> "A").');
  });
});
