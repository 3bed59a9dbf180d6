import type { EditRecord, Suggestion } from '../../shared/agent/agent-types.ts';
import { staleReason, suggestionLine } from '../../shared/agent/suggestion-placement.ts';
import { selectActiveCheck } from '../store/checking-slice.ts';
import { acceptSuggestion, rejectSuggestion, suggestForCurrentGoal } from '../services/agent.ts';
import { useArbor } from '../store/store.ts';
import {
  selectEditHistory, selectHiddenInvalidCount, selectMcpInfo, selectShowInvalid, selectShownSuggestions, selectSuggesting, selectSuggestionBusy,
} from '../store/suggestions-slice.ts';

/** `agent:NAME` → NAME (an MCP client), `source:NAME` → NAME (a built-in source). */
function sourceTag(from: string): { kind: 'agent' | 'builtin' | 'user'; name: string } {
  if (from.startsWith('agent:')) return { kind: 'agent', name: from.slice(6) };
  if (from.startsWith('source:')) return { kind: 'builtin', name: from.slice(7) };
  return { kind: 'user', name: from };
}

function SourceTag({ from }: { from: string }) {
  const tag = sourceTag(from);
  return <span className={`source-tag ${tag.kind}`} data-testid="suggestion-source" title={from}>{tag.name}</span>;
}

const LABELS: Record<Suggestion['label'], string> = { closes_goal: 'closes goal', closes_goal_different_meaning: 'closes goal (statement means something else)', progress: 'progress', valid: 'valid', invalid: 'invalid' };

function SuggestionItem({ s, busy }: { s: Suggestion; busy: boolean }) {
  const e = s.edit;
  const check = useArbor(selectActiveCheck);
  const stale = staleReason(check.entries ?? [], s);
  return (
    <li className={`suggestion label-${s.label}`} data-testid="suggestion" data-id={s.id}>
      <div className="suggestion-head">
        <SourceTag from={s.from} />
        <span className={`label-badge ${s.label}`} data-testid="suggestion-label" data-label={s.label}>{LABELS[s.label]}</span>
        {s.fidelity && (
          <span className={`fidelity-badge ${s.fidelity.verdict}`} data-testid="suggestion-fidelity" data-verdict={s.fidelity.verdict}
            title={`against the reference statement: ${s.fidelity.reason}`}>
            reference: {s.fidelity.verdict.replace('_', ' ')}{s.fidelity.tier ? ` (${s.fidelity.tier})` : ''}
          </span>
        )}
        <span className="muted">#{s.id}</span>
        {s.estimate !== undefined && <span className="estimate-badge" data-testid="suggestion-estimate" title="the advisor's estimate of the steps left after this">d ≈ {s.estimate.toFixed(2)}</span>}
        <span className="spacer" />
        {stale && <span className="stale-badge" data-testid="suggestion-stale" title={stale}>stale</span>}
        <button type="button" disabled={busy || stale !== undefined} title={stale ? `Stale: ${stale}` : undefined} onClick={() => void acceptSuggestion(s.id)} data-testid="accept">{busy ? 'Checking…' : 'Accept'}</button>
        <button type="button" disabled={busy} onClick={() => void rejectSuggestion(s.id)} data-testid="reject">Reject</button>
      </div>
      {e.kind === 'hypothesis-edit' ? (
        <div className="suggestion-edit">
          <code>{e.hypothesisName} : {e.originalValue}</code> <span className="arrow">→</span> <code>{e.hypothesisName} : {e.suggestedValue}</code>
        </div>
      ) : null}
      <div className="suggestion-apply" title="what Accept writes into the script">
        {e.kind === 'hypothesis-edit' ? 'as ' : ''}<code data-testid="suggestion-line">{suggestionLine(s)}</code>
      </div>
      {s.label === 'progress' && s.subgoals && (
        <ul className="subgoals" data-testid="suggestion-subgoals">
          {s.subgoals.map((g, i) => <li key={i}><code>{g}</code></li>)}
        </ul>
      )}
      {s.error && <div className="suggestion-error">{s.error}</div>}
      {s.reason && <div className="muted suggestion-reason">{s.reason}</div>}
    </li>
  );
}

function HistoryItem({ r }: { r: EditRecord }) {
  return (
    <li className={`history-entry ${r.outcome}`} data-testid="history-entry" data-outcome={r.outcome}>
      <span className="muted">{new Date(r.time).toLocaleTimeString()}</span> <SourceTag from={r.source} />{' '}
      <span className={`outcome ${r.outcome}`}>{r.outcome}</span>
      <div><code>{r.lhs}</code> <span className="arrow">→</span> <code>{r.rhs}</code></div>
    </li>
  );
}

/** The suggestion panel: labelled suggestions from agents and built-in sources, accept/reject, the edit history. */
export function SuggestionsPanel() {
  const list = useArbor(selectShownSuggestions);
  const hidden = useArbor(selectHiddenInvalidCount);
  const showInvalid = useArbor(selectShowInvalid);
  const suggesting = useArbor(selectSuggesting);
  const busy = useArbor(selectSuggestionBusy);
  const history = useArbor(selectEditHistory);
  const mcp = useArbor(selectMcpInfo);
  return (
    <div className="suggestions-panel">
      <section className="suggestion-list">
        <div className="suggestion-toolbar">
          <button type="button" onClick={() => void suggestForCurrentGoal()} disabled={suggesting} data-testid="suggest"
            title="Try the hammer portfolio and quick tactics on the current goal (offline, on copies of the proof)">
            {suggesting ? 'Suggesting…' : 'Suggest'}
          </button>
          <label className="muted">
            <input type="checkbox" checked={showInvalid} onChange={(e) => useArbor.getState().setShowInvalid(e.target.checked)} data-testid="show-invalid" />
            {' '}show invalid{hidden > 0 ? ` (${hidden} hidden)` : ''}
          </label>
          <span className="spacer" />
          {mcp && <span className="muted mcp-info" title={`Authorization: Bearer ${mcp.token}`}>agents: <code>{mcp.url}</code></span>}
        </div>
        {list.length === 0
          ? <p className="muted">No suggestions. Press Suggest, or connect an agent over MCP (URL above; the token was printed at start).</p>
          : <ul>{list.map((s) => <SuggestionItem key={s.id} s={s} busy={busy.includes(s.id)} />)}</ul>}
      </section>
      <section className="edit-history" data-testid="edit-history">
        <h4>Edit history</h4>
        {history.length === 0 ? <p className="muted">No edits yet.</p> : <ul>{[...history].reverse().map((r, i) => <HistoryItem key={i} r={r} />)}</ul>}
      </section>
    </div>
  );
}
