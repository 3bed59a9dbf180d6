import { displayWidth } from './display-width.ts';
import type { NodeContent } from './node-content.ts';
import { CHIP_CHAR_WIDTH, CHIP_GAP, CHIP_HEIGHT, CHIP_INDENT_CHARS, PADDING } from './node-content.ts';

/** One chip as drawn: its box relative to the node's top left, and its text lines. */
export interface ChipBox {
  x: number;
  y: number;
  w: number;
  h: number;
  /** Text baselines' middles (x, y) relative to the node; continuation lines are indented. */
  lines: { text: string; x: number; y: number }[];
}

/**
 * Where each chip goes inside a node, from its laid-out rows: a hypothesis wrapped over several rows
 * is one box spanning them (one border, continuation indented), not a chip per row. The canvas and the
 * SVG export both draw from this, so they agree.
 */
export function chipBoxes(content: NodeContent, chipsTop: number): ChipBox[] {
  const out: ChipBox[] = [];
  const continues = content.chipContinues ?? [];
  const rowY = (r: number): number => chipsTop + r * (CHIP_HEIGHT + CHIP_GAP);
  content.chipRows.forEach((row, r) => {
    if (continues[r]) {
      const box = out[out.length - 1];
      const text = row[0] ?? '';
      if (!box) return;
      const x = box.x + 5 + CHIP_INDENT_CHARS * CHIP_CHAR_WIDTH;
      box.lines.push({ text, x, y: rowY(r) + CHIP_HEIGHT / 2 + 1 });
      box.h = rowY(r) + CHIP_HEIGHT - box.y;
      box.w = Math.max(box.w, x - box.x + displayWidth(text) * CHIP_CHAR_WIDTH + 5);
      return;
    }
    let cx = PADDING;
    for (const chip of row) {
      // In columns: a double-width (CJK) character is drawn about twice as wide as a Latin one.
      const cw = displayWidth(chip) * CHIP_CHAR_WIDTH + 10;
      out.push({ x: cx, y: rowY(r), w: cw, h: CHIP_HEIGHT, lines: [{ text: chip, x: cx + 5, y: rowY(r) + CHIP_HEIGHT / 2 + 1 }] });
      cx += cw + CHIP_GAP;
    }
  });
  return out;
}
