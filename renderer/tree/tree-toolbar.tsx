import { DISPLAY_STATUSES, STATUS_STYLE } from '../../shared/tree-layout/display-status.ts';
import { selectChannelTrees, selectHistoryStep, selectSearch } from '../store/proof-slice.ts';
import { useArbor } from '../store/store.ts';
import { selectTreeSource, selectTreeView } from '../store/ui-slice.ts';
import { exportPng, exportReplayHtml, exportSvg } from './tree-export.ts';
import { isPlaying, playHistory, stopPlaying } from '../services/replay.ts';

/** Fit, search, export, the status legend and the history slider over the channel's steps. */
export function TreeToolbar(props: { hitCount: number; nodeCount: number; onNextHit(): void; onFit(): void }) {
  const search = useArbor(selectSearch);
  const trees = useArbor(selectChannelTrees);
  const historyStep = useArbor(selectHistoryStep);
  const source = useArbor(selectTreeSource);
  const mode = useArbor(selectTreeView);
  const steps = trees ? Object.keys(trees.byStep).map(Number).sort((a, b) => a - b) : [];
  const shown = historyStep ?? trees?.latest ?? 0;
  return (
    <div className="tree-toolbar">
      <span className="segmented" role="group" aria-label="tree view">
        <button
          type="button" aria-pressed={mode === 'state'} data-testid="view-state"
          title="The proof state: the goals still open"
          onClick={() => useArbor.getState().setTreeView('state')}
        >State</button>
        <button
          type="button" aria-pressed={mode === 'derivation'} data-testid="view-derivation"
          title="The derivation: every goal, the command that acted on it, and how each branch was closed"
          onClick={() => useArbor.getState().setTreeView('derivation')}
        >Derivation</button>
      </span>
      <button type="button" onClick={props.onFit} title="Fit to view (F)">Fit</button>
      <input
        className="tree-search" type="search" placeholder="Search goals and context…" value={search} aria-label="search the tree"
        onChange={(e) => useArbor.getState().setSearch(e.target.value)}
        onKeyDown={(e) => { if (e.key === 'Enter') props.onNextHit(); }}
      />
      {search && <span className="hit-count" data-testid="hit-count">{props.hitCount} hit{props.hitCount === 1 ? '' : 's'}</span>}
      <button type="button" onClick={exportSvg} data-testid="export-svg">SVG</button>
      <button type="button" onClick={exportPng}>PNG</button>
      <button type="button" onClick={exportReplayHtml} title="A page that replays this proof step by step, without Arbor" data-testid="export-replay">Replay page</button>
      <span className="legend" aria-label="legend">
        {DISPLAY_STATUSES.map((s) => (
          <span key={s} className="legend-item"><i style={{ background: STATUS_STYLE[s].fill, borderColor: STATUS_STYLE[s].stroke }} />{STATUS_STYLE[s].label}</span>
        ))}
      </span>
      {source === 'live' && steps.length > 1 && (
        <span className="history">
          <label htmlFor="history">step {shown}{historyStep === null ? ' (live)' : ''}</label>
          <input
            id="history" type="range" min={0} max={steps.length - 1} value={Math.max(0, steps.indexOf(shown))} data-testid="history-slider"
            onChange={(e) => {
              const step = steps[Number(e.target.value)];
              useArbor.getState().setHistoryStep(step === trees?.latest ? null : step ?? null);
            }}
          />
          <button type="button" data-testid="replay-play" title="Replay the proof step by step" onClick={() => (isPlaying() ? stopPlaying() : playHistory())}>{isPlaying() ? '❚❚' : '▶'}</button>
          {historyStep !== null && <button type="button" onClick={() => useArbor.getState().setHistoryStep(null)}>Live</button>}
        </span>
      )}
      <span className="node-count">{props.nodeCount} node{props.nodeCount === 1 ? '' : 's'}</span>
    </div>
  );
}
