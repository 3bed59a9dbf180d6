import type { DisplayStatus } from './display-status.ts';

/**
 * What every mark of the tree means, in one place: the workbench's legend and the exported SVG and
 * replay page say the same.
 */
export const STATUS_MEANING: Readonly<Record<DisplayStatus, string>> = {
  open: 'a goal still to prove',
  proved: 'a goal proved (✓), or a bundle whose goals are all proved; END has not removed it yet',
  failed: 'the last command on this goal failed (its error is on the box); in a replayed transcript, a request that failed, hung under the goal it was tried on',
  running: 'a command is running on this goal',
  bundle: 'a bundle: goals that must all be proved, grouped with the context they share (State view)',
  closed: 'a finished branch of the derivation: END removed its goal (drawn quieter than what is still to do)',
  abandoned: 'a branch a REVERT dropped in a replayed transcript, kept beside the path that replaced it',
  'given-up': 'a .v proof\'s goal given up (admit, give_up: Coq lists it as given up), or one resting on such a goal: not proved',
};

/** The other marks, as [mark, meaning]. */
export const MARK_MEANINGS: readonly (readonly [string, string])[] = [
  ['thick border', 'the current goal: the next command acts on it (dashed: the current bundle)'],
  ['✓ goal', 'the goal is proved'],
  ['black title', 'a goal new at this box (Derivation view)'],
  ['green title', 'a hypothesis that enters here, where the goal did not change (after HAVE, OBTAIN, intros)'],
  ['blue title a := t', 'a case of a split: the goal above with a replaced by t'],
  ['chips', 'the other hypotheses and variables that enter at this box, whole'],
  ['by …', 'the command that acted on this goal (END (tactic): what automation closed it with)'],
  ['uses …', 'the hypotheses that command used; select the box to see dashed arcs from where each entered'],
  ['below / beside', 'Derivation view: a goal\'s continuation is stacked below it, a HAVE\'s own proof and earlier cases beside it'],
  ['⋯ n closed steps', 'a run of closed one-goal steps summarised (double-click opens it)'],
  ['▸ n goals below', 'a collapsed branch (double-click opens it)'],
  ['✗ request', 'a failed request of a replayed transcript, with its error'],
  ['↶ reverted', 'the first command of a REVERTed branch'],
];
