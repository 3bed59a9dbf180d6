import { describe, expect, it } from 'vitest';
import type { DocumentCheck } from '../../shared/checking/document-check.ts';
import type { TreeView } from '../../shared/proof-tree/proof-tree.ts';
import { documentNames } from '../editor/document-names.ts';
import { problemsOf } from './problems.ts';

const open = (step: number, goal: string): TreeView => ({ id: 0, kind: 'bundle', status: 'bundle', step, ctxt: { vars: [], hyps: [] }, children: [{ id: 1, kind: 'leaf', status: 'open', step, ctxt: { vars: [], hyps: [] }, goal }] });
const done = (step: number): TreeView => ({ id: 0, kind: 'bundle', status: 'bundle', step, ctxt: { vars: [], hyps: [] }, children: [] });

/**
 * Attacks on the "proved" lines (by someone who did not build them): a line may carry several requests
 * (`;`), and the shell runs every one on the document's channel; a second GOAL replaces the open proof. The
 * name shown as proved must be the GOAL whose proof finished, never another GOAL of the same or an earlier line.
 */
describe('problems list names the theorem that was proved (attack, pure)', () => {
  it('two GOALs on one line: the second (the one that ran last) is the one proved', () => {
    const trees: Record<number, TreeView> = { 1: open(1, 'False'), 2: open(2, 'True'), 3: done(3) };
    const check: DocumentCheck = {
      entries: [
        { line: 1, text: 'GOAL a "False"; GOAL b "True"', stepBefore: 0, stepAfter: 2 },
        { line: 2, text: 'APPLY exact I', stepBefore: 2, stepAfter: 3 },
      ],
    };
    expect(problemsOf(check, (s) => trees[s])).toEqual([{ kind: 'proved', line: 2, name: 'b' }]);
  });

  it('a GOAL after another request on its line starts the item: never the earlier, unfinished GOAL\'s name', () => {
    const trees: Record<number, TreeView> = { 1: open(1, 'False'), 2: open(2, 'True'), 3: done(3) };
    const check: DocumentCheck = {
      entries: [
        { line: 1, text: 'GOAL a "False"', stepBefore: 0, stepAfter: 1 },
        { line: 2, text: 'STATE; GOAL b "True"', stepBefore: 1, stepAfter: 2 },
        { line: 3, text: 'APPLY exact I', stepBefore: 2, stepAfter: 3 },
      ],
    };
    expect(problemsOf(check, (s) => trees[s])).toEqual([{ kind: 'proved', line: 3, name: 'b' }]);
  });

  it('homoglyph, combining and long names stay distinct; completion lists the GOAL that ran last on a line', () => {
    const cyr = '\u0430'; // Cyrillic a
    const long = `x${'y'.repeat(4000)}`;
    const trees: Record<number, TreeView> = { 1: open(1, 'False'), 2: done(2), 3: open(3, 'True'), 4: done(4), 5: open(5, 'True'), 6: done(6) };
    const check: DocumentCheck = {
      entries: [
        { line: 1, text: `GOAL ${cyr} "True"`, stepBefore: 0, stepAfter: 1 },
        { line: 2, text: 'APPLY exact I', stepBefore: 1, stepAfter: 2 },
        { line: 3, text: 'GOAL \u00e9 "True"', stepBefore: 2, stepAfter: 3 },
        { line: 4, text: 'APPLY exact I', stepBefore: 3, stepAfter: 4 },
        { line: 5, text: `GOAL ${long} "True"`, stepBefore: 4, stepAfter: 5 },
        { line: 6, text: 'APPLY exact I', stepBefore: 5, stepAfter: 6 },
      ],
    };
    const names = problemsOf(check, (s) => trees[s]).map((p) => (p.kind === 'proved' ? p.name : ''));
    expect(names).toEqual([cyr, '\u00e9', long]);
    expect(names[0]).not.toBe('a');
    expect(documentNames(['GOAL a "False"; GOAL b "True"', 'APPLY exact I'], 3).map((n) => n.name)).toEqual(['b']);
  });
});
