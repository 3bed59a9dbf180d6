import { useEffect, useState } from 'react';
import type { Settings } from '../../shared/api/api-contract.ts';
import { PROJECT_FILE_NAME } from '../../shared/project/project-file.ts';
import type { ProversReport } from '../../shared/settings/provers-report.ts';
import { BACKEND_TESTED } from '../../shared/settings/backend-tested.ts';
import { describeSandbox, SANDBOX_EXCEPTIONS } from '../../shared/settings/sandbox-status.ts';
import { validateSettingsPatch } from '../../shared/settings/prover-settings.ts';
import { detectProvers, getSettings, updateSettings } from '../services/arbor-api.ts';

/** `program`: names a program Arbor runs — the desktop app asks before storing it; the browser never stores it. */
const FIELDS: { key: string; label: string; placeholder: string; number?: boolean; wide?: boolean; program?: boolean }[] = [
  { key: 'lean.pantograph', label: 'Pantograph command', placeholder: 'pantograph-repl (or ARBOR_PANTOGRAPH)', program: true },
  { key: 'lean.imports', label: 'Lean imports', placeholder: 'Init (e.g. Init Mathlib)' },
  { key: 'lean.projectDir', label: 'Lake project directory', placeholder: '/absolute/path (optional)' },
  { key: 'lean.memoryMb', label: 'Memory cap (MB)', placeholder: '0 = no cap', number: true },
  { key: 'isabelle.address', label: 'Isa-REPL server address', placeholder: 'HOST:PORT of a running Isa-REPL server with Minilang (or ARBOR_ISABELLE_ADDRESS)' },
  { key: 'isabelle.server', label: 'Isa-REPL server command', placeholder: '/path/to/Isa-REPL/repl_server.sh (Arbor starts it; or ARBOR_ISABELLE_SERVER)', wide: true, program: true },
];

/** The toolbar's "Provers" button and the page it opens. */
export function ProversButton() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" title="Provers: what is installed, settings" onClick={() => setOpen(true)} data-testid="open-provers">Provers</button>
      {open && <ProversPage onClose={() => setOpen(false)} />}
    </>
  );
}

/**
 * Every backend: found or not, paths and versions, the exact fix for what is missing, what it has been
 * tested against; and the Lean/Isabelle settings, saved per user and used when the workbench starts.
 */
function ProversPage({ onClose }: { onClose: () => void }) {
  const [report, setReport] = useState<ProversReport | null>(null);
  const [form, setForm] = useState<Record<string, string>>({});
  const [saved, setSaved] = useState<Record<string, string>>({});
  const [status, setStatus] = useState<{ ok: boolean; text: string } | null>(null);
  const refresh = (): void => {
    detectProvers().then(setReport, (e: Error) => setStatus({ ok: false, text: e.message }));
  };
  useEffect(() => {
    refresh();
    getSettings().then((s) => {
      const values = Object.fromEntries(FIELDS.map((f) => [f.key, s[f.key] === undefined || s[f.key] === 0 ? '' : String(s[f.key])]));
      setForm(values);
      setSaved(values);
    }, () => undefined);
    const onKey = (e: KeyboardEvent): void => { if (e.key === 'Escape') onClose(); };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
  const save = (): void => {
    // Only what changed: a program setting the user did not touch is not re-submitted (and re-confirmed).
    const patch: Settings = {};
    for (const f of FIELDS) if ((form[f.key] ?? '') !== (saved[f.key] ?? '')) patch[f.key] = f.number ? Number(form[f.key] || 0) : (form[f.key] ?? '').trim();
    const valid = validateSettingsPatch(patch);
    if (!valid.ok) {
      setStatus({ ok: false, text: valid.error });
      return;
    }
    updateSettings(patch).then(() => {
      setSaved({ ...form });
      setStatus({ ok: true, text: 'Saved. Used when the workbench next starts a lean or isabelle shell (restart the workbench); detection below already uses them.' });
      refresh();
    }, (e: Error) => setStatus({ ok: false, text: e.message }));
  };
  return (
    <div className="dialog-backdrop" onClick={onClose}>
      <div className="dialog provers" role="dialog" aria-label="Provers" onClick={(e) => e.stopPropagation()} data-testid="provers-page">
        <header className="provers-head">
          <h3>Provers</h3>
          <button type="button" onClick={refresh}>Detect again</button>
          <button type="button" onClick={onClose} aria-label="close">×</button>
        </header>
        {report ? <ShellNote report={report} /> : <p className="muted">detecting…</p>}
        {report && <SandboxNote report={report} />}
        <div className="prover-cards">
          {report?.detections.map((d) => (
            <section key={d.backend} className={`prover-card ${d.found ? 'found' : 'missing'}`} data-testid={`prover-${d.backend}`}>
              <h4>{d.backend} <span className="prover-state" data-testid="prover-state">{d.found ? 'found' : 'not found'}</span>{report.shellBackend === d.backend && <span className="prover-active"> · this workbench</span>}</h4>
              <table>
                <tbody>
                  {d.tools.map((t) => (
                    <tr key={t.name}><td className="name">{t.name}</td><td className="path">{t.path ?? 'missing'}</td><td data-testid="prover-version">{t.version ?? ''}</td></tr>
                  ))}
                </tbody>
              </table>
              {d.missing.length > 0 && <ul className="prover-fixes">{d.missing.map((m) => <li key={m} data-testid="prover-fix">{m}</li>)}</ul>}
              <p className="prover-tested">{BACKEND_TESTED[d.backend] ?? ''}</p>
            </section>
          ))}
        </div>
        <h4>Lean and Isabelle settings (this user)</h4>
        <p className="muted">Programs to run (marked ⚠) are confirmed in a dialog in the desktop app; in the browser they are read only from your settings file or the environment (ARBOR_PANTOGRAPH, ARBOR_ISABELLE_SERVER), never set from this page.</p>
        <form className="prover-settings" onSubmit={(e) => { e.preventDefault(); save(); }}>
          {FIELDS.map((f) => (
            <label key={f.key} className={f.wide ? 'wide' : undefined}>
              <span>{f.label}{f.program ? ' ⚠' : ''}</span>
              <input
                type={f.number ? 'number' : 'text'} value={form[f.key] ?? ''} placeholder={f.placeholder} data-testid={`setting-${f.key}`}
                onChange={(e) => setForm({ ...form, [f.key]: e.target.value })}
              />
            </label>
          ))}
          <div className="prover-save">
            <button type="submit" data-testid="save-provers">Save</button>
            {status && <span className={`message ${status.ok ? 'info' : 'error'}`} data-testid="provers-status">{status.text}</span>}
          </div>
        </form>
      </div>
    </div>
  );
}

/** Whether provers run sandboxed; when they do not, said as a warning (never silently). */
function SandboxNote({ report }: { report: ProversReport }) {
  const on = report.sandbox.state === 'on';
  return (
    <p className={on ? 'muted' : 'message error'} data-testid="provers-sandbox">
      {describeSandbox(report.sandbox)}.{on ? ` Not covered: ${SANDBOX_EXCEPTIONS.join('; ')}.` : ' Turn it on: install bubblewrap (Linux) and unset ARBOR_SANDBOX.'}
    </p>
  );
}

function ShellNote({ report }: { report: ProversReport }) {
  const p = report.project;
  return (
    <p className="muted" data-testid="provers-shell-note">
      This workbench's shell runs one backend, chosen when it starts: <b>{report.shellBackend}</b>
      {p && !p.error ? ` (from ${p.path}${p.prelude ? ', with its prelude' : ''})` : ' (from the command line)'}.
      {p?.error ? ` ${p.error}: ignored.` : ''} To use another backend or prelude for a folder, put <code>{`{"backend": "lean", "prelude": "import Mathlib"}`}</code> in
      {' '}<code>{PROJECT_FILE_NAME}</code> in the workspace folder and restart the workbench.
      A project file in a subfolder gives its prelude to the documents opened from there; one naming another backend is refused with a message.
    </p>
  );
}
