import { describe, expect, it } from 'vitest';
import type { TreeView } from '../proof-tree/proof-tree.ts';
import { chipBoxes } from './chip-boxes.ts';
import { compactLayout } from './compact-layout.ts';
import { contentOf } from './layout-tree.ts';
import { CHIP_CHAR_WIDTH, CHIP_HEIGHT, nodeTextLayout } from './node-content.ts';
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

  // Attacks (atk-wb): a hypothesis as Coq prints it over several lines, and one in double-width script.
  const withHyp = (expr: string): TreeView => ({
    id: 0, kind: 'leaf', status: 'open', step: 1, goal: 'G', action: 'APPLY x', ctxt: { vars: [], hyps: [] },
    children: [{ id: 1, kind: 'leaf', status: 'open', step: 2, goal: 'P', current: 'goal', ctxt: { vars: [], hyps: [{ name: 'H', expr }, { name: 'K', expr: 'True' }] } }],
  } as TreeView);
  const boxesOf = (t: TreeView) => {
    const lay = compactLayout(t);
    const n = lay.nodes.find((x) => x.view.id === 1)!;
    return { lay, n, boxes: chipBoxes(contentOf(n), nodeTextLayout(contentOf(n), n.h).chipsTop) };
  };

  it('draws a hypothesis Coq printed over several lines as one line of text per row (no raw newline, canvas or SVG)', () => {
    const { lay, boxes } = boxesOf(withHyp('forall n : nat,\n  n + 0 = n'));
    expect(boxes.flatMap((b) => b.lines.map((l) => l.text))).toContain('H : forall n : nat, n + 0 = n');
    expect(treeToSvg(lay)).not.toMatch(/forall n : nat,\s*\n/);
  });

  // Chip widths are counted in columns (a CJK character takes two, as a monospace font draws it), both
  // where the node is sized and where the chip is drawn: every line of the chip, drawn at its own x, ends
  // inside the chip, and the chip inside the node. Columns are counted here by script, not by the module.
  it('keeps a double-width (CJK) hypothesis inside its chip', () => {
    const { n, boxes } = boxesOf(withHyp('全角文字の長い仮説です全角文字の長い仮説です全角文字の長い仮説です'));
    const box = boxes.find((b) => b.lines[0]!.text.startsWith('H :'))!;
    const columns = (t: string): number => [...t].reduce((k, ch) => k + (/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u.test(ch) ? 2 : 1), 0);
    expect(box.lines.map((l) => l.text).join('')).toBe('H : 全角文字の長い仮説です全角文字の長い仮説です全角文字の長い仮説です');
    for (const l of box.lines) expect(l.x + columns(l.text) * CHIP_CHAR_WIDTH).toBeLessThanOrEqual(box.x + box.w);
    expect(box.x + box.w).toBeLessThanOrEqual(n.w);
  });

  // Attacks (atk-vfile, held): emoji sequences, astral letters, zero-width and combining characters, full-width
  // goals and a 5,000-character hypothesis: no surrogate pair is cut in any drawn text, every chip stays in its node.
  const lone = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
  it.each([
    ['H', '👨‍👩‍👧‍👦'.repeat(30), 'P'], ['H', '𝔸'.repeat(80), 'P'], ['x\u200b', 'a\u200bb'.repeat(50), 'P'],
    ['H', 'é'.normalize('NFD').repeat(120), 'P'], ['𝔸𝔹', 'P', '𝔸'.repeat(200)], ['H', 'ｘ'.repeat(300), 'P'], ['H', 'a'.repeat(5000), 'P'],
  ])('odd text %s stays whole and inside (held)', (name, expr, goal) => {
    const t = withHyp(expr);
    const child = t.children![0]!;
    child.goal = goal;
    child.ctxt.hyps[0]!.name = name;
    for (const n of compactLayout(t).nodes) {
      const c = contentOf(n);
      const boxes = chipBoxes(c, nodeTextLayout(c, n.h).chipsTop);
      for (const text of [c.label, ...c.more, ...c.chipRows.flat(), ...boxes.flatMap((b) => b.lines.map((l) => l.text))]) expect(lone.test(text), text).toBe(false);
      for (const b of boxes) expect(b.x + b.w).toBeLessThanOrEqual(n.w);
    }
  });
});
