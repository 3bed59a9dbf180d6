import { useState } from 'react';
import { DISPLAY_STATUSES, STATUS_STYLE } from '../../shared/tree-layout/display-status.ts';
import type { DisplayStatus } from '../../shared/tree-layout/display-status.ts';
import { MARK_MEANINGS, STATUS_MEANING } from '../../shared/tree-layout/legend-text.ts';

/** Statuses each view can show. */
const SHOWN: Record<'state' | 'derivation', readonly DisplayStatus[]> = {
  state: DISPLAY_STATUSES.filter((s) => s !== 'closed' && s !== 'abandoned' && s !== 'given-up'),
  derivation: DISPLAY_STATUSES.filter((s) => s !== 'bundle'),
};

/** The tree's legend: the statuses' colours, each explained on hover, and every other mark on demand (?). */
export function TreeLegend({ mode }: { mode: 'state' | 'derivation' }) {
  const [open, setOpen] = useState(false);
  return (
    <div className="legend" aria-label="legend" data-testid="tree-legend">
      {SHOWN[mode].map((st) => (
        <span key={st} className="legend-item" title={STATUS_MEANING[st]}><i style={{ background: STATUS_STYLE[st].fill, borderColor: STATUS_STYLE[st].stroke }} />{STATUS_STYLE[st].label}</span>
      ))}
      <button type="button" className="legend-more" data-testid="legend-more" aria-expanded={open} title="What every mark means" onClick={() => setOpen(!open)}>?</button>
      {open && (
        <dl className="legend-details" data-testid="legend-details">
          {SHOWN[mode].map((st) => (
            <div key={st}><dt><i style={{ background: STATUS_STYLE[st].fill, borderColor: STATUS_STYLE[st].stroke }} />{STATUS_STYLE[st].label}</dt><dd>{STATUS_MEANING[st]}</dd></div>
          ))}
          {MARK_MEANINGS.map(([mark, meaning]) => <div key={mark}><dt>{mark}</dt><dd>{meaning}</dd></div>)}
        </dl>
      )}
    </div>
  );
}
