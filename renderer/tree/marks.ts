import type { DisplayStatus } from '../../shared/tree-layout/display-status.ts';
import { DISPLAY_STATUSES, STATUS_STYLE } from '../../shared/tree-layout/display-status.ts';
import { MARK_MEANINGS, STATUS_MEANING } from '../../shared/tree-layout/legend-text.ts';

/** What each colour of the tree means: the one text the legend, the exported pages and the help share. */
export { STATUS_MEANING };

/** Every other mark: the tree's (shared with its legend), then the editor's and the panels'. */
export const OTHER_MARKS: readonly { mark: string; meaning: string }[] = [
  ...MARK_MEANINGS.map(([mark, meaning]) => ({ mark, meaning })),
  { mark: '✗ false: counterexample …', meaning: 'the goal is false: Coq checked the instance shown' },
  { mark: 'green editor margin', meaning: 'the checked region: those lines ran; editing one re-checks from there' },
  { mark: 'red line with ⟵ text', meaning: 'the line that failed and why; the problems list (Messages) has it until the line changes' },
  { mark: 'Goals panel: Before / After', meaning: 'the proof state before and after the command on the cursor\'s line (any checked line); dotted names show their type on hover' },
  { mark: '✓ line N name: proved', meaning: 'Messages: that item is proved; click the line number to go there' },
];

/** The colours with their meanings, for the help's table. */
export const STATUS_LEGEND: readonly { status: DisplayStatus; label: string; fill: string; stroke: string; meaning: string }[] = DISPLAY_STATUSES.map((st) => ({
  status: st, label: STATUS_STYLE[st].label, fill: STATUS_STYLE[st].fill, stroke: STATUS_STYLE[st].stroke,
  meaning: STATUS_MEANING[st],
}));
