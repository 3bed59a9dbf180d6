import { COQ_BLANK, coqFlat } from './coq-lexical.ts';
import { formatCommand } from './format-command.ts';
import type { ShellCommand } from './shell-command.ts';

/**
 * A `.v` theorem as an Arbor document item: the statement as `GOAL name "…"` (Coq's own type of the
 * theorem, binders generalised), the binders introduced again with the names the proof uses, each
 * tactic as an `APPLY` line, and a `NEXT` after each tactic that closed a goal (`END` after the last):
 * bullets and braces only move Coq's focus to the next goal, which is the goal Arbor works on anyway
 * (the leftmost open one). What cannot be said this way is refused with the reason.
 */

/** What the converter needs of a theorem (structurally `VTheorem` of shared/derivation/v-file-derivation.ts). */
export interface ConvertibleTheorem {
  name?: string;
  ending: string;
  tactics: readonly { tactic: string; line: number; acted: readonly string[]; made: readonly string[]; left: number; structural: boolean }[];
}

export interface ConvertInput {
  theorem: ConvertibleTheorem;
  /** The theorem's type as Coq prints it (`Check @name`), binders included. */
  statement: string;
  /** The names the proof's first goal has in scope that the statement binds (introduced first). */
  binders: readonly string[];
  /** Name for an anonymous `Goal`. */
  fallbackName?: string;
}

export type Converted = { ok: true; lines: string[] } | { ok: false; reason: string };

/** Goal selectors and commands that work on several goals at once or out of order: no single-goal APPLY says them. */
const MULTI_GOAL = /^(all|\d+(\s*-\s*\d+)?(\s*,\s*\d+(\s*-\s*\d+)?)*|par)\s*:|^(Focus|Unfocus|Unfocused|Unshelve|shelve|swap|cycle|revgoals|Grab)\b/;

/**
 * A tactic in parentheses, with a blank between a parenthesis and a `*` at either end: `(simpl in * )`, since
 * `(simpl in *)` would end a comment that never opened (as Coq reads it, and as the request parser does).
 */
export const inParentheses = (t: string): string => `(${t.startsWith('*') ? ' ' : ''}${t}${t.endsWith('*') ? ' ' : ''})`;

/**
 * A tactic as one APPLY request: whitespace folded, and in parentheses when it holds a `;` (requests end at `;`) or
 * starts or ends with a `*` (`simpl in *`: a bare one would be read as a comment delimiter once embedded).
 */
export const applyLine = (tactic: string): string => {
  const t = coqFlat(tactic);
  const wrap = (t.includes(';') && !(t.startsWith('(') && t.endsWith(')'))) || t.startsWith('*') || t.endsWith('*');
  return formatCommand({ name: 'APPLY', tactic: wrap ? inParentheses(t) : t });
};

/** A proof sentence without Coq's `Time` prefix (which only reports how long the sentence took). */
const TIME_PREFIX = new RegExp(`^[${COQ_BLANK}]*Time[${COQ_BLANK}]+`);
export const untimed = (sentence: string): string => sentence.replace(TIME_PREFIX, '');

/** What closes the proof's last goal, and what closes any other (seed 000: NEXT is END's synonym for subgoals). */
const LAST_CLOSE: ShellCommand = { name: 'END' };
const OTHER_CLOSE: ShellCommand = { name: 'NEXT' };

export function convertTheorem(input: ConvertInput): Converted {
  const t = input.theorem;
  if (t.ending !== 'Qed' && t.ending !== 'Defined') return { ok: false, reason: `the proof ends with ${t.ending === 'open' ? 'nothing (it is unfinished)' : t.ending}: only finished proofs convert` };
  const name = t.name ?? input.fallbackName ?? 'arbor_goal';
  const lines = [formatCommand({ name: 'GOAL', theoremName: name, expr: coqFlat(input.statement) })];
  if (input.binders.length > 0) lines.push(applyLine(`intros ${input.binders.join(' ')}`));
  for (const timed of t.tactics) {
    if (timed.structural) continue;
    // `Time tac.` runs `tac` and prints how long it took: the step is `tac` itself.
    const tac = { ...timed, tactic: untimed(timed.tactic) };
    if (MULTI_GOAL.test(tac.tactic)) return { ok: false, reason: `line ${tac.line}: '${tac.tactic}' works on several goals or out of order` };
    // `Fail tac` (Coq ran it: it failed, as the file expects) changes nothing and is no tactic to APPLY.
    if (tac.acted.length === 0 && tac.made.length === 0 && /^Fail\s/.test(tac.tactic)) continue;
    if (tac.acted.length === 0) {
      // No goal changed: a tactic that did nothing visible (`idtac`, a `Show`); it still runs as written.
      lines.push(applyLine(tac.tactic));
      continue;
    }
    if (tac.acted.length > 1) return { ok: false, reason: `line ${tac.line}: '${tac.tactic}' acted on ${tac.acted.length} goals at once` };
    lines.push(applyLine(tac.tactic));
    if (tac.made.length === 0) lines.push(formatCommand(tac.left === 0 ? LAST_CLOSE : OTHER_CLOSE));
  }
  if (lines.at(-1) !== formatCommand(LAST_CLOSE)) return { ok: false, reason: 'the proof did not close its last goal with a tactic' };
  return { ok: true, lines };
}

/** Coq sentences as one `DEFINE` request (declarations the converted items need), or none when empty. */
export const defineLine = (sentences: readonly string[]): string | undefined => {
  const text = sentences.map(coqFlat).filter(Boolean).join(' ');
  return text === '' ? undefined : formatCommand({ name: 'DEFINE', text });
};
