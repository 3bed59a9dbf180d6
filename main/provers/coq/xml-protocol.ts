import { coqTrim } from './coq-sentence.ts';
import { coqFlat } from '../../../shared/protocol/coq-lexical.ts';
import { child, elems, textOf, type XmlElement } from './xml-tree.ts';

/**
 * Coq 8.16's XML protocol (ide/coqide/protocol/xmlprotocol.ml): encoding of the calls Arbor uses and
 * decoding of their answers. Pure; the process plumbing is in coqidetop-client.ts.
 */

export const escapeXml = (s: string): string =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

const str = (s: string): string => `<string>${escapeXml(s)}</string>`;
const sid = (id: number): string => `<state_id val="${id}"/>`;

export const initCall = (): string => '<call val="Init"><option val="none"/></call>';

/** 8.16 shape: ((((sentence, edit_id), (state_id, verbose)), bp), (line_nb, bol_pos)). */
export const addCall = (sentence: string, tip: number): string =>
  `<call val="Add"><pair><pair><pair><pair>${str(sentence)}<int>0</int></pair>` +
  `<pair>${sid(tip)}<bool val="false"/></pair></pair><int>0</int></pair>` +
  '<pair><int>0</int><int>0</int></pair></pair></call>';

export const goalCall = (): string => '<call val="Goal"><unit/></call>';
export const editAtCall = (id: number): string => `<call val="Edit_at">${sid(id)}</call>`;
export const queryCall = (text: string, at: number): string =>
  `<call val="Query"><pair><route_id val="0"/><pair>${str(text)}${sid(at)}</pair></pair></call>`;
export const quitCall = (): string => '<call val="Quit"><unit/></call>';
/** Coq's version and build: answers `coq_info` (version, protocol version, release date, compile date). */
export const aboutCall = (): string => '<call val="About"><unit/></call>';
/** About's answer: the version and compile date, joined (one build of Coq, as a cache key). */
export const decodeAbout = (value: XmlElement): string => elems(child(value, 0, 'coq_info')).map(textOf).join(' ');
/**
 * Parse (never execute) the first sentence of `text` with the tip's parser state; Coq answers its
 * pretty-print (comments dropped), or a parse error. What decides where Coq's sentences end.
 */
export const annotateCall = (text: string): string => `<call val="Annotate">${str(text)}</call>`;
/** Annotate's answer: the sentence as Coq printed it ('' when `text` held only blanks and comments). */
export const decodeAnnotate = (value: XmlElement): string => ppText(value);

/**
 * The name Annotate's print starts with when Coq tagged it `constr.reference` (a tactic call to a name:
 * `RelInstance_t.`), else undefined. Commands print their head as untagged keyword text.
 */
export const decodeAnnotateHead = (value: XmlElement): string | undefined => {
  let e: XmlElement | undefined = value;
  // value > option/_ > pp: the print's first element, with no text before it.
  while (e && e.tag !== 'pp') e = elems(e)[0];
  if (!e) return undefined;
  const first = e.children.find((c) => typeof c !== 'string' || coqTrim(c) !== '');
  return typeof first === 'object' && first.tag === 'constr.reference' ? coqTrim(textOf(first)) : undefined;
};

/**
 * Text of a richpp (or any) element, Coq's layout blanks normalised (each run one space, none at the ends): a term's
 * line breaks are layout. Only the blanks Coq's lexer skips, and never inside a string literal (`"a  b"` is data):
 * every other character is kept, a no-break space (part of a name to Coq: `and P` is not `and`) and any other
 * Unicode space (JavaScript's `\s`) alike.
 */
export const ppText = (e: XmlElement): string => coqFlat(textOf(e));

/**
 * A message exactly as Coq printed it (line breaks kept, e.g. CoqHammer's reconstruction hint), without the
 * layout blanks around it; a no-break space stays (Coq's names may end with one: `Constant Top.x `).
 */
export const rawText = (e: XmlElement): string => textOf(e).replace(/^[ \t\r\n]+|[ \t\r\n]+$/g, '');

export interface CoqMessage {
  level: string;
  text: string;
}

/** The message inside a `<feedback>` element, if it carries one. */
export const feedbackMessage = (fb: XmlElement): CoqMessage | undefined => {
  const content = elems(fb).find((c) => c.tag === 'feedback_content');
  if (content?.attrs.val !== 'message') return undefined;
  const msg = elems(content).find((c) => c.tag === 'message');
  if (!msg) return undefined;
  const level = elems(msg).find((c) => c.tag === 'message_level')?.attrs.val ?? 'notice';
  const pp = elems(msg).find((c) => c.tag === 'richpp');
  return { level, text: pp ? rawText(pp) : '' };
};

/** One goal as coqidetop reports it: hypotheses still grouped (`n, m : nat`). */
export interface RawGoal {
  id: string;
  hyps: string[];
  goal: string;
  /** Put aside by `give_up`/`admit`: an open goal no tactic can reach and no proof can keep (Qed refuses). */
  givenUp?: true;
}

/** The goals of an open proof: the ones tactics work on, then the given-up ones; and how many are shelved. */
export interface GoalLists {
  goals: RawGoal[];
  /** Shelved goals (`shelve`, unresolved existential variables): open, but out of the tactics' reach until `Unshelve`. */
  shelved: number;
  /**
   * Every goal of the proof in order, unfocused ones included (a `.v` file's bullets and braces focus):
   * each background level is (goals before, goals after) the focus, innermost first.
   */
  all: RawGoal[];
  /** The shelved goals' identities (a `.v` file's `shelve` puts a goal aside: it is not closed). */
  shelvedIds: string[];
}

const decodeGoal = (g: XmlElement): RawGoal => ({
  id: textOf(child(g, 0, 'string')),
  hyps: elems(child(g, 1, 'list')).map(ppText),
  goal: ppText(child(g, 2, 'richpp')),
});

/**
 * `Goal` answers `option goals`; goals = (fg, bg, shelved, given_up). Arbor never focuses, so the
 * foreground list is what tactics work on. Shelved and given-up goals are open goals too — a proof that
 * ignored them could look finished — so they are reported: given-up goals after the foreground ones,
 * shelved ones counted (the session unshelves them once nothing else is left). `undefined`: no proof.
 */
export const decodeGoals = (value: XmlElement): GoalLists | undefined => {
  const opt = child(value, 0, 'option');
  if (opt.attrs.val !== 'some') return undefined;
  const goals = child(opt, 0, 'goals');
  const lists = elems(goals).filter((e) => e.tag === 'list');
  const fg = elems(lists[0] ?? child(goals, 0, 'list')).map(decodeGoal);
  const shelvedIds = lists[2] ? elems(lists[2]).map((g) => textOf(child(g, 0, 'string'))) : [];
  const shelved = shelvedIds.length;
  const givenUp = lists[3] ? elems(lists[3]).map((g): RawGoal => ({ ...decodeGoal(g), givenUp: true })) : [];
  let all = fg;
  for (const level of lists[1] ? elems(lists[1]) : []) {
    const [before, after] = elems(level);
    all = [...(before ? elems(before).map(decodeGoal) : []), ...all, ...(after ? elems(after).map(decodeGoal) : [])];
  }
  return { goals: [...fg, ...givenUp], shelved, all, shelvedIds };
};

export const decodeStateId = (e: XmlElement): number => Number(e.attrs.val);

/** Add answers (state_id, (unit + state_id)); the new state is the first component. */
export const decodeAdd = (value: XmlElement): number => decodeStateId(child(child(value, 0, 'pair'), 0, 'state_id'));

/** Edit_at answers unit (in_l) or a focus (in_r (start, (stop, tip))): return the new tip if given. */
export const decodeEditAt = (value: XmlElement): number | undefined => {
  const u = child(value, 0, 'union');
  if (u.attrs.val !== 'in_r') return undefined;
  const ids: number[] = [];
  const walk = (e: XmlElement): void => {
    if (e.tag === 'state_id') ids.push(decodeStateId(e));
    elems(e).forEach(walk);
  };
  walk(u);
  return ids.at(-1);
};

/** A failed call: `<value val="fail" loc_s loc_e><state_id/><richpp/></value>` (the location in bytes of the text, when Coq gives one). */
export const decodeFailure = (value: XmlElement): { message: string; stateId?: number; locEnd?: number } => {
  const parts = elems(value);
  const st = parts.find((p) => p.tag === 'state_id');
  const pp = parts.find((p) => p.tag === 'richpp');
  const locEnd = value.attrs.loc_e === undefined ? undefined : Number(value.attrs.loc_e);
  return { message: pp ? rawText(pp) : 'unknown error', ...(st ? { stateId: decodeStateId(st) } : {}), ...(locEnd !== undefined && Number.isInteger(locEnd) ? { locEnd } : {}) };
};
