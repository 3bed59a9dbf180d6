import type { LaidOutNode, TreeLayout } from '../../shared/tree-layout/layout-tree.ts';
import { contentOf } from '../../shared/tree-layout/layout-tree.ts';
import type { DisplayStatus } from '../../shared/tree-layout/display-status.ts';
import { DISPLAY_STATUSES, STATUS_STYLE } from '../../shared/tree-layout/display-status.ts';
import { chipBoxes } from '../../shared/tree-layout/chip-boxes.ts';
import { ACTION_HEIGHT, FOOTER_STYLE, HEADER_HEIGHT, PADDING, TITLE_COLOR, nodeTextLayout } from '../../shared/tree-layout/node-content.ts';
import { edgeRoute, traceEdge } from '../../shared/tree-layout/edge-route.ts';
import type { TreeIndex } from './tree-index.ts';
import type { HypothesisUse } from '../../shared/derivation/hypothesis-flow.ts';
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
  /** Hypotheses the selected node introduced or used: drawn as arcs from where each entered to where it was used. */
  flows?: readonly HypothesisUse[];
}

/** Screen font of the labels that keep the current goal and the path to it legible when zoomed out. */
const PATH_FONT_PX = 11;
const NODE_FONT_PX = 12;
const SMALL_FONT_PX = 11;

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
  /** The current goal and its ancestors (indices into the layout), root first. */
  private path: number[] = [];
  readonly drawTimes: number[] = [];
  /** The smallest text on screen in the last frame, in CSS pixels (Infinity when no text was drawn). */
  minFontPx = Infinity;
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
    this.path = layout ? pathToCurrent(layout) : [];
    this.overview = undefined;
    this.requestDraw();
  }

  /** Whether a step's change is still being animated (tests wait on it). */
  isAnimating(): boolean {
    return this.animation !== undefined;
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
    let minFont = Infinity;
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
        minFont = SMALL_FONT_PX * k;
      } else if (countVisible(layout, index, x0, y0, x1, y1) > OVERVIEW_THRESHOLD) {
        this.drawOverview(ctx, layout);
      } else {
        const visible: number[] = [];
        forEachVisible(layout, index, x0, y0, x1, y1, (i) => visible.push(i));
        this.drawEdges(ctx, layout, index, x0, y0, x1, y1, k);
        if (k >= FULL) {
          for (const i of visible) {
            const n = layout.nodes[i]!;
            drawFullNode(ctx, n, 1);
            const c = contentOf(n);
            minFont = Math.min(minFont, (c.chipRows.length > 0 || c.action !== undefined || c.lines.length > 0 ? SMALL_FONT_PX : NODE_FONT_PX) * k);
          }
        } else drawPlainNodes(ctx, layout, visible, k >= BOXES);
      }
      if (!this.animation && k >= BOXES) this.drawFlows(ctx, layout, k);
      this.drawHighlights(ctx, layout, k);
      // Zoomed out, node text is gone: the current goal and the path to it keep readable labels.
      if (!this.animation && k < FULL && this.path.length > 0) {
        if (this.drawPathLabels(ctx, layout, k)) minFont = Math.min(minFont, PATH_FONT_PX);
      }
    }
    this.minFontPx = minFont;
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

  /** Arcs from where a hypothesis entered to the step that used it, labelled with its name. */
  private drawFlows(ctx: CanvasRenderingContext2D, layout: TreeLayout, k: number): void {
    const flows = this.highlights.flows;
    if (!flows || flows.length === 0) return;
    ctx.save();
    ctx.strokeStyle = '#b3541e';
    ctx.fillStyle = '#b3541e';
    ctx.lineWidth = 1.6 / Math.min(k, 1);
    ctx.setLineDash([6 / Math.min(k, 1), 4 / Math.min(k, 1)]);
    ctx.font = CHIP_FONT;
    ctx.textBaseline = 'middle';
    for (const f of flows) {
      const a = layout.index.get(f.from), b = layout.index.get(f.to);
      // Used where it entered: the box's own chip and `uses` line say so; an arc to itself says nothing.
      if (a === undefined || b === undefined || a === b) continue;
      const from = layout.nodes[a]!, to = layout.nodes[b]!;
      const sx = from.x + from.w / 2, sy = from.y + from.h, ex = to.x + to.w / 2, ey = to.y + to.h;
      const dip = Math.max(sy, ey) + 28 + Math.abs(ex - sx) * 0.08;
      ctx.beginPath();
      ctx.moveTo(sx, sy);
      ctx.bezierCurveTo(sx, dip, ex, dip, ex, ey);
      ctx.stroke();
      ctx.beginPath();
      ctx.arc(ex, ey, 3 / Math.min(k, 1), 0, Math.PI * 2);
      ctx.fill();
      ctx.fillText(f.name, (sx + ex) / 2 + 4, dip - 4);
    }
    ctx.restore();
  }

  /**
   * In screen pixels, over the zoomed-out tree: a card with the current goal, and one with the command of
   * each ancestor on the way to it that has room; the path's edges drawn strong. Returns whether any was drawn.
   */
  private drawPathLabels(ctx: CanvasRenderingContext2D, layout: TreeLayout, k: number): boolean {
    const nodes = this.path.map((i) => layout.nodes[i]!);
    ctx.beginPath();
    for (let i = 1; i < nodes.length; i++) traceEdge(ctx, edgeRoute(nodes[i - 1]!, nodes[i]!, layout.columnGap));
    ctx.strokeStyle = '#d89b00';
    ctx.lineWidth = 3 / k;
    ctx.stroke();
    ctx.save();
    ctx.setTransform(this.dpr, 0, 0, this.dpr, 0, 0);
    const { x, y } = this.transform;
    const placed: { x0: number; y0: number; x1: number; y1: number }[] = [];
    ctx.font = `${PATH_FONT_PX}px ui-monospace, "DejaVu Sans Mono", Menlo, Consolas, monospace`;
    ctx.textBaseline = 'middle';
    let drawn = false;
    // The current goal first: it always gets its card; then the ancestors upward, where they fit.
    for (let i = nodes.length - 1; i >= 0; i--) {
      const n = nodes[i]!;
      const isGoal = i === nodes.length - 1 && n.current === 'goal';
      const sx = x + n.x * k, sy = y + (n.y + n.h / 2) * k;
      if (sx > this.width || sy < -20 || sy > this.height + 20 || sx + n.w * k < -400) continue;
      const text = isGoal ? `⊢ ${clipText(n.view.goal ?? '', 70)}` : clipText(n.view.action ? `by ${n.view.action}` : n.view.goal ?? (n.view.kind === 'bundle' ? `${n.view.children?.length ?? 0} goals` : ''), 34);
      if (!text) continue;
      const w = text.length * PATH_FONT_PX * 0.62 + 12, h = PATH_FONT_PX + 8;
      const box = { x0: Math.max(2, Math.min(sx, this.width - w - 2)), y0: sy - h / 2 - (isGoal ? 0 : h), x1: 0, y1: 0 };
      box.x1 = box.x0 + w;
      box.y1 = box.y0 + h;
      if (!isGoal && placed.some((p) => p.x0 < box.x1 && box.x0 < p.x1 && p.y0 < box.y1 && box.y0 < p.y1)) continue;
      placed.push(box);
      ctx.beginPath();
      ctx.roundRect(box.x0, box.y0, w, h, 4);
      ctx.fillStyle = isGoal ? '#fff7e0' : 'rgba(255, 255, 255, 0.92)';
      ctx.fill();
      ctx.strokeStyle = isGoal ? '#d89b00' : '#b9bdc8';
      ctx.lineWidth = isGoal ? 2 : 1;
      ctx.stroke();
      ctx.fillStyle = '#1d1d22';
      ctx.fillText(text, box.x0 + 6, box.y0 + h / 2 + 1);
      drawn = true;
    }
    ctx.restore();
    return drawn;
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

function clipText(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** The current goal's node and its ancestors, root first (empty when the tree has no current goal). */
function pathToCurrent(layout: TreeLayout): number[] {
  let i = layout.nodes.findIndex((n) => n.current === 'goal');
  const out: number[] = [];
  while (i >= 0) {
    out.unshift(i);
    i = layout.nodes[i]!.parent;
  }
  return out;
}

function easeInOut(t: number): number {
  return t < 0.5 ? 2 * t * t : 1 - (-2 * t + 2) ** 2 / 2;
}

/** A full node: rounded box in its status colours, status dot, label (the current goal wrapped), context chips, footer lines. */
export function drawFullNode(ctx: CanvasRenderingContext2D, n: LaidOutNode, alpha: number): void {
  const st = STATUS_STYLE[n.status];
  const content = contentOf(n);
  const text = nodeTextLayout(content, n.h);
  ctx.globalAlpha = alpha;
  ctx.beginPath();
  ctx.roundRect(n.x, n.y, n.w, n.h, 5);
  ctx.fillStyle = n.view.summary ? '#eef2ee' : st.fill;
  ctx.fill();
  ctx.lineWidth = n.current === 'goal' ? 3 : n.current === 'bundle' ? 2.5 : 1.2;
  ctx.strokeStyle = st.stroke;
  ctx.setLineDash(n.current === 'bundle' || n.view.summary ? [5, 3] : []);
  ctx.stroke();
  ctx.setLineDash([]);
  ctx.beginPath();
  ctx.arc(n.x + PADDING + 4, n.y + HEADER_HEIGHT / 2, 4, 0, Math.PI * 2);
  ctx.fillStyle = st.stroke;
  ctx.fill();
  ctx.font = FONT;
  ctx.fillStyle = TITLE_COLOR[content.titleKind ?? 'goal'];
  ctx.textBaseline = 'middle';
  for (const l of text.labels) ctx.fillText(l.text, n.x + PADDING + 14, n.y + l.y);
  ctx.font = CHIP_FONT;
  // A wrapped hypothesis is one chip over several rows (one border, continuation indented).
  for (const box of chipBoxes(content, text.chipsTop)) {
    ctx.beginPath();
    ctx.roundRect(n.x + box.x, n.y + box.y, box.w, box.h, 8);
    ctx.fillStyle = '#ffffff';
    ctx.fill();
    ctx.strokeStyle = '#c5c8d2';
    ctx.lineWidth = 1;
    ctx.stroke();
    ctx.fillStyle = '#354';
    for (const l of box.lines) ctx.fillText(l.text, n.x + l.x, n.y + l.y);
  }
  if (text.footer.length > 0) {
    // The derivation view's footer: the command that acted on this goal, what it used, what is hidden below.
    const top = n.y + (text.footer[0] as { y: number }).y;
    ctx.beginPath();
    ctx.moveTo(n.x + 4, top);
    ctx.lineTo(n.x + n.w - 4, top);
    ctx.strokeStyle = st.stroke;
    ctx.lineWidth = 0.6;
    ctx.stroke();
    for (const f of text.footer) {
      const style = FOOTER_STYLE[f.kind];
      ctx.font = style.italic ? `italic ${CHIP_FONT}` : CHIP_FONT;
      ctx.fillStyle = style.color;
      ctx.fillText(f.text, n.x + PADDING, n.y + f.y + ACTION_HEIGHT / 2 + 1);
    }
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
