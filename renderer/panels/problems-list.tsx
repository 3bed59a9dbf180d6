import { useState } from 'react';
import { counterexampleInError } from '../../shared/protocol/hammer-report.ts';
import type { HammerReport } from '../../shared/protocol/hammer-report.ts';
import { provedWording } from '../../shared/protocol/section-premises.ts';
import { hammerStageRows, summariseHammerFailure } from '../../shared/protocol/hammer-summary.ts';
import { revealLine } from '../editor/editor-pane.tsx';
import type { Problem } from '../store/problems.ts';
import { selectActiveProblems } from '../store/problems.ts';
import { useArbor } from '../store/store.ts';

/** A failed HAMMER as one line; its stages on demand. */
function HammerFailure({ report }: { report: HammerReport }) {
  const [open, setOpen] = useState(false);
  const rows = hammerStageRows(report);
  return (
    <div className="hammer-failure">
      <span data-testid="hammer-summary">{summariseHammerFailure(report)}</span>{' '}
      <button type="button" className="link" onClick={() => setOpen(!open)} data-testid="hammer-stages-toggle" aria-expanded={open}>
        {open ? 'hide the stages' : `${rows.length} stage${rows.length === 1 ? '' : 's'}…`}
      </button>
      {open && (
        <table className="hammer-stages" data-testid="hammer-stages">
          <tbody>
            {rows.map((r, i) => (
              <tr key={i} className={`stage-${r.outcome}`}><td><code>{r.what}</code></td><td>{r.outcome}</td><td>{r.time}</td><td className="muted">{r.detail ?? ''}</td></tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}

function Row({ p }: { p: Problem }) {
  const at = (
    <button type="button" className="link problem-line" onClick={() => revealLine(p.line)} title="Go to the line">line {p.line}</button>
  );
  if (p.kind === 'proved') {
    // Proved inside a section under its hypotheses: conditional, and said so (`Hypothesis H : False` proves anything).
    return (
      <li className={`problem proved${p.premises ? ' conditional' : ''}`} data-testid="problem" data-kind="proved" data-line={p.line} data-conditional={p.premises ? 'true' : undefined}>
        {p.premises ? '◐' : '✓'} {at} <code>{p.name}</code>: {provedWording(p.premises)}
      </li>
    );
  }
  const instance = counterexampleInError(p.message);
  return (
    <li className="problem error" data-testid="problem" data-kind="error" data-line={p.line}>
      ✗ {at}{' '}
      {p.hammer ? <HammerFailure report={p.hammer} /> : <span className="problem-text">{firstLines(p.message)}</span>}
      {instance !== undefined && (
        <div className="counterexample" data-testid="counterexample"><strong>The goal is false.</strong> Counterexample (checked by Coq): <code>{instance}</code></div>
      )}
    </li>
  );
}

/** Long prover errors: the first lines here; the editor's hover on the line has the whole text. */
const firstLines = (t: string): string => {
  const lines = t.split('\n');
  const head = lines.slice(0, 4).join('\n');
  return lines.length > 4 || head.length > 600 ? `${head.slice(0, 600)}…` : head;
};

/**
 * The active document's problems: its failing line (gone once the line is edited or checked past) and a
 * "proved" line per finished item — derived from the checking state, so never stale and never doubled.
 */
export function ProblemsList() {
  const problems = useArbor(selectActiveProblems);
  if (problems.length === 0) return null;
  return <ul className="problems-list" data-testid="problems">{problems.map((p) => <Row key={`${p.kind}:${p.line}`} p={p} />)}</ul>;
}
