import { useState } from 'react';
import * as api from '../services/arbor-api.ts';
import { useArbor } from '../store/store.ts';
import { selectProjectStatus } from '../store/vfile-slice.ts';

/**
 * The workspace's project files, until trusted: the `_CoqProject`'s load paths are not used and the
 * assumptions `arbor.project.json` declares are not accepted, and this says so. One grant covers both, and
 * the question shows all of it. Trusting is the user's: the desktop app asks in a native dialog; the web
 * workbench asks here, and the yes needs the code the host printed on its terminal (a page or agent holding
 * the token cannot trust by calling the API).
 */
export function ProjectTrustBanner() {
  const status = useArbor(selectProjectStatus);
  const [asking, setAsking] = useState(false);
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  if (!status) return null;
  const names = status.loadPaths.filter((l) => l.exists).map((l) => l.logical).join(', ') || 'none';
  const axioms = status.axioms.join(', ');
  const granted = [
    ...status.loadPaths.filter((l) => l.exists).map((l) => `-${l.kind} ${l.path} ${l.logical} (read-only)`),
    ...(status.args.length > 0 ? [`Coq options: ${status.args.join(' ')}`] : []),
    ...(status.axioms.length > 0 ? [`assumptions accepted as if proved: ${axioms}${status.projectFile ? ` (${status.projectFile})` : ''}`] : []),
  ];
  if (status.trusted) {
    return <div className="project-banner trusted" data-testid="project-trusted" title={granted.join('\n')}>Workspace trusted: load paths {names}{axioms ? `; assumptions ${axioms}` : ''} (provers started from now on use them){status.dune ? ` · ${status.dune}` : ''}</div>;
  }
  const set = (s: Awaited<ReturnType<typeof api.coqProject>>): void => useArbor.getState().setProjectStatus(s);
  return (
    <div className="project-banner" data-testid="project-untrusted">
      <span>This workspace is not trusted: {status.path ? <>its <code>_CoqProject</code>'s load paths ({names}) are not used</> : null}{status.path && axioms ? '; ' : ''}{axioms ? <>the assumptions its <code>arbor.project.json</code> declares ({axioms}) are not accepted</> : null}.</span>
      {status.ignored.length > 0 && <span className="muted" title={status.ignored.join('\n')}> {status.ignored.length} option(s) ignored.</span>}
      {!asking && (
        <button
          type="button" data-testid="project-trust"
          onClick={async () => {
            setError(null);
            try {
              const next = await api.requestProjectTrust();
              set(next);
              if (next && !next.trusted && next.confirm === 'terminal-code') setAsking(true);
            } catch (e) {
              setError((e as Error).message);
            }
          }}
        >Trust…</button>
      )}
      {asking && (
        <form
          className="trust-code"
          onSubmit={async (e) => {
            e.preventDefault();
            try {
              set(await api.trustProject(code));
              setAsking(false);
              setCode('');
            } catch (err) {
              setError((err as Error).message);
            }
          }}
        >
          <ul className="trust-grants" data-testid="project-grants">{granted.map((g) => <li key={g}>{g}</li>)}</ul>
          <label>Type the code printed in the terminal where Arbor runs:{' '}
            <input value={code} onChange={(e) => setCode(e.target.value)} inputMode="numeric" maxLength={6} size={8} data-testid="project-code" autoFocus />
          </label>
          <button type="submit" data-testid="project-code-ok">Trust this project</button>
          <button type="button" onClick={() => setAsking(false)}>Cancel</button>
        </form>
      )}
      {error && <span className="error" data-testid="project-error"> {error}</span>}
    </div>
  );
}
