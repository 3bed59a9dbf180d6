/** One frame of a replay: the tree after a step, drawn as SVG. */
export interface ReplayFrame {
  step: number;
  /** What the step did (the command), shown under the tree. */
  label: string;
  /** The state: the goals still open. */
  svg: string;
  /** The derivation so far: every goal, the command that acted on it, how closed branches closed. */
  derivation?: string;
}

const escapeHtml = (s: string): string => s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c] as string);

/**
 * A standalone page that replays a proof step by step without Arbor (for slides and course pages): the
 * frames inline, one small script (previous / play / next, a slider, arrow keys, the derivation or the
 * state), no network, works from file://. Opens on the derivation when the frames have one.
 */
export function replayHtml(title: string, frames: readonly ReplayFrame[]): string {
  // JSON inside a script element: no `<` at all, so nothing in a label or tree can end or open a tag.
  const data = JSON.stringify(frames.map((f) => ({ step: f.step, label: f.label, svg: f.svg, ...(f.derivation !== undefined ? { derivation: f.derivation } : {}) }))).replace(/</g, '\\u003c');
  const views = frames.some((f) => f.derivation !== undefined);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>
body { font: 14px system-ui, sans-serif; margin: 0; display: flex; flex-direction: column; height: 100vh; }
header { display: flex; gap: 8px; align-items: center; padding: 8px 12px; border-bottom: 1px solid #ddd; }
header h1 { font-size: 15px; margin: 0 12px 0 0; }
#stage { flex: 1; overflow: auto; display: flex; justify-content: center; align-items: flex-start; padding: 12px; }
#stage svg { max-width: 100%; height: auto; }
#label { font-family: ui-monospace, monospace; padding: 6px 12px; border-top: 1px solid #ddd; min-height: 1.4em; }
input[type=range] { flex: 1; }
.views button[aria-pressed="true"] { background: #2f6fdb; color: #fff; border: 1px solid #2f6fdb; }
</style></head>
<body>
<header><h1>${escapeHtml(title)}</h1>
<button id="prev" title="previous step (←)">◀</button><button id="play" title="play / pause (space)">▶ Play</button><button id="next" title="next step (→)">▶|</button>
${views ? '<span class="views"><button id="view-derivation" aria-pressed="true" title="every goal and how it was closed (d)">Derivation</button><button id="view-state" aria-pressed="false" title="the goals still open (s)">State</button></span>' : ''}
<input id="slider" type="range" min="0" max="${Math.max(0, frames.length - 1)}" value="0" aria-label="step"><span id="pos"></span></header>
<div id="stage"></div><div id="label"></div>
<script id="frames" type="application/json">${data}</script>
<script>
(function () {
  var frames = JSON.parse(document.getElementById('frames').textContent);
  var i = 0, timer = null, view = frames.some(function (f) { return f.derivation; }) ? 'derivation' : 'state';
  var stage = document.getElementById('stage'), label = document.getElementById('label'), slider = document.getElementById('slider'), pos = document.getElementById('pos'), play = document.getElementById('play');
  function show(k) {
    if (frames.length === 0) return;
    i = Math.max(0, Math.min(frames.length - 1, k));
    stage.innerHTML = view === 'derivation' && frames[i].derivation ? frames[i].derivation : frames[i].svg;
    stage.setAttribute('data-view', view);
    label.textContent = 'step ' + frames[i].step + (frames[i].label ? ': ' + frames[i].label : '');
    slider.value = String(i);
    pos.textContent = (i + 1) + ' / ' + frames.length;
  }
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
    if (e.key === 'ArrowLeft') { stop(); show(i - 1); } else if (e.key === 'ArrowRight') { stop(); show(i + 1); } else if (e.key === ' ') { e.preventDefault(); toggle(); } else if (e.key === 'd' && document.getElementById('view-derivation')) setView('derivation'); else if (e.key === 's' && document.getElementById('view-state')) setView('state');
  });
  show(0);
})();
</script>
</body></html>
`;
}
