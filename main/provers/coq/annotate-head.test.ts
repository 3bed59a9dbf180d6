import { describe, expect, it } from 'vitest';
import { decodeAnnotate, decodeAnnotateHead } from './xml-protocol.ts';
import { XmlStream, type XmlElement } from './xml-tree.ts';

/** Annotate answers as coqidetop 8.16 sends them (recorded from real runs: a tactic call, commands, a tactic with a primitive first). */
const parse = (xml: string): XmlElement => {
  let out: XmlElement | undefined;
  new XmlStream((e) => (out = e)).write(xml);
  if (!out) throw new Error('no element');
  return out;
};

describe('the name a tactic sentence starts with, from Annotate\'s markup', () => {
  it('is the leading reference of a tactic call, and nothing for a command or a primitive', () => {
    const tactic = parse('<value val="good"><_><pp><constr.reference>RelInstance_t</constr.reference>.</pp></_></value>');
    expect(decodeAnnotate(tactic)).toBe('RelInstance_t.');
    expect(decodeAnnotateHead(tactic)).toBe('RelInstance_t');
    // A command prints its head as plain text, even when an Ltac of that name exists (`Show.`), and names after it are tagged.
    expect(decodeAnnotateHead(parse('<value val="good"><_><pp>Show.</pp></_></value>'))).toBeUndefined();
    expect(decodeAnnotateHead(parse('<value val="good"><_><pp>Redirect "f" Print <constr.reference>nat</constr.reference>.</pp></_></value>'))).toBeUndefined();
    expect(decodeAnnotateHead(parse('<value val="good"><_><pp><tactic.primitive>auto</tactic.primitive>.</pp></_></value>'))).toBeUndefined();
    expect(decodeAnnotateHead(parse('<value val="good"><_><pp>(<constr.reference>Predict</constr.reference> 1).</pp></_></value>'))).toBeUndefined();
  });
});
