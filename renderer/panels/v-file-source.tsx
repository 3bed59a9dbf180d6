import { useEffect, useRef } from 'react';
import { useArbor } from '../store/store.ts';
import { selectTreeSource } from '../store/ui-slice.ts';
import { selectVFile } from '../store/vfile-slice.ts';
import { vFileStepAtLine } from '../store/v-file-goals.ts';

/**
 * The opened `.v` file's text beside its derivation, read-only (it is never checked as an Arbor document):
 * the chosen theorem's lines are marked, the current step's line stands out and is scrolled into view.
 */
export function VFileSource() {
  const source = useArbor(selectTreeSource);
  const v = useArbor(selectVFile);
  const current = useRef<HTMLDivElement>(null);
  const t = v.report?.theorems[v.theorem];
  const last = t ? t.steps.length - 1 : 0;
  const at = v.step === null ? last : Math.min(v.step, last);
  const line = t?.steps[at]?.line ?? t?.line;
  useEffect(() => {
    current.current?.scrollIntoView({ block: 'nearest' });
  }, [line, v.theorem]);
  if (source !== 'vfile' || v.path === null) return null;
  // A click puts the cursor on a line: its theorem and the step at or above it (the Goals panel follows).
  const goToLine = (n: number): void => {
    const at = v.report ? vFileStepAtLine(v.report.theorems, n) : undefined;
    if (!at) return;
    const s = useArbor.getState();
    if (at.theorem !== v.theorem) s.selectVFileTheorem(at.theorem);
    s.setVFileStep(at.step);
  };
  return (
    <div className="vfile-source" data-testid="vfile-source" aria-label={`${v.path} (read-only)`}>
      <div className="vfile-source-title">{v.path.replace(/^.*[/\\]/, '')} <span className="muted">read-only · shown as derivations</span></div>
      <pre>
        {v.text.split('\n').map((text, i) => {
          const n = i + 1;
          const inTheorem = t !== undefined && n >= t.line && n <= t.endLine;
          const here = n === line;
          return (
            <div
              key={n} ref={here ? current : undefined} className={`vl${inTheorem ? ' in' : ''}${here ? ' here' : ''}`} data-testid={here ? 'vfile-current-line' : 'vfile-line'}
              data-line={n} onClick={() => goToLine(n)}
            >
              <span className="ln">{n}</span>{text || ' '}
            </div>
          );
        })}
      </pre>
    </div>
  );
}
