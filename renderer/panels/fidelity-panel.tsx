import { useEffect, useState } from 'react';
import type { Evidence, FidelityReport } from '../../shared/fidelity/fidelity-types.ts';
import { TIER_DESCRIPTIONS, tierIds } from '../../shared/fidelity/fidelity-types.ts';
import { tokenDiff } from '../../shared/fidelity/token-diff.ts';
import { runFidelityCheck } from '../services/fidelity.ts';
import { selectActiveDocument } from '../store/documents-slice.ts';
import {
  selectActiveReference, selectFidelityError, selectFidelityForm, selectFidelityReport, selectFidelityRunningSince,
} from '../store/fidelity-slice.ts';
import { useArbor } from '../store/store.ts';

/** Seconds since `since`, ticking while a check runs (the host does not stream tier progress). */
function Elapsed({ since }: { since: number }) {
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), 250);
    return () => clearInterval(t);
  }, []);
  return <span>{((now - since) / 1000).toFixed(1)} s</span>;
}

/** Two normal forms side by side, the tokens that differ highlighted. */
function FormPair({ label, canonical, candidate }: { label: string; canonical: string; candidate: string }) {
  const d = tokenDiff(canonical, candidate);
  const side = (segs: typeof d.left, which: string) => (
    <code className="fidelity-form" data-testid={`fidelity-${label.toLowerCase()}-${which}`}>
      {segs.map((s, i) => <span key={i} className={s.same ? undefined : 'diff'}>{s.text}</span>)}
    </code>
  );
  return (
    <tr>
      <th>{label}</th>
      <td>{side(d.left, 'canonical')}</td>
      <td>{side(d.right, 'candidate')}</td>
    </tr>
  );
}

function EvidenceView({ ev }: { ev: Evidence }) {
  switch (ev.kind) {
    case 'normalisation':
      return <p>Same normal form ({ev.tier.toUpperCase()}){ev.classicalRules.length > 0 ? `, classical rewrites: ${ev.classicalRules.join(', ')}` : ''}: <code>{ev.form}</code></p>;
    case 'proof':
      return (
        <div>{ev.directions.map((d) => (
          <div key={d.direction}><span className="muted">proof {d.direction}</span><pre className="script">{d.script}</pre></div>
        ))}</div>
      );
    case 'counterexample':
      return (
        <div data-testid="fidelity-counterexample">
          <p><strong>Counterexample:</strong> {ev.canonicalHolds ? 'the canonical statement holds and the candidate fails' : 'the candidate holds and the canonical statement fails'}</p>
          {ev.model.length > 0 && <p>model: <code>{ev.model.map((m) => `${m.name} := ${m.value}`).join(', ')}</code></p>}
          {ev.instances.length > 0 && <p>instances: <code>{ev.instances.join(', ')}</code></p>}
          <details><summary className="muted">Coq-checked script</summary><pre className="script">{ev.coqScript}</pre></details>
        </div>
      );
    case 'truth-values':
      return (
        <div><p>{ev.summary}</p>{ev.proofs.map((p) => (
          <div key={p.statement}><span className="muted">{p.statement} {p.claim}</span><pre className="script">{p.script}</pre></div>
        ))}</div>
      );
    case 'unproved':
      return <p>Not proved: {ev.failed.join(', ') || '—'}{ev.proved.length > 0 ? `; proved: ${ev.proved.map((d) => d.direction).join(', ')}` : ''}</p>;
    case 'prover-error':
      return <p><span className="muted">prover ({ev.statement}):</span> <code className="fidelity-error">{ev.message}</code></p>;
  }
}

function ReportView({ r }: { r: FidelityReport }) {
  return (
    <div className="fidelity-report" data-testid="fidelity-report">
      <div className="fidelity-verdict">
        <span className={`verdict-badge ${r.verdict}`} data-testid="fidelity-verdict" data-verdict={r.verdict}>{r.verdict.replace('_', ' ')}</span>
        <span data-testid="fidelity-tier" title={r.tier ? TIER_DESCRIPTIONS[r.tier] : 'no tier could decide: see each tier below'}>{r.tier ? `tier ${r.tier}` : 'no tier decided'}</span>
        <span className="muted">{(r.ms / 1000).toFixed(1)} s</span>
      </div>
      <p className="fidelity-reason">{r.reason}</p>
      {(['canonical', 'candidate'] as const).map((k) => {
        const m = r.statements?.[k];
        return m ? (
          <div key={k} className="fidelity-meaning" data-testid={`fidelity-meaning-${k}`}>
            <strong>The {k} statement does not mean what its text says.</strong> As Coq elaborated it in the context: <code>{m.elaborated}</code>
            <br />In a clean environment: <code>{m.clean ?? 'it does not elaborate'}</code>
            <ul>{m.differences.map((d) => <li key={d}>{d}</li>)}</ul>
          </div>
        ) : null;
      })}
      <table className="fidelity-trace" data-testid="fidelity-trace">
        <tbody>{r.trace.map((t, i) => (
          <tr key={i} className={`outcome-${t.outcome}`}><td title={TIER_DESCRIPTIONS[t.tier]}>{t.tier}</td><td>{t.outcome}</td><td>{t.detail}</td><td className="muted">{t.ms} ms</td></tr>
        ))}</tbody>
      </table>
      <details className="fidelity-tiers" data-testid="fidelity-tier-legend">
        <summary>What the tiers mean</summary>
        <ul>{tierIds.map((t) => <li key={t}>{TIER_DESCRIPTIONS[t]}</li>)}</ul>
      </details>
      <table className="fidelity-forms">
        <thead><tr><th /><th>canonical</th><th>candidate</th></tr></thead>
        <tbody>
          <FormPair label="S0" canonical={r.normalised.s0.canonical} candidate={r.normalised.s0.candidate} />
          {r.normalised.s1 && <FormPair label="S1" canonical={r.normalised.s1.canonical} candidate={r.normalised.s1.candidate} />}
        </tbody>
      </table>
      {r.evidence && <div className="fidelity-evidence" data-testid="fidelity-evidence"><EvidenceView ev={r.evidence} /></div>}
    </div>
  );
}

/** The active document's reference statement: agents' suggested GOALs are checked against it. */
function ReferenceField() {
  const doc = useArbor(selectActiveDocument);
  const saved = useArbor(selectActiveReference);
  const [draft, setDraft] = useState(saved);
  useEffect(() => setDraft(saved), [saved, doc?.uri]);
  if (!doc) return null;
  const set = (text: string): void => useArbor.getState().setReference(doc.uri, text);
  return (
    <div className="fidelity-reference">
      <label htmlFor="fidelity-reference">Reference statement of {doc.title}</label>
      <div className="row">
        <input id="fidelity-reference" value={draft} onChange={(e) => setDraft(e.target.value)} placeholder="suggested GOALs are checked against it" data-testid="fidelity-reference" />
        <button type="button" onClick={() => set(draft)} disabled={draft === saved} data-testid="fidelity-reference-set">Set</button>
      </div>
    </div>
  );
}

/** The Fidelity tab: do two statements say the same? The verdict per tier, the normal forms, the evidence. */
export function FidelityPanel() {
  const form = useArbor(selectFidelityForm);
  const since = useArbor(selectFidelityRunningSince);
  const report = useArbor(selectFidelityReport);
  const error = useArbor(selectFidelityError);
  const set = useArbor.getState().setFidelityForm;
  return (
    <div className="fidelity-panel">
      <section className="fidelity-input">
        <label htmlFor="fidelity-canonical">Canonical</label>
        <textarea id="fidelity-canonical" rows={2} value={form.canonical} onChange={(e) => set({ canonical: e.target.value })} data-testid="fidelity-canonical" spellCheck={false} />
        <label htmlFor="fidelity-candidate">Candidate</label>
        <textarea id="fidelity-candidate" rows={2} value={form.candidate} onChange={(e) => set({ candidate: e.target.value })} data-testid="fidelity-candidate" spellCheck={false} />
        <label htmlFor="fidelity-context">Context <span className="muted">(optional: Variable, Definition, … both share)</span></label>
        <textarea id="fidelity-context" rows={1} value={form.context} onChange={(e) => set({ context: e.target.value })} data-testid="fidelity-context" spellCheck={false} />
        <div className="row">
          <select value={form.backend} onChange={(e) => set({ backend: e.target.value as 'coq' | 'lean' })} data-testid="fidelity-backend" aria-label="backend">
            <option value="coq">Coq</option>
            <option value="lean">Lean (S0/S1 only)</option>
          </select>
          <button type="button" onClick={() => void runFidelityCheck()} disabled={since !== null} data-testid="fidelity-run">{since !== null ? 'Checking…' : 'Run'}</button>
          {since !== null && <span className="fidelity-progress" data-testid="fidelity-progress"><span className="spinner" /> running the tiers… <Elapsed since={since} /></span>}
        </div>
        <ReferenceField />
      </section>
      <section className="fidelity-result">
        {error && <p className="fidelity-error" data-testid="fidelity-error">{error}</p>}
        {report ? <ReportView r={report} /> : !error && <p className="muted">Paste two statements and press Run: S0 and S1 normalisation, a type check, a Coq-checked counterexample search, then proofs of both directions (S3-lite, BEq+).</p>}
      </section>
    </div>
  );
}
