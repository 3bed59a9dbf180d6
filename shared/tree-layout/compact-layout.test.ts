import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { TreeView } from '../proof-tree/proof-tree.ts';
import { compactLayout } from './compact-layout.ts';
import { layoutTree, contentOf } from './layout-tree.ts';
import { CHIP_GAP, CHIP_HEIGHT, nodeTextLayout, substitution } from './node-content.ts';
import { syntheticDerivation } from '../derivation/synthetic-derivation.ts';

/** The seed's square-root-of-two proof as Coq's derivation (recorded by bench/derivations/record-derivations.ts). */
const sqrt2 = (JSON.parse(readFileSync(join(import.meta.dirname, '../../bench/derivations/sqrt2.json'), 'utf8')) as { tree: TreeView }).tree;

const overlaps = (a: { x: number; y: number; w: number; h: number }, b: typeof a): boolean =>
  a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;

describe('the compact derivation layout', () => {
  it('keeps the square-root-of-two proof two columns wide (plus its case splits), not a 12-column staircase', () => {
    const compact = compactLayout(sqrt2);
    const wide = layoutTree(sqrt2);
    expect(compact.nodes).toHaveLength(22);
    const columns = new Set(compact.nodes.map((n) => n.x));
    expect(columns.size).toBeLessThanOrEqual(3);
    expect(new Set(wide.nodes.map((n) => n.x)).size).toBeGreaterThanOrEqual(10);
    // It fits 1600×1000 at full size.
    expect(compact.width).toBeLessThan(1560);
    expect(compact.height).toBeLessThan(960);
  });

  it('titles each box by what is new there: at most one box is titled False', () => {
    const titles = compactLayout(sqrt2).nodes.map((n) => contentOf(n).label.replace(/^✓ /, ''));
    expect(titles.filter((t) => t === 'False')).toHaveLength(1);
    expect(titles).toContain('Em : Nat.Even m');
    expect(titles).toContain('Hkj : k * k = 2 * (j * j)');
    // The HAVE's own goal titles its side proof.
    expect(titles).toContain('Nat.Even m');
  });

  it('shows every other hypothesis whole, over several rows if need be (no +k)', () => {
    const node = compactLayout(sqrt2).nodes.find((n) => contentOf(n).label === '✓ False');
    const chips = contentOf(node!).chipRows.flat();
    expect(chips.join(' ')).toContain('IH : forall y : nat, y < n -> forall m : nat, 0 < y -> m * m <> 2 * (y * y)'.slice(0, 40));
    expect(chips.some((c) => /^\+[0-9]/.test(c))).toBe(false);
    expect(chips.join('')).toMatch(/\(y \* y\)/);
  });

  it('never overlaps two boxes, and emits each parent\'s children together (breadth first)', () => {
    for (const tree of [sqrt2, syntheticDerivation(60, 3), syntheticDerivation(200, 9)]) {
      const { nodes } = compactLayout(tree);
      for (let i = 0; i < nodes.length; i++) for (let j = i + 1; j < nodes.length; j++) expect(overlaps(nodes[i]!, nodes[j]!)).toBe(false);
      let lastParent = -1;
      for (const n of nodes) {
        expect(n.parent).toBeGreaterThanOrEqual(lastParent);
        lastParent = n.parent;
      }
    }
  });

  it('recognises a case of a split as a substitution, and nothing else', () => {
    expect(substitution('negb (a && b) = negb a || negb b', 'negb (true && b) = negb true || negb b')).toEqual({ name: 'a', by: 'true' });
    expect(substitution('P n /\\ Q n', 'P (S k) /\\ Q (S k)')).toEqual({ name: 'n', by: '(S k)' });
    expect(substitution('False', 'j < n')).toBeUndefined();
    expect(substitution('a + b = b + a', 'a + 0 = 0 + b')).toBeUndefined();
  });
});

describe('a failure note on a compact box', () => {
  it('wraps the note below the chips: the box is measured with its note, at its final width', () => {
    // The current goal failed (as `APPLY (… lia bogus)` on total_app's step case): a long error on a box with chips.
    const tree = JSON.parse(JSON.stringify(sqrt2)) as TreeView;
    const clear = (v: TreeView): void => { delete (v as { current?: unknown }).current; for (const c of v.children ?? []) clear(c); };
    clear(tree);
    const chipped = compactLayout(tree).nodes.find((n) => contentOf(n).chipRows.length > 0 && !n.view.attempt)!;
    const find = (v: TreeView): TreeView | undefined => (v.id === chipped.view.id ? v : (v.children ?? []).map(find).find(Boolean));
    const leaf = find(tree)!;
    (leaf as { current?: string }).current = 'goal';
    const note = '✗ Illegal tactic application: got 1 extra argument. The tactic expects fewer arguments here.';
    const node = compactLayout(tree, { overlay: { current: 'failed', note } }).nodes.find((n) => n.view.id === leaf.id)!;
    const content = contentOf(node);
    const notes = content.lines.filter((l) => l.kind === 'note');
    expect(notes.length).toBeGreaterThan(1);
    const placed = nodeTextLayout(content, node.h);
    const chipsBottom = placed.chipsTop + content.chipRows.length * (CHIP_HEIGHT + CHIP_GAP);
    expect(content.chipRows.length).toBeGreaterThan(0);
    expect(Math.min(...placed.footer.map((f) => f.y))).toBeGreaterThanOrEqual(chipsBottom);
  });
});
