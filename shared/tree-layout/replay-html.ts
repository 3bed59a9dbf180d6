/** One frame of a replay: the tree after a step, drawn as SVG. */
export interface ReplayFrame {
  step: number;
  /** What the step did (the command), shown under the tree. */
  label: string;
  /** The request failed: its error (the frame is a failure of a replayed transcript). */
  error?: string;
  /** The state: the goals still open. */
  svg: string;
  /** The derivation so far: every goal, the command that acted on it, how closed branches closed. */
  derivation?: string;
}

/** The replay page's Fit never shrinks below this: the tree's smallest text (11 px) stays at 10 px. */
export const MIN_SCALE = 10 / 11;

const escapeHtml = (s: string): string => s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c] as string);

/**
 * A standalone page that replays a proof step by step without Arbor (for slides and course pages): the
 * frames inline, one small script (previous / play / next, a slider, arrow keys, the derivation or the
 * state), no network, works from file://. Opens on the derivation when the frames have one.
 */
export function replayHtml(title: string, frames: readonly ReplayFrame[]): string {
  // JSON inside a script element: no `<` at all, so nothing in a label or tree can end or open a tag.
  const data = JSON.stringify(frames.map((f) => ({ step: f.step, label: f.label, svg: f.svg, ...(f.error !== undefined ? { error: f.error } : {}), ...(f.derivation !== undefined ? { derivation: f.derivation } : {}) }))).replace(/</g, '\\u003c');
  const views = frames.some((f) => f.derivation !== undefined);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>
body { font: 14px system-ui, sans-serif; margin: 0; display: flex; flex-direction: column; height: 100vh; }
header { display: flex; gap: 8px; align-items: center; padding: 8px 12px; border-bottom: 1px solid #ddd; }
header h1 { font-size: 15px; margin: 0 12px 0 0; }
#stage { flex: 1; overflow: auto; padding: 12px; cursor: grab; }
#stage.panning { cursor: grabbing; user-select: none; }
#stage svg { display: block; margin: 0 auto; }
#label { font-family: ui-monospace, monospace; padding: 6px 12px; border-top: 1px solid #ddd; min-height: 1.4em; }
#label.failed { color: #b02a2a; }
#zoom { font-variant-numeric: tabular-nums; min-width: 3.5em; text-align: right; color: #555; }
input[type=range] { flex: 1; }
.views button[aria-pressed="true"] { background: #2f6fdb; color: #fff; border: 1px solid #2f6fdb; }
</style></head>
<body>
<header><h1>${escapeHtml(title)}</h1>
<button id="prev" title="previous step (←)">◀</button><button id="play" title="play / pause (space)">▶ Play</button><button id="next" title="next step (→)">▶|</button>
${views ? '<span class="views"><button id="view-derivation" aria-pressed="true" title="every goal and how it was closed (d)">Derivation</button><button id="view-state" aria-pressed="false" title="the goals still open (s)">State</button></span>' : ''}
<input id="slider" type="range" min="0" max="${Math.max(0, frames.length - 1)}" value="0" aria-label="step"><span id="pos"></span>
<button id="zoom-out" title="zoom out (-)">−</button><span id="zoom"></span><button id="zoom-in" title="zoom in (+)">+</button><button id="zoom-fit" title="fit, but never below readable text (0)">Fit</button></header>
<div id="stage"></div><div id="label"></div>
<script id="frames" type="application/json">${data}</script>
<script>
(function () {
  var frames = JSON.parse(document.getElementById('frames').textContent);
  // Fit shrinks the tree at most to MIN_SCALE (text stays readable, about 10 px); the rest scrolls.
  var MIN_SCALE = ${MIN_SCALE}, MAX_SCALE = 4, scale = null;
  var i = 0, timer = null, view = frames.some(function (f) { return f.derivation; }) ? 'derivation' : 'state';
  var stage = document.getElementById('stage'), label = document.getElementById('label'), slider = document.getElementById('slider'), pos = document.getElementById('pos'), play = document.getElementById('play');
  function svg() { return stage.querySelector('svg'); }
  function natural(el) { return { w: Number(el.getAttribute('width')) || 1, h: Number(el.getAttribute('height')) || 1 }; }
  // Fit to the largest frame of the view, so the zoom need not change while stepping.
  function fitScale() {
    var w = 1, h = 1;
    frames.forEach(function (f) {
      var text = view === 'derivation' && f.derivation ? f.derivation : f.svg;
      var m = /width="([0-9.]+)" height="([0-9.]+)"/.exec(text);
      if (m) { w = Math.max(w, Number(m[1])); h = Math.max(h, Number(m[2])); }
    });
    return Math.max(MIN_SCALE, Math.min(1.25, (stage.clientWidth - 24) / w, (stage.clientHeight - 24) / h));
  }
  function applyScale(s, ax, ay) {
    var el = svg(); if (!el) return;
    var n = natural(el), old = scale || s;
    // Keep the point under the pointer (or the centre) where it is.
    var px = ax === undefined ? stage.clientWidth / 2 : ax, py = ay === undefined ? stage.clientHeight / 2 : ay;
    var wx = (stage.scrollLeft + px) / old, wy = (stage.scrollTop + py) / old;
    scale = Math.max(0.1, Math.min(MAX_SCALE, s));
    el.setAttribute('style', 'width:' + n.w * scale + 'px;height:' + n.h * scale + 'px');
    stage.scrollLeft = wx * scale - px;
    stage.scrollTop = wy * scale - py;
    document.getElementById('zoom').textContent = Math.round(scale * 100) + '%';
    stage.setAttribute('data-scale', String(scale));
  }
  function show(k) {
    if (frames.length === 0) return;
    i = Math.max(0, Math.min(frames.length - 1, k));
    var left = stage.scrollLeft, top = stage.scrollTop;
    stage.innerHTML = view === 'derivation' && frames[i].derivation ? frames[i].derivation : frames[i].svg;
    stage.setAttribute('data-view', view);
    // The first frame opens fitted (never below readable); later ones keep the zoom and scroll.
    if (scale === null) applyScale(fitScale(), 0, 0);
    else { var el = svg(), n = el && natural(el); if (el) el.setAttribute('style', 'width:' + n.w * scale + 'px;height:' + n.h * scale + 'px'); stage.scrollLeft = left; stage.scrollTop = top; }
    label.textContent = (frames[i].error ? '✗ step ' : 'step ') + frames[i].step + (frames[i].label ? ': ' + frames[i].label : '') + (frames[i].error ? ' — ' + frames[i].error : '');
    label.className = frames[i].error ? 'failed' : '';
    slider.value = String(i);
    pos.textContent = (i + 1) + ' / ' + frames.length;
  }
  document.getElementById('zoom-in').onclick = function () { applyScale(scale * 1.25); };
  document.getElementById('zoom-out').onclick = function () { applyScale(scale / 1.25); };
  document.getElementById('zoom-fit').onclick = function () { applyScale(fitScale(), 0, 0); stage.scrollLeft = 0; stage.scrollTop = 0; };
  stage.addEventListener('wheel', function (e) {
    e.preventDefault();
    var r = stage.getBoundingClientRect();
    applyScale(scale * Math.pow(1.0015, -e.deltaY), e.clientX - r.left, e.clientY - r.top);
  }, { passive: false });
  // Drag to pan (the page scrolls too).
  var drag = null;
  stage.addEventListener('mousedown', function (e) { drag = { x: e.clientX, y: e.clientY, l: stage.scrollLeft, t: stage.scrollTop }; stage.classList.add('panning'); });
  window.addEventListener('mousemove', function (e) { if (drag) { stage.scrollLeft = drag.l - (e.clientX - drag.x); stage.scrollTop = drag.t - (e.clientY - drag.y); } });
  window.addEventListener('mouseup', function () { drag = null; stage.classList.remove('panning'); });
  function stop() { if (timer) { clearInterval(timer); timer = null; play.textContent = '▶ Play'; } }
  function toggle() {
    if (timer) return stop();
    if (i >= frames.length - 1) show(0);
    play.textContent = '❚❚ Pause';
    timer = setInterval(function () { if (i >= frames.length - 1) stop(); else show(i + 1); }, 1000);
  }
  function setView(v) {
    view = v;
    var d = document.getElementById('view-derivation'), st = document.getElementById('view-state');
    if (d) d.setAttribute('aria-pressed', String(v === 'derivation'));
    if (st) st.setAttribute('aria-pressed', String(v === 'state'));
    show(i);
  }
  if (document.getElementById('view-derivation')) {
    document.getElementById('view-derivation').onclick = function () { setView('derivation'); };
    document.getElementById('view-state').onclick = function () { setView('state'); };
  }
  document.getElementById('prev').onclick = function () { stop(); show(i - 1); };
  document.getElementById('next').onclick = function () { stop(); show(i + 1); };
  play.onclick = toggle;
  slider.oninput = function () { stop(); show(Number(slider.value)); };
  document.addEventListener('keydown', function (e) {
    if (e.key === 'ArrowLeft') { stop(); show(i - 1); } else if (e.key === 'ArrowRight') { stop(); show(i + 1); } else if (e.key === ' ') { e.preventDefault(); toggle(); } else if (e.key === 'd' && document.getElementById('view-derivation')) setView('derivation'); else if (e.key === 's' && document.getElementById('view-state')) setView('state'); else if (e.key === '+' || e.key === '=') applyScale(scale * 1.25); else if (e.key === '-') applyScale(scale / 1.25); else if (e.key === '0') document.getElementById('zoom-fit').onclick();
  });
  show(0);
})();
</script>
</body></html>
`;
}
