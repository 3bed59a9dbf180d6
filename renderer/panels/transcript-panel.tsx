import { useEffect, useRef } from 'react';
import type { TranscriptEntry } from '../../shared/transcript/parse-transcript.ts';
import { responseSummary } from '../../shared/transcript/response-summary.ts';
import { selectLiveTranscript, selectLoadedTranscript } from '../store/transcript-slice.ts';
import { useArbor } from '../store/store.ts';
import { selectTreeSource } from '../store/ui-slice.ts';
import { loadTranscriptText } from '../services/workbench.ts';

function Row({ e, active, onClick }: { e: TranscriptEntry; active?: boolean; onClick?: () => void }) {
  if (e.kind === 'request') {
    return <li className={`tx request${active ? ' active' : ''}`} onClick={onClick} data-testid="tx-request">▸ {/^\s*\d+\s/.test(e.text) ? e.text : `${e.channel} ${e.text}`}</li>;
  }
  const r = e.response;
  return (
    <li className={`tx response${r.ERR ? ' error' : ''}${active ? ' active' : ''}`} onClick={onClick}>
      ◂ {r.CHANNEL} {responseSummary(r)}
    </li>
  );
}

/**
 * The live transcript of this session, or a `--transcript` JSONL file stepped through without a prover
 * (the tree shows the state at the cursor).
 */
export function TranscriptPanel() {
  const live = useArbor(selectLiveTranscript);
  const loaded = useArbor(selectLoadedTranscript);
  const source = useArbor(selectTreeSource);
  const file = useRef<HTMLInputElement>(null);
  const list = useRef<HTMLOListElement>(null);
  const s = useArbor.getState;
  // Follow the newest live entry (the panel body is the scroll container).
  useEffect(() => {
    const body = list.current?.parentElement?.parentElement;
    if (!loaded && body) body.scrollTop = body.scrollHeight;
  }, [live.length, loaded]);
  return (
    <div className="transcript-panel">
      <div className="panel-toolbar">
        <button type="button" onClick={() => file.current?.click()} data-testid="open-transcript">Open transcript…</button>
        <input
          ref={file} type="file" accept=".jsonl,.json,.txt" hidden data-testid="transcript-file"
          onChange={async (ev) => {
            const f = ev.target.files?.[0];
            if (f) await loadTranscriptText(f.name, await f.text());
            ev.target.value = '';
          }}
        />
        {loaded && (
          <>
            <span className="muted tx-name" title={loaded.name}>{loaded.name}</span>
            <span className="muted tx-count">{loaded.cursor + 1}/{loaded.entries.length}</span>
            <button type="button" onClick={() => s().setTranscriptCursor(loaded.cursor - 1)} data-testid="tx-prev">◀</button>
            <button type="button" onClick={() => s().setTranscriptCursor(loaded.cursor + 1)} data-testid="tx-next">▶</button>
            <input type="range" min={0} max={Math.max(0, loaded.entries.length - 1)} value={loaded.cursor} onChange={(e) => s().setTranscriptCursor(Number(e.target.value))} />
            <button type="button" onClick={() => s().setTreeSource(source === 'transcript' ? 'live' : 'transcript')}>{source === 'transcript' ? 'Show live tree' : 'Show transcript tree'}</button>
            <button type="button" onClick={() => { s().closeTranscript(); s().setTreeSource('live'); }}>Close</button>
          </>
        )}
      </div>
      <ol ref={list} className="tx-list" data-testid={loaded ? 'loaded-transcript' : 'live-transcript'}>
        {loaded
          ? loaded.entries.map((e, i) => <Row key={i} e={e} active={i === loaded.cursor} onClick={() => s().setTranscriptCursor(i)} />)
          : live.slice(-400).map((e, i) => <Row key={i} e={e} />)}
      </ol>
    </div>
  );
}
