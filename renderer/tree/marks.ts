import type { DisplayStatus } from '../../shared/tree-layout/display-status.ts';
import { DISPLAY_STATUSES, STATUS_STYLE } from '../../shared/tree-layout/display-status.ts';

/** What each colour of the tree means (the legend's tooltips and the help's table say the same). */
export const STATUS_MEANING: Readonly<Record<DisplayStatus, string>> = {
  open: 'open: a goal still to prove',
  proved: 'proved: the goal is proved (a proved leaf stays until END or NEXT takes it off; a finished proof is an empty bundle drawn proved)',
  failed: 'failed: the last command on this goal failed; its error (or counterexample) is on the box and in Messages',
  running: 'running: a command is running on this goal now',
  bundle: 'bundle: a group of goals that must all be proved (the seed\'s bundle: a tactic that made several goals made one)',
  closed: 'closed (Derivation view): a goal that was proved and taken off, kept to show how; drawn quieter than what is left to do',
};

/** Every other mark the tree, the editor and the panels draw. */
export const OTHER_MARKS: readonly { mark: string; meaning: string }[] = [
  { mark: 'thick border', meaning: 'the current goal: the next command acts on it' },
  { mark: 'dashed border', meaning: 'the current bundle (the current goal\'s parent), or a summary node standing for several closed steps' },
  { mark: 'chips on a box', meaning: 'the hypotheses and variables that enter at that node (the inspector lists the whole context)' },
  { mark: 'by APPLY … (box foot)', meaning: 'Derivation view: the command that acted on this goal; by END (…) names how a branch closed' },
  { mark: 'uses IH (box foot)', meaning: 'hypotheses the command used; select the node: a dashed arc runs from where each entered' },
  { mark: '⋯ 23 closed steps', meaning: 'a run of closed one-goal steps shown as one node; double-click opens it' },
  { mark: '▸ 17 goals below, all closed', meaning: 'a closed branch left folded; double-click opens it' },
  { mark: '✗ false: counterexample …', meaning: 'the goal is false: Coq checked the instance shown' },
  { mark: 'green editor margin', meaning: 'the checked region: those lines ran; editing one re-checks from there' },
  { mark: 'red line with ⟵ text', meaning: 'the line that failed and why; the problems list (Messages) has it until the line changes' },
  { mark: 'Goals panel: Before / After', meaning: 'the proof state before and after the command on the cursor\'s line (any checked line); dotted names show their type on hover' },
  { mark: '✓ line N name: proved', meaning: 'Messages: that item is proved; click the line number to go there' },
];

/** The colours with their meanings, for the help's table. */
export const STATUS_LEGEND: readonly { status: DisplayStatus; label: string; fill: string; stroke: string; meaning: string }[] = DISPLAY_STATUSES.map((st) => ({
  status: st, label: STATUS_STYLE[st].label, fill: STATUS_STYLE[st].fill, stroke: STATUS_STYLE[st].stroke,
  meaning: STATUS_MEANING[st].replace(/^[a-z]+( \(Derivation view\))?: /, ''),
}));
