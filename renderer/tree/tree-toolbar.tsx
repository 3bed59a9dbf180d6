import { useRef } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { selectSearch } from '../store/proof-slice.ts';
import { useArbor } from '../store/store.ts';
import { selectTreeMaximized, selectTreeView } from '../store/ui-slice.ts';
import { exportPng, exportReplayHtml, exportSvg } from './tree-export.ts';
import { DerivationOutline } from './derivation-outline.tsx';
import { isPlaying, playHistory, replayPosition, replayStep, replayTo, stopPlaying } from '../services/replay.ts';
import { replayStops } from '../../shared/transcript/transcript-replay.ts';
import type { ReplayPosition } from '../services/replay.ts';

/** A replayed transcript's request at the slider, its error if it failed, and the filters (failures only, one channel). */
function TranscriptStop({ pos }: { pos: ReplayPosition }) {
  const loaded = useArbor((s) => s.transcript.loaded);
  if (!loaded || !pos.stop) return null;
  const stop = pos.stop;
  const channels = [...new Set(replayStops(loaded.entries).map((x) => x.channel))].sort((a, b) => a - b);
  const filter = loaded.filter ?? {};
  const set = (f: typeof filter): void => {
    stopPlaying();
    useArbor.getState().setTranscriptFilter(f);
    // Stay on the same request if the filter keeps it, else go to the first one it keeps.
    replayTo(0);
  };
  return (
    <div className="replay-stop" data-testid="replay-stop" data-failed={stop.err ? 'true' : 'false'}>
      <span className={stop.err ? 'replay-stop-failed' : 'replay-stop-ok'} title={stop.err || undefined}>
        {stop.err ? '✗ ' : '▸ '}{stop.command}{stop.abandoned ? ' (proof abandoned before END)' : ''}
      </span>
      {stop.err && <span className="replay-stop-error" data-testid="replay-stop-error">{stop.err.split('\n')[0]}</span>}
      <label title="Stop only at requests that failed"><input type="checkbox" data-testid="replay-failures-only" checked={filter.failuresOnly === true} onChange={(e) => set({ ...filter, failuresOnly: e.target.checked })} /> failures only</label>
      {channels.length > 1 && (
        <select data-testid="replay-channel" aria-label="channel" value={filter.channel ?? ''} onChange={(e) => set({ ...filter, channel: e.target.value === '' ? null : Number(e.target.value) })}>
          <option value="">all channels</option>
          {channels.map((c) => <option key={c} value={c}>channel {c}</option>)}
        </select>
      )}
    </div>
  );
}

/** Says that the tree is not the document's (a loaded transcript or an opened `.v` file), with the way back. */
function SourceBanner() {
  const source = useArbor((s) => s.ui.treeSource);
  const name = useArbor((s) => (s.ui.treeSource === 'transcript' ? s.transcript.loaded?.name : s.ui.treeSource === 'vfile' ? s.vfile.path?.replace(/^.*[/\\]/, '') : undefined));
  if (source === 'live' || name === undefined) return null;
  return (
    <div className="source-banner" data-testid="source-banner" role="status">
      <span title={name}>Showing {source === 'transcript' ? 'the transcript' : 'the .v file'} <strong>{name}</strong>, not the document{source === 'transcript' ? ' (read-only replay)' : ''}.</span>
      <button type="button" data-testid="back-to-live" title="Show the document's live proof (running or editing the document does this too)" onClick={() => { stopPlaying(); useArbor.getState().setTreeSource('live'); }}>Back to live</button>
    </div>
  );
}

/** Step back, play/pause, step forward and a slider over the proof's steps (the editor's history or a loaded transcript). */
function ReplayBar() {
  // Re-rendered on every store change: the position depends on the source, the cursor and the history.
  const pos = useArbor(useShallow(replayPosition));
  useArbor((s) => s.proof);
  if (!pos || (pos.count < 2 && !pos.stop)) return null;
  const playing = isPlaying();
  return (
    <>
    <div className="replay-bar" role="group" aria-label="replay">
      <button type="button" data-testid="replay-back" title="Step back (←)" disabled={pos.index === 0} onClick={() => replayStep(-1)}>◀</button>
      <button type="button" data-testid="replay-play" title={playing ? 'Pause (space)' : 'Play the proof step by step (space)'} onClick={() => (playing ? stopPlaying() : playHistory())}>{playing ? '❚❚' : '▶'}</button>
      <button type="button" data-testid="replay-forward" title="Step forward (→)" disabled={pos.index >= pos.count - 1} onClick={() => replayStep(1)}>▶|</button>
      <input
        type="range" min={0} max={pos.count - 1} value={pos.index} data-testid="history-slider" aria-label="step"
        onChange={(e) => { stopPlaying(); replayTo(Number(e.target.value)); }}
      />
      <label data-testid="replay-position">step {pos.step}{pos.live ? ' (live)' : ''} · {pos.index + 1}/{pos.count}</label>
      {!pos.live && useArbor.getState().ui.treeSource === 'live' && (
        <button type="button" data-testid="replay-live" title="Back to the live proof" onClick={() => {
          stopPlaying();
          const st = useArbor.getState();
          if (st.proof.derivationItem !== null || st.proof.cursorLine !== null) st.selectDerivationItem(null);
          else st.setHistoryStep(null);
        }}>Live</button>
      )}
    </div>
    <TranscriptStop pos={pos} />
    </>
  );
}

/**
 * The menu opens under its button, right-aligned; when the toolbar wrapped the button to the pane's left
 * edge, left-aligned instead, so it never reaches over the editor (which would take its clicks).
 */
function placeMenu(menu: HTMLDetailsElement): void {
  const items = menu.querySelector<HTMLElement>('.menu-items');
  const pane = menu.closest('.tree-pane');
  if (!menu.open || !items || !pane) return;
  const room = menu.getBoundingClientRect().right - pane.getBoundingClientRect().left;
  items.classList.toggle('align-left', room < items.offsetWidth + 4);
}

/** State/Derivation, Fit, search, export, and the replay controls. */
export function TreeToolbar(props: { hitCount: number; nodeCount: number; onNextHit(): void; onFit(): void }) {
  const search = useArbor(selectSearch);
  const mode = useArbor(selectTreeView);
  const maximized = useArbor(selectTreeMaximized);
  const exportMenu = useRef<HTMLDetailsElement>(null);
  const run = (action: () => void) => () => {
    action();
    if (exportMenu.current) exportMenu.current.open = false;
  };
  return (
    <div className="tree-toolbar">
      <div className="tree-toolbar-row">
        <span className="segmented" role="group" aria-label="tree view">
          <button
            type="button" aria-pressed={mode === 'state'} data-testid="view-state"
            title="The proof state: the goals still open"
            onClick={() => useArbor.getState().setTreeView('state')}
          >State</button>
          <button
            type="button" aria-pressed={mode === 'derivation'} data-testid="view-derivation"
            title="The derivation: every goal, the command that acted on it, the hypotheses it used, and how each branch was closed"
            onClick={() => useArbor.getState().setTreeView('derivation')}
          >Derivation</button>
        </span>
        {mode === 'derivation' && <DerivationOutline />}
        <button type="button" data-testid="tree-fit" onClick={props.onFit} title="Fit to view (F)">Fit</button>
        <button
          type="button" data-testid="tree-maximize" aria-pressed={maximized}
          title={maximized ? 'Back to the workbench (Esc)' : 'The tree over the whole window: a whole derivation on one screen'}
          onClick={() => useArbor.getState().setTreeMaximized(!maximized)}
        >{maximized ? 'Restore' : 'Maximise'}</button>
        <input
          className="tree-search" type="search" placeholder="Search goals…" value={search} aria-label="search the tree"
          title={search ? `Search goals and hypotheses: ${search} (Enter: next hit)` : 'Search goals and hypotheses (Enter: next hit)'}
          onChange={(e) => useArbor.getState().setSearch(e.target.value)}
          onKeyDown={(e) => { if (e.key === 'Enter') props.onNextHit(); }}
        />
        {search && <span className="hit-count" data-testid="hit-count">{props.hitCount} hit{props.hitCount === 1 ? '' : 's'}</span>}
        <details className="menu" ref={exportMenu} onToggle={(e) => placeMenu(e.currentTarget)}>
          <summary data-testid="export-menu">Export</summary>
          <div className="menu-items">
            <button type="button" onClick={run(exportSvg)} data-testid="export-svg">SVG image</button>
            <button type="button" onClick={run(exportPng)} data-testid="export-png">PNG image</button>
            <button type="button" onClick={run(() => void exportReplayHtml())} title="A page that replays this proof step by step, without Arbor" data-testid="export-replay">Replay page (HTML)</button>
          </div>
        </details>
        <span className="node-count">{props.nodeCount} node{props.nodeCount === 1 ? '' : 's'}</span>
      </div>
      <SourceBanner />
      <ReplayBar />
    </div>
  );
}
