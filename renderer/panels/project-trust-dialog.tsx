import { useEffect, useState } from 'react';
import type { ProjectTrustStatus } from '../../shared/api/project-trust.ts';
import { answerProjectTrust, projectTrustStatus } from '../services/arbor-api.ts';

/**
 * The web workbench's question about the workspace project's assumptions (issue 21). The page cannot prove
 * to the host that a person clicked, so trusting needs the one-time code Arbor printed on the terminal
 * where it runs (never sent to any page): the user types it here. Keeping them untrusted needs nothing.
 */
export function ProjectTrustDialog() {
  const [status, setStatus] = useState<ProjectTrustStatus | null>(null);
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    projectTrustStatus().then(setStatus, () => setStatus(null));
  }, []);
  if (status?.state !== 'asked') return null;
  const answer = (c: string | null): void => {
    answerProjectTrust(c).then((s) => { setStatus(s); setError(null); }, (e: unknown) => {
      setError((e as Error).message);
      projectTrustStatus().then(setStatus, () => undefined);
    });
  };
  return (
    <div className="dialog-backdrop">
      <div className="dialog project-trust-dialog" role="alertdialog" aria-modal="true" aria-labelledby="project-trust-title" data-testid="project-trust-dialog">
        <h3 id="project-trust-title">Trust the assumptions of this workspace's project file?</h3>
        <p><code>{status.path}</code> declares: <code>{status.assumptions.join(', ')}</code>. Proofs that use them are accepted as if they were proved only if you trust them.</p>
        <p>To trust them, type the code Arbor printed in the terminal where it runs.</p>
        <form onSubmit={(e) => { e.preventDefault(); answer(code); }}>
          <input aria-label="code" data-testid="project-trust-code" value={code} onChange={(e) => setCode(e.target.value)} autoComplete="off" maxLength={64} />
          {error && <p className="fidelity-error" data-testid="project-trust-error">{error}</p>}
          <div className="dialog-buttons">
            <button type="button" data-testid="project-trust-keep" onClick={() => answer(null)}>Keep them untrusted</button>
            <button type="submit" data-testid="project-trust-confirm" disabled={code.trim() === ''}>Trust these assumptions</button>
          </div>
        </form>
      </div>
    </div>
  );
}
