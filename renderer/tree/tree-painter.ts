import type { LaidOutNode, TreeLayout } from '../../shared/tree-layout/layout-tree.ts';
import { contentOf } from '../../shared/tree-layout/layout-tree.ts';
import type { DisplayStatus } from '../../shared/tree-layout/display-status.ts';
import { DISPLAY_STATUSES, STATUS_STYLE } from '../../shared/tree-layout/display-status.ts';
import { ACTION_HEIGHT, CHIP_CHAR_WIDTH, CHIP_GAP, CHIP_HEIGHT, HEADER_HEIGHT, PADDING } from '../../shared/tree-layout/node-content.ts';
import { edgeRoute, traceEdge } from '../../shared/tree-layout/edge-route.ts';
import type { TreeIndex } from './tree-index.ts';
import { buildIndex, countVisible, forEachVisible, forEachVisibleFan } from './tree-index.ts';

export interface ViewTransform {
  x: number;
  y: number;
  k: number;
}

/** Levels of detail, by scale: full boxes with text ≥ FULL; plain boxes ≥ BOXES; below, batched rects. */
const FULL = 0.4;
const BOXES = 0.12;
/** More visible nodes than this: draw the pre-rendered overview bitmap instead (one drawImage). */
const OVERVIEW_THRESHOLD = 6000;
const OVERVIEW_MAX = 4096;
const ANIMATION_MS = 380;
const ANIMATE_MAX_NODES = 2500;
const FONT = '12px ui-monospace, "DejaVu Sans Mono", Menlo, Consolas, monospace';
const CHIP_FONT = '11px ui-monospace, "DejaVu Sans Mono", Menlo, Consolas, monospace';

export interface Highlights {
  selected?: number | null;
  hits?: ReadonlySet<number>;
}

/**
 * Draws a laid-out tree on a canvas: culls to the viewport (binary search per column), picks a level of
 * detail by scale, falls back to a cached overview bitmap when very many nodes are visible, and
 * animates between layouts of successive steps. Draw time per frame is recorded for the benchmarks.
 */
export class TreePainter {
  private layout: TreeLayout | undefined;
  private index: TreeIndex | undefined;
  private transform: ViewTransform = { x: 0, y: 0, k: 1 };
  private width = 0;
  private height = 0;
  private dpr = 1;
  private highlights: Highlights = {};
  private overview: { canvas: HTMLCanvasElement; scale: number } | undefined;
  private animation: { from: Map<number, { x: number; y: number }>; start: number } | undefined;
  private frame = 0;
  readonly drawTimes: number[] = [];
  overviewMs = 0;
  onFirstPaint: ((ms: number) => void) | undefined;

  constructor(private readonly canvas: HTMLCanvasElement) {}

  getLayout(): TreeLayout | undefined {
    return this.layout;
  }

  getIndex(): TreeIndex | undefined {
    return this.index;
  }

  setLayout(layout: TreeLayout | undefined, animate: boolean): void {
    const old = this.layout;
    if (animate && old && layout && layout.nodes.length <= ANIMATE_MAX_NODES && old.nodes.length <= ANIMATE_MAX_NODES) {
      const from = new Map<number, { x: number; y: number }>();
      for (const n of old.nodes) from.set(n.id, { x: n.x, y: n.y });
      this.animation = { from, start: performance.now() };
    } else this.animation = undefined;
    this.layout = layout;
    this.index = layout ? buildIndex(layout) : undefined;
    this.overview = undefined;
    this.requestDraw();
  }

  setTransform(t: ViewTransform): void {
    this.transform = t;
    this.requestDraw();
  }

  setSize(width: number, height: number, dpr: number): void {
    this.width = width;
    this.height = height;
    this.dpr = dpr;
    this.canvas.width = Math.max(1, Math.round(width * dpr));
    this.canvas.height = Math.max(1, Math.round(height * dpr));
    // Resizing clears the canvas: redraw now, not next frame, so a resize never flashes an empty view.
    if (this.layout) this.draw();
    else this.requestDraw();
  }

  setHighlights(h: Highlights): void {
    this.highlights = h;
    this.requestDraw();
  }

  requestDraw(): void {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.draw();
    });
  }

  dispose(): void {
    cancelAnimationFrame(this.frame);
  }

  /** Draws one frame now; returns its duration in milliseconds. */
  draw(): number {
    const t0 = performance.now();
    const ctx = this.canvas.getContext('2d');
    if (!ctx) return 0;
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.fillStyle = '#fbfbfd';
    ctx.fillRect(0, 0, this.canvas.width, this.canvas.height);
    const layout = this.layout;
    const index = this.index;
    if (layout && index && layout.nodes.length > 0) {
      const { x, y, k } = this.transform;
      ctx.setTransform(k * this.dpr, 0, 0, k * this.dpr, x * this.dpr, y * this.dpr);
      const x0 = -x / k, y0 = -y / k, x1 = (this.width - x) / k, y1 = (this.height - y) / k;
      let progress = 1;
      if (this.animation) {
        progress = Math.min(1, (t0 - this.animation.start) / ANIMATION_MS);
        if (progress >= 1) this.animation = undefined;
      }
      if (this.animation) {
        this.drawAnimated(ctx, layout, easeInOut(progress), k);
        this.requestDraw();
      } else if (countVisible(layout, index, x0, y0, x1, y1) > OVERVIEW_THRESHOLD) {
        this.drawOverview(ctx, layout);
      } else {
        const visible: number[] = [];
        forEachVisible(layout, index, x0, y0, x1, y1, (i) => visible.push(i));
        this.drawEdges(ctx, layout, index, x0, y0, x1, y1, k);
        if (k >= FULL) for (const i of visible) drawFullNode(ctx, layout.nodes[i]!, 1);
        else drawPlainNodes(ctx, layout, visible, k >= BOXES);
      }
      this.drawHighlights(ctx, layout, k);
    }
    const ms = performance.now() - t0;
    this.drawTimes.push(ms);
    if (this.drawTimes.length > 600) this.drawTimes.splice(0, this.drawTimes.length - 600);
    if (layout && this.onFirstPaint) {
      const cb = this.onFirstPaint;
      this.onFirstPaint = undefined;
      cb(ms);
    }
    return ms;
  }

  private drawEdges(ctx: CanvasRenderingContext2D, layout: TreeLayout, index: TreeIndex, x0: number, y0: number, x1: number, y1: number, k: number): void {
    ctx.beginPath();
    const curved = k >= BOXES;
    forEachVisibleFan(layout, index, x0, y0, x1, y1, (p) => {
      const parent = layout.nodes[p]!;
      const first = index.firstChild[p]!;
      for (let c = first; c < first + index.childCount[p]!; c++) {
        const route = edgeRoute(parent, layout.nodes[c]!, layout.columnGap);
        if (curved) traceEdge(ctx, route);
        else {
          ctx.moveTo(route.sx, route.sy);
          ctx.lineTo(route.ex, route.ey);
        }
      }
    });
    ctx.strokeStyle = '#9aa0ad';
    ctx.lineWidth = Math.max(1.2, 1 / k);
    ctx.stroke();
  }

  private drawAnimated(ctx: CanvasRenderingContext2D, layout: TreeLayout, t: number, k: number): void {
    const from = this.animation?.from ?? new Map<number, { x: number; y: number }>();
    const pos = (n: LaidOutNode): { x: number; y: number } => {
      let start = from.get(n.id);
      if (!start) {
        // New nodes grow out of their parent's old place.
        const p = layout.nodes[n.parent];
        start = (p && from.get(p.id)) ?? { x: n.x, y: n.y };
      }
      return { x: start.x + (n.x - start.x) * t, y: start.y + (n.y - start.y) * t };
    };
    const at = layout.nodes.map(pos);
    ctx.beginPath();
    layout.nodes.forEach((n, i) => {
      const p = layout.nodes[n.parent];
      if (!p) return;
      const a = at[n.parent]!, b = at[i]!;
      traceEdge(ctx, edgeRoute({ ...p, x: a.x, y: a.y }, { ...n, x: b.x, y: b.y }, layout.columnGap));
    });
    ctx.strokeStyle = '#9aa0ad';
    ctx.lineWidth = Math.max(1.2, 1 / k);
    ctx.stroke();
    layout.nodes.forEach((n, i) => {
      const p = at[i]!;
      drawFullNode(ctx, { ...n, x: p.x, y: p.y }, from.has(n.id) ? 1 : t);
    });
  }

  private drawOverview(ctx: CanvasRenderingContext2D, layout: TreeLayout): void {
    // First paint uses a bitmap just sharp enough for the current zoom (cheap); the full-resolution
    // one (≤ 4096 px a side) is built once, when the browser is idle, so zooming never rebuilds it.
    if (!this.overview) {
      const t0 = performance.now();
      this.overview = renderOverview(layout, Math.min(2 * this.transform.k * this.dpr, 1));
      this.overviewMs = performance.now() - t0;
      const full = maxOverviewScale(layout);
      if (this.overview.scale < full) {
        const idle = (window as { requestIdleCallback?: (cb: () => void, o?: { timeout: number }) => number }).requestIdleCallback ?? ((cb: () => void) => setTimeout(cb, 50));
        idle(() => {
          if (this.layout !== layout) return;
          this.overview = renderOverview(layout, full);
          this.requestDraw();
        }, { timeout: 300 });
      }
    }
    const { canvas, scale } = this.overview;
    ctx.imageSmoothingEnabled = true;
    ctx.drawImage(canvas, 0, 0, canvas.width / scale, canvas.height / scale);
  }

  private drawHighlights(ctx: CanvasRenderingContext2D, layout: TreeLayout, k: number): void {
    const hits = this.highlights.hits;
    if (hits && hits.size > 0) {
      ctx.beginPath();
      for (const id of hits) {
        const i = layout.index.get(id);
        if (i === undefined) continue;
        const n = layout.nodes[i]!;
        const pad = 4 / k;
        ctx.rect(n.x - pad, n.y - pad, n.w + 2 * pad, n.h + 2 * pad);
      }
      ctx.strokeStyle = '#f2b600';
      ctx.lineWidth = 3 / Math.max(k, 0.05);
      ctx.stroke();
    }
    const sel = this.highlights.selected;
    const i = sel === null || sel === undefined ? undefined : layout.index.get(sel);
    if (i !== undefined) {
      const n = layout.nodes[i]!;
      const pad = 3 / k;
      ctx.strokeStyle = '#111';
      ctx.lineWidth = 2.5 / k;
      ctx.strokeRect(n.x - pad, n.y - pad, n.w + 2 * pad, n.h + 2 * pad);
    }
  }
}

function easeInOut(t: number): number {
  return t < 0.5 ? 2 * t * t : 1 - (-2 * t + 2) ** 2 / 2;
}

/** A full node: rounded box in its status colours, status dot, label, context chips, collapse badge. */
export function drawFullNode(ctx: CanvasRenderingContext2D, n: LaidOutNode, alpha: number): void {
  const st = STATUS_STYLE[n.status];
  const { label, chipRows, action } = contentOf(n);
  ctx.globalAlpha = alpha;
  ctx.beginPath();
  ctx.roundRect(n.x, n.y, n.w, n.h, 5);
  ctx.fillStyle = st.fill;
  ctx.fill();
  ctx.lineWidth = n.current === 'goal' ? 3 : n.current === 'bundle' ? 2.5 : 1.2;
  ctx.strokeStyle = st.stroke;
  ctx.setLineDash(n.current === 'bundle' ? [5, 3] : []);
  ctx.stroke();
  ctx.setLineDash([]);
  ctx.beginPath();
  ctx.arc(n.x + PADDING + 4, n.y + HEADER_HEIGHT / 2, 4, 0, Math.PI * 2);
  ctx.fillStyle = st.stroke;
  ctx.fill();
  ctx.font = FONT;
  ctx.fillStyle = '#1d1d22';
  ctx.textBaseline = 'middle';
  ctx.fillText(label, n.x + PADDING + 14, n.y + HEADER_HEIGHT / 2 + 1);
  if (n.hidden > 0) {
    ctx.textAlign = 'right';
    ctx.fillStyle = '#666';
    ctx.fillText(`▸${n.hidden}`, n.x + n.w - 5, n.y + HEADER_HEIGHT / 2 + 1);
    ctx.textAlign = 'left';
  }
  let cy = n.y + HEADER_HEIGHT;
  ctx.font = CHIP_FONT;
  for (const row of chipRows) {
    let cx = n.x + PADDING;
    for (const chip of row) {
      const cw = chip.length * CHIP_CHAR_WIDTH + 10;
      ctx.beginPath();
      ctx.roundRect(cx, cy, cw, CHIP_HEIGHT, 8);
      ctx.fillStyle = '#ffffff';
      ctx.fill();
      ctx.strokeStyle = '#c5c8d2';
      ctx.lineWidth = 1;
      ctx.stroke();
      ctx.fillStyle = '#354';
      ctx.fillText(chip, cx + 5, cy + CHIP_HEIGHT / 2 + 1);
      cx += cw + CHIP_GAP;
    }
    cy += CHIP_HEIGHT + CHIP_GAP;
  }
  if (action !== undefined) {
    // The derivation view's footer: the command that acted on this goal, under a hairline.
    const ay = n.y + n.h - ACTION_HEIGHT;
    ctx.beginPath();
    ctx.moveTo(n.x + 4, ay);
    ctx.lineTo(n.x + n.w - 4, ay);
    ctx.strokeStyle = st.stroke;
    ctx.lineWidth = 0.6;
    ctx.stroke();
    ctx.font = `italic ${CHIP_FONT}`;
    ctx.fillStyle = '#4a4f5c';
    ctx.fillText(action, n.x + PADDING, ay + ACTION_HEIGHT / 2 + 1);
  }
  ctx.globalAlpha = 1;
}

/** Many nodes at once: one path per status (a handful of fills instead of thousands). */
function drawPlainNodes(ctx: CanvasRenderingContext2D, layout: TreeLayout, visible: number[], outlined: boolean): void {
  const groups = new Map<DisplayStatus, number[]>();
  for (const i of visible) {
    const s = layout.nodes[i]!.status;
    let g = groups.get(s);
    if (!g) groups.set(s, (g = []));
    g.push(i);
  }
  for (const status of DISPLAY_STATUSES) {
    const g = groups.get(status);
    if (!g) continue;
    ctx.beginPath();
    for (const i of g) {
      const n = layout.nodes[i]!;
      ctx.rect(n.x, n.y, n.w, n.h);
    }
    ctx.fillStyle = outlined ? STATUS_STYLE[status].fill : STATUS_STYLE[status].stroke;
    ctx.fill();
    if (outlined) {
      ctx.strokeStyle = STATUS_STYLE[status].stroke;
      ctx.lineWidth = 1.5;
      ctx.stroke();
    }
  }
  // The current goal stays visible at every zoom.
  for (const i of visible) {
    const n = layout.nodes[i]!;
    if (n.current === 'goal') {
      ctx.strokeStyle = STATUS_STYLE[n.status].stroke;
      ctx.lineWidth = 4;
      ctx.strokeRect(n.x - 2, n.y - 2, n.w + 4, n.h + 4);
    }
  }
}

function maxOverviewScale(layout: TreeLayout): number {
  return Math.min(1, OVERVIEW_MAX / Math.max(layout.width, 1), OVERVIEW_MAX / Math.max(layout.height, 1));
}

/** The whole tree once into a bitmap (at most 4096 px a side), for far zoomed-out frames. */
function renderOverview(layout: TreeLayout, wanted: number): { canvas: HTMLCanvasElement; scale: number } {
  const scale = Math.min(maxOverviewScale(layout), Math.max(wanted, 0.0001));
  const canvas = document.createElement('canvas');
  canvas.width = Math.max(1, Math.ceil(layout.width * scale));
  canvas.height = Math.max(1, Math.ceil(layout.height * scale));
  const ctx = canvas.getContext('2d');
  if (!ctx) return { canvas, scale };
  ctx.setTransform(scale, 0, 0, scale, 0, 0);
  const all = layout.nodes.map((_, i) => i);
  ctx.beginPath();
  for (const n of layout.nodes) {
    const p = layout.nodes[n.parent];
    if (!p) continue;
    ctx.moveTo(p.x + p.w, p.y + p.h / 2);
    ctx.lineTo(n.x, n.y + n.h / 2);
  }
  ctx.strokeStyle = '#c3c7d0';
  ctx.lineWidth = 1 / scale;
  ctx.stroke();
  drawPlainNodes(ctx, layout, all, false);
  return { canvas, scale };
}

/** The whole tree at `scale` on a fresh canvas (PNG export), white background. */
export function renderFullTree(layout: TreeLayout, scale: number): HTMLCanvasElement {
  const margin = 20;
  const canvas = document.createElement('canvas');
  canvas.width = Math.ceil((layout.width + 2 * margin) * scale);
  canvas.height = Math.ceil((layout.height + 2 * margin) * scale);
  const ctx = canvas.getContext('2d');
  if (!ctx) return canvas;
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  ctx.setTransform(scale, 0, 0, scale, margin * scale, margin * scale);
  ctx.beginPath();
  for (const n of layout.nodes) {
    const p = layout.nodes[n.parent];
    if (!p) continue;
    traceEdge(ctx, edgeRoute(p, n, layout.columnGap));
  }
  ctx.strokeStyle = '#9aa0ad';
  ctx.lineWidth = 1.2;
  ctx.stroke();
  for (const n of layout.nodes) drawFullNode(ctx, n, 1);
  return canvas;
}
