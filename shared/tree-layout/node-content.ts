import type { Context } from '../proof-tree/proof-state.ts';
import type { TreeView } from '../proof-tree/proof-tree.ts';

/** Approximate advance of the monospace font used in the tree (12px), so Node and browser agree on sizes. */
export const CHAR_WIDTH = 7.2;
export const CHIP_CHAR_WIDTH = 6.6;
export const HEADER_HEIGHT = 24;
export const CHIP_HEIGHT = 16;
export const CHIP_GAP = 4;
export const PADDING = 6;
export const MIN_WIDTH = 96;
export const MAX_WIDTH = 340;
export const MAX_CHIP_ROWS = 3;
/** The derivation view's footer line: the command that acted on the goal. */
export const ACTION_HEIGHT = 16;
const MAX_LABEL_CHARS = Math.floor((MAX_WIDTH - 2 * PADDING - 14) / CHAR_WIDTH);
const MAX_CHIP_CHARS = 30;

/** One line a node shows: the goal of a leaf, the number of goals of a bundle. */
export function nodeLabel(view: TreeView): string {
  if (view.kind === 'bundle') {
    const n = view.children?.length ?? 0;
    return n === 0 ? '∎ proof complete' : `⋀ ${n} goal${n === 1 ? '' : 's'}`;
  }
  return view.status === 'proved' ? `✓ ${view.goal ?? ''}` : view.goal ?? '';
}

/** A context entry as a chip: `x : nat`, `IH : P x`. */
export function contextChips(ctxt: Context): string[] {
  return [
    ...ctxt.vars.map((v) => `${v.name} : ${v.type}`),
    ...ctxt.hyps.map((h) => `${h.name} : ${h.expr}`),
  ];
}

export function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

export interface NodeContent {
  label: string;
  /** The derivation view's `by …` line, clipped to the node's width. */
  action?: string;
  /** Chip rows as laid out inside the node (already clipped; the last row may end in `+k`). */
  chipRows: string[][];
}

const chipWidthOf = (chars: number): number => Math.min(chars, MAX_CHIP_CHARS) * CHIP_CHAR_WIDTH + 10;

/**
 * A node's box size from text lengths only (no strings built): the layout of 50,000 nodes must be fast,
 * and only the few nodes on screen ever need their text (`nodeContent`).
 */
export function nodeSize(view: TreeView): { w: number; h: number } {
  const n = view.children?.length ?? 0;
  const labelChars = Math.min(MAX_LABEL_CHARS, view.kind === 'bundle' ? (n === 0 ? 16 : 10 + String(n).length) : (view.goal?.length ?? 0) + (view.status === 'proved' ? 2 : 0));
  let widest = 0;
  const { vars, hyps } = view.ctxt;
  for (let i = 0; i < vars.length; i++) widest = Math.max(widest, chipWidthOf((vars[i] as { name: string }).name.length + 3 + (vars[i] as { type: string }).type.length));
  for (let i = 0; i < hyps.length; i++) widest = Math.max(widest, chipWidthOf((hyps[i] as { name: string }).name.length + 3 + (hyps[i] as { expr: string }).expr.length));
  const actionWidth = view.action === undefined ? 0 : (view.action.length + 3) * CHIP_CHAR_WIDTH + 2 * PADDING;
  const w = Math.min(MAX_WIDTH, Math.max(MIN_WIDTH, labelChars * CHAR_WIDTH + 2 * PADDING + 14, Math.min(widest + 2 * PADDING, 220), actionWidth));
  // Count chip rows the way `nodeContent` wraps them.
  const inner = w - 2 * PADDING;
  let rows = 0, used = 0, inRow = 0;
  const place = (chars: number): boolean => {
    const cw = chipWidthOf(chars);
    if (inRow > 0 && used + cw > inner) {
      rows++;
      used = 0;
      inRow = 0;
      if (rows === MAX_CHIP_ROWS) return false;
    }
    used += cw + CHIP_GAP;
    inRow++;
    return true;
  };
  let go = true;
  for (let i = 0; go && i < vars.length; i++) go = place((vars[i] as { name: string }).name.length + 3 + (vars[i] as { type: string }).type.length);
  for (let i = 0; go && i < hyps.length; i++) go = place((hyps[i] as { name: string }).name.length + 3 + (hyps[i] as { expr: string }).expr.length);
  if (go && inRow > 0) rows++;
  const action = view.action === undefined ? 0 : ACTION_HEIGHT;
  return { w, h: HEADER_HEIGHT + (rows > 0 ? rows * (CHIP_HEIGHT + CHIP_GAP) + PADDING - CHIP_GAP : 0) + action };
}

/** The text a node shows, wrapped to its width `w` exactly as `nodeSize` counted it. */
export function nodeContent(view: TreeView, w: number): NodeContent {
  const label = clip(nodeLabel(view), MAX_LABEL_CHARS);
  const chips = contextChips(view.ctxt).map((c) => clip(c, MAX_CHIP_CHARS));
  const rows: string[][] = [];
  let row: string[] = [];
  let used = 0;
  const inner = w - 2 * PADDING;
  for (let i = 0; i < chips.length; i++) {
    const c = chips[i] as string;
    const cw = chipWidthOf(c.length);
    if (row.length > 0 && used + cw > inner) {
      rows.push(row);
      row = [];
      used = 0;
      if (rows.length === MAX_CHIP_ROWS) {
        (rows[rows.length - 1] as string[]).push(`+${chips.length - i}`);
        break;
      }
    }
    row.push(c);
    used += cw + CHIP_GAP;
  }
  if (row.length > 0 && rows.length < MAX_CHIP_ROWS) rows.push(row);
  if (view.action === undefined) return { label, chipRows: rows };
  return { label, chipRows: rows, action: clip(`by ${view.action}`, Math.floor((w - 2 * PADDING) / CHIP_CHAR_WIDTH)) };
}
