import { vFileCancel } from '../services/arbor-api.ts';
import { newDocument } from '../services/workbench.ts';
import { useArbor } from '../store/store.ts';
import { selectTreeSource } from '../store/ui-slice.ts';
import { selectProjectStatus, selectVFile } from '../store/vfile-slice.ts';

const baseName = (p: string): string => p.replace(/^.*[/\\]/, '');

/**
 * An opened `.v` file: its theorems, each read from the file's own sentences as Coq ran them; the chosen
 * one's derivation is in the tree pane, stepped through here (every tactic, the goals it acted on and made).
 * `▶ Convert` opens the theorem as an Arbor document (the declarations before it as one DEFINE, then
 * GOAL / APPLY / NEXT / END), which checks like any document.
 */
export function VFilePanel() {
  const v = useArbor(selectVFile);
  const source = useArbor(selectTreeSource);
  const project = useArbor(selectProjectStatus);
  const s = useArbor.getState;
  if (v.path === null) return <p className="muted">Open a <code>.v</code> file (Open…) to see its proofs as derivations.</p>;
  const report = v.report;
  const t = report?.theorems[v.theorem];
  const last = t ? t.steps.length - 1 : 0;
  const at = v.step === null ? last : Math.min(v.step, last);
  const step = t?.steps[at];
  return (
    <div className="vfile-panel" data-testid="vfile-panel">
      <div className="panel-toolbar">
        <strong>{baseName(v.path)}</strong>
        {v.loading && <span className="muted" data-testid="vfile-loading">running its sentences in the prover…</span>}
        {v.loading && <VFileProgressBar />}
        {report && <span className="muted">{report.theorems.length} theorem(s), {report.sentences} sentences, {(report.ms / 1000).toFixed(1)} s{report.project ? ' · with the project\'s load paths' : project && !project.trusted ? ' · project not trusted: its load paths were not used' : ''}</span>}
        <button type="button" onClick={() => s().setTreeSource(source === 'vfile' ? 'live' : 'vfile')} data-testid="vfile-toggle">{source === 'vfile' ? 'Show the document\'s tree' : 'Show this file\'s derivation'}</button>
      </div>
      {v.error && <p className="error" data-testid="vfile-error">{v.error}</p>}
      {report?.stopped && <p className={report.stopped.cancelled ? 'muted' : 'error'} data-testid="vfile-stopped">{report.stopped.cancelled ? `Cancelled at line ${report.stopped.line}: the theorems read before it are shown` : `Stopped at line ${report.stopped.line}: ${report.stopped.message}`}</p>}
      {report?.skipped && (
        <details className="vfile-skipped" data-testid="vfile-skipped">
          <summary>{report.skipped.length} sentence{report.skipped.length === 1 ? '' : 's'} not run (Arbor refuses {report.skipped.length === 1 ? 'it' : 'them'} in a read-only file; coqc would run {report.skipped.length === 1 ? 'it' : 'them'}): later theorems are marked</summary>
          <ul>{report.skipped.map((k) => <li key={k.line}>line {k.line}: <code>{k.text}</code> — {k.reason}</li>)}</ul>
        </details>
      )}
      {report && (
        <div className="vfile-body">
          <ul className="vfile-theorems" data-testid="vfile-theorems">
            {report.theorems.map((th, i) => (
              <li key={`${th.line}`} className={i === v.theorem ? 'active' : ''}>
                <button type="button" onClick={() => { s().selectVFileTheorem(i); s().setTreeSource('vfile'); }} data-testid="vfile-theorem" title={th.opener}>
                  {th.name ?? 'Goal'} <span className="muted">l. {th.line}–{th.endLine} · {th.steps.length - 1} steps · {th.ending}</span>
                  {th.readWithout && <span className="warning" data-testid="vfile-read-without" title="Read without sentences Arbor did not run: in coqc they ran, so its statement and proof may mean something else there"> · read without l. {th.readWithout.join(', ')}</span>}
                  {th.restsOn && <span className="error" data-testid="vfile-rests-on"> · rests on admitted {th.restsOn.map((r) => (r.line !== undefined ? `${r.name} (l. ${r.line})` : r.name)).join(', ')}</span>}
                </button>
                <button
                  type="button" data-testid="vfile-convert" disabled={!th.converted.ok}
                  title={th.converted.ok ? 'Open this theorem as an Arbor document (APPLY lines, NEXT/END)' : th.converted.reason}
                  onClick={() => { if (th.converted.ok) { newDocument(`${th.converted.lines.join('\n')}\n`); s().setTreeSource('live'); } }}
                >▶ Convert</button>
              </li>
            ))}
          </ul>
          {t && step && (
            <div className="vfile-steps" data-testid="vfile-steps">
              <div className="panel-toolbar">
                <button type="button" onClick={() => s().setVFileStep(Math.max(0, at - 1))} disabled={at === 0} data-testid="vfile-prev">◀</button>
                <input type="range" min={0} max={last} value={at} onChange={(e) => s().setVFileStep(Number(e.target.value))} data-testid="vfile-slider" aria-label="step" />
                <button type="button" onClick={() => s().setVFileStep(at >= last - 1 ? null : at + 1)} disabled={at === last} data-testid="vfile-next">▶</button>
                <span data-testid="vfile-step">step {at}/{last}</span>
              </div>
              <p className="vfile-command"><span className="muted">line {step.line}:</span> <code data-testid="vfile-command">{at === 0 ? t.opener : step.command}</code></p>
            </div>
          )}
        </div>
      )}
    </div>
  );
}

/** While a `.v` file is read: how far (sentence, line of the file's lines, theorems read) and Cancel (keeps what was read). */
function VFileProgressBar() {
  const p = useArbor((s) => s.vfile.progress);
  return (
    <span className="vfile-progress" data-testid="vfile-progress">
      <progress max={p?.judging ?? p?.lines ?? 1} value={p?.judging !== undefined ? p.judged ?? 0 : p?.line ?? 0} aria-label="reading the .v file" />
      <span className="muted" data-testid="vfile-progress-text">
        {p?.judging !== undefined ? `judging theorem ${(p.judged ?? 0) + 1} of ${p.judging} (its statement, what it rests on)` : p ? `sentence ${p.sentences} · line ${p.line} of ${p.lines} · ${p.theorems} theorem${p.theorems === 1 ? '' : 's'} read${p.lastTheorems.length > 0 ? ` (${p.lastTheorems.join(', ')})` : ''}${p.skipped ? ` · ${p.skipped} not run` : ''}` : 'starting the prover…'}
      </span>
      <button type="button" data-testid="vfile-cancel" title="Stop reading the file: the theorems read so far stay" onClick={() => { void vFileCancel(); }}>Cancel</button>
    </span>
  );
}
