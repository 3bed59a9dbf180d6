import { select } from 'd3-selection';
import 'd3-transition';
import { zoom as d3zoom, zoomIdentity, zoomTransform } from 'd3-zoom';
import type { ZoomBehavior } from 'd3-zoom';
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { flowOf, hypothesisUses } from '../../shared/derivation/hypothesis-flow.ts';
import { shownLayout } from './shown-layout.ts';
import type { TreeLayout } from '../../shared/tree-layout/layout-tree.ts';
import { searchTree } from '../../shared/proof-tree/tree-view-queries.ts';
import { selectCollapsed, selectSearch, selectSelectedId } from '../store/proof-slice.ts';
import { useArbor } from '../store/store.ts';
import { selectFailureNote, selectOverlay, selectShownTree } from '../store/tree-selectors.ts';
import { perf } from '../services/workbench.ts';
import { hitTest } from './tree-index.ts';
import { TreePainter } from './tree-painter.ts';
import { TreeToolbar } from './tree-toolbar.tsx';
import { selectDerivationNote } from './derivation-outline.tsx';
import { TreeLegend } from './tree-legend.tsx';
import { selectTreeView } from '../store/ui-slice.ts';
import { isPlaying, playHistory, replayStep, stopPlaying } from '../services/replay.ts';

interface TreeHandle {
  fit(animate: boolean): void;
  centerOn(id: number): void;
}

let handle: TreeHandle | undefined;
/** `?layout=columns`: derivations laid out as before the compact layout (the fit benchmark's "before"). */
const COLUMNS_ONLY = typeof location !== 'undefined' && new URLSearchParams(location.search).get('layout') === 'columns';
/** Fit never zooms out further than this: the smallest text (11 px chips and footers) stays at 10 px or more on screen. */
const READABLE_SCALE = 10 / 11;
/** Fit the tree to the view (toolbar, menu, `F`). */
export const fitTree = (): void => handle?.fit(true);

/** The bundle tree: canvas drawing (culling, level of detail), d3-zoom pan/zoom, click/double-click. */
export function TreePane() {
  const wrap = useRef<HTMLDivElement>(null);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const painter = useRef<TreePainter | null>(null);
  const zoomRef = useRef<ZoomBehavior<HTMLCanvasElement, unknown> | null>(null);
  const tree = useArbor(selectShownTree);
  const collapsed = useArbor(selectCollapsed);
  const overlay = useArbor(selectOverlay);
  const selected = useArbor(selectSelectedId);
  const search = useArbor(selectSearch);
  const failure = useArbor(selectFailureNote);
  const mode = useArbor(selectTreeView);
  const derivationNote = useArbor(selectDerivationNote);
  const [hitIndex, setHitIndex] = useState(0);
  // A tree from elsewhere (another document, a loaded transcript, the other view) is fitted afresh, even
  // when its root has the same id as the last one's (derivation roots do).
  const source = useArbor((s) => `${s.ui.treeView}:${s.ui.treeSource === 'vfile' ? `vfile:${s.vfile.path ?? ''}:${s.vfile.theorem}` : s.ui.treeSource === 'transcript' && s.transcript.loaded ? `transcript:${s.transcript.loaded.name}` : `doc:${s.documents.activeUri ?? ''}`}`);
  const rootId = `${source}:${tree?.id ?? ''}`;
  const fittedFor = useRef<unknown>(null);
  /** Set once the user pans or zooms: until then (or until Fit) the view follows the growing tree. */
  const userMoved = useRef(false);

  const layout: TreeLayout | undefined = useMemo(() => {
    if (!tree) return undefined;
    const t0 = performance.now();
    const l = shownLayout(tree, collapsed, overlay ? { current: overlay, ...(failure ? { note: failure } : {}) } : {}, COLUMNS_ONLY);
    perf().layoutMs = performance.now() - t0;
    perf().nodes = l.nodes.length;
    return l;
  }, [tree, collapsed, overlay, failure]);

  const hits = useMemo(() => (tree && search ? searchTree(tree, search) : []), [tree, search]);
  const uses = useMemo(() => (tree ? hypothesisUses(tree) : []), [tree]);
  const flows = useMemo(() => {
    if (selected === null) return [];
    const f = flowOf(uses, selected);
    return [...f.enters, ...f.uses];
  }, [uses, selected]);

  useEffect(() => {
    const canvas = canvasRef.current as HTMLCanvasElement;
    const p = new TreePainter(canvas);
    painter.current = p;
    perf().drawTimes = p.drawTimes;
    const z = d3zoom<HTMLCanvasElement, unknown>().scaleExtent([0.0005, 4]).on('zoom', (e: { transform: { x: number; y: number; k: number }; sourceEvent: unknown }) => {
      if (e.sourceEvent) userMoved.current = true;
      p.setTransform({ x: e.transform.x, y: e.transform.y, k: e.transform.k });
    });
    zoomRef.current = z;
    const sel = select(canvas);
    sel.call(z).on('dblclick.zoom', null);
    const resize = (): void => {
      const r = (wrap.current as HTMLDivElement).getBoundingClientRect();
      p.setSize(r.width, r.height, Math.min(window.devicePixelRatio || 1, 2));
    };
    resize();
    const ro = new ResizeObserver(resize);
    ro.observe(wrap.current as HTMLDivElement);
    const toWorld = (ev: MouseEvent): { x: number; y: number } => {
      const r = canvas.getBoundingClientRect();
      const t = zoomTransform(canvas);
      return { x: (ev.clientX - r.left - t.x) / t.k, y: (ev.clientY - r.top - t.y) / t.k };
    };
    const nodeAt = (ev: MouseEvent): number | undefined => {
      const l = p.getLayout(), idx = p.getIndex();
      if (!l || !idx) return undefined;
      const w = toWorld(ev);
      const i = hitTest(l, idx, w.x, w.y);
      return i === undefined ? undefined : l.nodes[i]?.id;
    };
    const onClick = (ev: MouseEvent): void => {
      useArbor.getState().selectNode(nodeAt(ev) ?? null);
    };
    const onDblClick = (ev: MouseEvent): void => {
      const id = nodeAt(ev);
      if (id !== undefined) useArbor.getState().toggleCollapsed(id);
    };
    // Replay keys on the focused tree: ← / → step, space plays or pauses.
    const onKey = (ev: KeyboardEvent): void => {
      if (ev.key === 'ArrowLeft' || ev.key === 'ArrowRight') {
        ev.preventDefault();
        replayStep(ev.key === 'ArrowLeft' ? -1 : 1);
      } else if (ev.key === ' ') {
        ev.preventDefault();
        if (isPlaying()) stopPlaying();
        else playHistory();
      }
    };
    canvas.addEventListener('keydown', onKey);
    canvas.addEventListener('click', onClick);
    canvas.addEventListener('dblclick', onDblClick);
    // For e2e tests and tooling: where a node is drawn on screen (page coordinates).
    (window as unknown as { __arborTree?: unknown }).__arborTree = {
      screenRect(id: number) {
        const l = p.getLayout();
        const i = l?.index.get(id);
        if (!l || i === undefined) return null;
        const n = l.nodes[i]!;
        const r = canvas.getBoundingClientRect();
        const t = zoomTransform(canvas);
        return { x: r.left + t.x + n.x * t.k, y: r.top + t.y + n.y * t.k, w: n.w * t.k, h: n.h * t.k };
      },
      /** Centre a node at the current scale, at once (tests that click a node bring it into view first). */
      centerOn(id: number) {
        const l = p.getLayout();
        const i = l?.index.get(id);
        if (!l || i === undefined) return;
        const n = l.nodes[i]!;
        const r = (wrap.current as HTMLDivElement).getBoundingClientRect();
        const t = zoomTransform(canvas);
        // As if the user had panned there: a later change of the tree keeps this view.
        userMoved.current = true;
        sel.call(z.transform, zoomIdentity.translate(r.width / 2 - (n.x + n.w / 2) * t.k, r.height / 2 - (n.y + n.h / 2) * t.k).scale(t.k));
      },
      /** The view's scale, whether a step's change is being animated, and the smallest text on screen in CSS px. */
      view() {
        const t = zoomTransform(canvas);
        const l = p.getLayout();
        const r = canvas.getBoundingClientRect();
        // Whether the whole tree is on screen (Fit shows it whole unless that would make text unreadable).
        const whole = !!l && t.x + 0.5 >= 0 && t.y + 0.5 >= 0 && t.x + l.width * t.k <= r.width + 0.5 && t.y + l.height * t.k <= r.height + 0.5;
        return { k: t.k, animating: p.isAnimating(), minFontPx: Number.isFinite(p.minFontPx) ? p.minFontPx : null, whole, pane: { w: r.width, h: r.height } };
      },
      /** Fit at once (benchmarks and tests). */
      fit() {
        handle?.fit(false);
      },
      /** Centre the node at `fraction` of the layout order at scale `k`, at once (benchmarks). */
      focus(fraction: number, k: number) {
        const l = p.getLayout();
        const n = l?.nodes[Math.min(l.nodes.length - 1, Math.floor(fraction * l.nodes.length))];
        if (!n) return;
        const r = (wrap.current as HTMLDivElement).getBoundingClientRect();
        sel.call(z.transform, zoomIdentity.translate(r.width / 2 - (n.x + n.w / 2) * k, r.height / 2 - (n.y + n.h / 2) * k).scale(k));
      },
    };
    handle = {
      fit(animate) {
        const l = p.getLayout();
        if (!l) return;
        userMoved.current = false;
        const r = (wrap.current as HTMLDivElement).getBoundingClientRect();
        const whole = Math.min(1.2, (r.width - 40) / Math.max(l.width, 1), (r.height - 40) / Math.max(l.height, 1));
        let t = zoomIdentity.translate((r.width - l.width * whole) / 2, (r.height - l.height * whole) / 2).scale(whole);
        if (whole < READABLE_SCALE) {
          // The whole tree would need unreadable text: keep text readable and bring the current goal
          // (or the root) into view instead; the rest is a pan away.
          const k = READABLE_SCALE;
          const focus = l.nodes.find((n) => n.current === 'goal') ?? l.nodes[0]!;
          // As far left as keeps the goal whole on screen: its ancestors (the path to it) fill the rest.
          const x = Math.max(20 - focus.x * k, Math.min(20, r.width - 20 - (focus.x + focus.w) * k));
          // The goal in the middle, but no empty band above the tree's top or below its bottom (a finished
          // proof opens on its root at the top left, the proof reading down from it).
          const centred = r.height / 2 - (focus.y + focus.h / 2) * k;
          const y = Math.min(20, Math.max(r.height - 20 - l.height * k, centred));
          t = zoomIdentity.translate(x, y).scale(k);
        }
        if (animate) sel.transition().duration(450).call(z.transform, t);
        else sel.call(z.transform, t);
      },
      centerOn(id) {
        userMoved.current = true;
        const l = p.getLayout();
        const i = l?.index.get(id);
        if (!l || i === undefined) return;
        const n = l.nodes[i]!;
        const r = (wrap.current as HTMLDivElement).getBoundingClientRect();
        const k = Math.max(0.8, zoomTransform(canvas).k);
        sel.transition().duration(450).call(z.transform, zoomIdentity.translate(r.width / 2 - (n.x + n.w / 2) * k, r.height / 2 - (n.y + n.h / 2) * k).scale(k));
      },
    };
    return () => {
      ro.disconnect();
      canvas.removeEventListener('keydown', onKey);
      canvas.removeEventListener('click', onClick);
      canvas.removeEventListener('dblclick', onDblClick);
      sel.on('.zoom', null);
      p.dispose();
      handle = undefined;
    };
  }, []);

  // A layout effect: the new layout reaches the canvas before the browser paints this commit.
  useLayoutEffect(() => {
    const p = painter.current;
    if (!p) return;
    const first = fittedFor.current !== rootId || !p.getLayout();
    if (layout && !p.getLayout()) {
      const start = performance.now();
      p.onFirstPaint = () => {
        const arrived = perf().treeArrivedAt;
        perf().firstPaintMs = arrived !== undefined ? performance.now() - arrived : performance.now() - start + (perf().layoutMs ?? 0);
        (perf() as Record<string, unknown>).overviewMs = p.overviewMs;
      };
    }
    p.setLayout(layout, !first);
    if (layout && first) {
      fittedFor.current = rootId;
      handle?.fit(false);
    } else if (layout && !userMoved.current) {
      handle?.fit(true);
    }
  }, [layout, rootId]);

  useEffect(() => {
    painter.current?.setHighlights({ selected, hits: new Set(hits), flows });
  }, [selected, hits, flows]);

  useEffect(() => setHitIndex(0), [search]);

  // The inspector's links ask for a node to be centred (after the selection's own render).
  const reveal = useArbor((st) => st.cursor.reveal);
  useEffect(() => {
    if (reveal) handle?.centerOn(reveal.id);
  }, [reveal]);

  const nextHit = (): void => {
    if (!hits.length) return;
    const id = hits[hitIndex % hits.length]!;
    handle?.centerOn(id);
    useArbor.getState().selectNode(id);
    setHitIndex((i) => i + 1);
  };

  return (
    <div className="tree-pane">
      <TreeToolbar hitCount={hits.length} onNextHit={nextHit} onFit={() => handle?.fit(true)} nodeCount={layout?.nodes.length ?? 0} />
      <div className="tree-canvas-wrap" ref={wrap}>
        <canvas ref={canvasRef} className="tree-canvas" data-testid="tree-canvas" tabIndex={0} aria-label="proof tree (drag to pan, wheel to zoom, F to fit, arrow keys to replay)" />
        <TreeLegend mode={mode} />
        {!tree && <div className="tree-empty" data-testid="tree-empty">{derivationNote ?? 'No proof yet: run the document (Ctrl+Alt+End) to see its bundle tree.'}</div>}
        {/* An accessible, testable mirror of what the canvas shows (small trees only). */}
        {layout && layout.nodes.length <= 400 && (
          <ul className="tree-a11y" aria-label="bundle tree nodes">
            {layout.nodes.map((n) => (
              <li
                key={n.id} data-testid="tree-node" data-id={n.id} data-status={n.status} data-current={n.current ?? ''} data-step={n.step} data-action={n.view.action ?? ''}
                data-uses={(n.view.uses ?? []).join(' ')} data-summary={n.view.summary ? String(n.view.summary.steps) : ''} data-hidden={n.extras?.hidden?.goals ?? ''} data-note={n.extras?.note ?? ''}
              >
                <button type="button" onClick={() => useArbor.getState().selectNode(n.id)}>{n.view.summary ? `${n.view.summary.steps} closed steps` : n.view.kind === 'leaf' ? n.view.goal : `bundle of ${n.view.children?.length ?? 0}`}</button>
              </li>
            ))}
          </ul>
        )}
      </div>
    </div>
  );
}
