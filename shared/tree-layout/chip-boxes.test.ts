import { describe, expect, it } from 'vitest';
import type { TreeView } from '../proof-tree/proof-tree.ts';
import { chipBoxes } from './chip-boxes.ts';
import { compactLayout } from './compact-layout.ts';
import { contentOf } from './layout-tree.ts';
import { CHIP_HEIGHT, nodeTextLayout } from './node-content.ts';
import { treeToSvg } from './tree-svg.ts';

const longHyp = 'IHl : forall acc : list nat, rev_append l acc = rev_append (rev_append l nil) acc ++ nil';
const tree: TreeView = {
  id: 0, kind: 'leaf', status: 'open', step: 1, goal: 'rev (rev l) = l', action: 'APPLY induction l',
  ctxt: { vars: [{ name: 'l', type: 'list nat' }], hyps: [] },
  children: [{
    id: 1, kind: 'leaf', status: 'open', step: 2, goal: 'rev (rev (a :: l)) = a :: l', current: 'goal',
    ctxt: { vars: [{ name: 'a', type: 'nat' }, { name: 'l', type: 'list nat' }], hyps: [{ name: 'IHl', expr: longHyp.slice(6) }, { name: 'H', expr: 'a = a' }] },
  }],
} as TreeView;

describe('a wrapped hypothesis chip', () => {
  const node = compactLayout(tree).nodes.find((n) => n.view.id === 1)!;
  const content = contentOf(node);
  const boxes = chipBoxes(content, nodeTextLayout(content, node.h).chipsTop);

  it('is one box over its rows, continuation indented, every piece of the text inside it', () => {
    const wrapped = boxes.filter((b) => b.lines.length > 1);
    expect(wrapped).toHaveLength(1);
    const box = wrapped[0]!;
    expect(box.h).toBeGreaterThan(CHIP_HEIGHT);
    expect(box.lines.map((l) => l.text).join(' ')).toBe(longHyp);
    expect(box.lines[1]!.x).toBeGreaterThan(box.lines[0]!.x);
    // One chip per hypothesis or variable: a, l, H and the wrapped IHl (the title is not repeated).
    expect(boxes.length).toBe(content.chipRows.flat().length - (box.lines.length - 1));
    // The box stays inside the node, and no other chip overlaps it.
    expect(box.x + box.w).toBeLessThanOrEqual(node.w);
    for (const b of boxes) if (b !== box) expect(b.y + b.h <= box.y || b.y >= box.y + box.h).toBe(true);
  });

  it('is one chip in the SVG export too', () => {
    const svg = treeToSvg(compactLayout(tree));
    const chips = svg.match(/<g class="chip">/g) ?? [];
    const all = compactLayout(tree).nodes.reduce((k, n) => k + chipBoxes(contentOf(n), nodeTextLayout(contentOf(n), n.h).chipsTop).length, 0);
    expect(chips).toHaveLength(all);
  });
});
