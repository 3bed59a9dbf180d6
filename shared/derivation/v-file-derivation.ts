import type { ContextEntry } from '../proof-tree/proof-state.ts';
import type { LeafNode, ProofTree, TreeView } from '../proof-tree/proof-tree.ts';
import type { RecordedStep, StepAct } from './recorded-derivation.ts';
import { buildRecordedDerivation } from './recorded-derivation.ts';
import { derivationToTreeView } from './derivation-view.ts';
import { coqFlat, coqTrim } from '../protocol/coq-lexical.ts';

/**
 * A `.v` file's proofs as derivations (what Paperproof shows for Lean, Prooftree did in Proof General):
 * the file's own sentences, as Coq delimited and ran them, each with every goal of the proof after it
 * (Coq's goal identities, unfocused goals included). Which goal a sentence acted on and which goals it made
 * is read from the identities — never from the tactic's text — and recorded in the engine's format
 * (`RecordedStep`), so the workbench's derivation view draws it like any document's.
 */

/** One goal as Coq reported it: its identity (an existential variable), conclusion and hypotheses. */
export interface VGoal {
  id: string;
  goal: string;
  context: ContextEntry[];
}

/** One sentence of the file as it ran. */
export interface VSentence {
  /** Exactly the text Coq delimited (comments included), and Coq's reprint of it (no comments). */
  text: string;
  pp: string;
  /** The name Coq's parse says the sentence starts with as a tactic call (`RelInstance_t.`), if it does. */
  tacticHead?: string;
  /**
   * The text without comments, blanks folded (`coqCode`): what the step shows and Convert writes. Coq's
   * reprint is not used for that: plugins' tactics may have no printer (`qauto missing printer`).
   */
  code: string;
  /** 1-based line of its first character. */
  line: number;
  /** Every goal of the open proof after it, in order; undefined outside a proof. */
  goals?: VGoal[];
  /**
   * Coq's given-up goals after it (`admit`, `give_up`: the Goals answer's given_up list), by identity; absent
   * when none. A goal that leaves the state this way is not proved, whatever the tactic's text.
   */
  givenUp?: string[];
  /**
   * Coq's shelved goals after it (`shelve`, an `eexists` witness), by identity; absent when none. A goal put
   * on the shelf is not closed: it is acted on only when it leaves the shelf without coming back into view.
   */
  shelved?: string[];
}

export type VEnding = 'Qed' | 'Defined' | 'Admitted' | 'Abort' | 'open';

/** One tactic sentence inside a proof and what it did to the goals. */
export interface VTactic {
  /** The sentence's index in the file's sentences. */
  index: number;
  /** Coq's reprint without the final `.` (comments gone). */
  tactic: string;
  line: number;
  /** Goals it acted on (removed) and made (new), by Coq's identities; both empty for bullets, braces, `Proof`. */
  acted: string[];
  made: string[];
  /** Goals it gave up (new in Coq's given-up list after it): made and given up inside it, or acted on. */
  gaveUp: string[];
  /** Goals still open after it. */
  left: number;
  /** A bullet, brace or `Proof …`: it only focuses. */
  structural: boolean;
}

export interface VTheorem {
  /** The theorem's name (`Goal` has none). */
  name?: string;
  /** The sentence that opened the proof (`Lemma foo : …`), as Coq reprinted it. */
  opener: string;
  /** Its index among the file's sentences, and the index of the sentence that ended it. */
  index: number;
  endIndex: number;
  line: number;
  endLine: number;
  ending: VEnding;
  /** The goal the proof started with. */
  start: VGoal;
  tactics: VTactic[];
}

const NAMED = /^(?:#\[[^\]]*\]\s*)*(?:(?:Local|Global|Polymorphic|Monomorphic|Program)\s+)*(?:Theorem|Lemma|Fact|Remark|Corollary|Proposition|Property|Example|Definition|Fixpoint|CoFixpoint|Instance|Let)\s+([\p{L}_][\p{L}\p{N}_']*)/u;
/** Sentences that only move the focus. */
const STRUCTURAL = /^(?:[-+*]+|\{|\}|Proof(?:\s.*)?|Proof\s+using.*|\d+\s*:\s*\{)$/su;

const ending = (pp: string): VEnding => {
  const w = /^\s*(\w+)/.exec(pp)?.[1] ?? '';
  return w === 'Qed' || w === 'Save' ? 'Qed' : w === 'Defined' ? 'Defined' : w === 'Admitted' ? 'Admitted' : w === 'Abort' ? 'Abort' : 'open';
};

const stripDot = (pp: string): string => coqTrim(coqTrim(pp).replace(/\.$/, ''));

/**
 * Coq text without its comments (nested; a string inside a comment is lexed as Coq does, so `"*)"` there
 * does not end it), Coq's blanks folded to one space outside strings. Only for text Coq already delimited as one sentence.
 */
export function coqCode(text: string): string {
  let out = '';
  let depth = 0;
  let i = 0;
  while (i < text.length) {
    if (text.startsWith('(*', i)) {
      depth++;
      i += 2;
      if (depth === 1) out += ' ';
    } else if (depth > 0 && text.startsWith('*)', i)) {
      depth--;
      i += 2;
    } else if (text[i] === '"') {
      // Strings: `""` is a quote inside one.
      let j = i + 1;
      for (;;) {
        const k = text.indexOf('"', j);
        if (k < 0) {
          j = text.length;
          break;
        }
        if (text[k + 1] === '"') j = k + 2;
        else {
          j = k + 1;
          break;
        }
      }
      if (depth === 0) out += text.slice(i, j);
      i = j;
    } else {
      if (depth === 0) out += text[i];
      i++;
    }
  }
  // Coq's blanks folded outside strings only: `"a  b"` is data, `and P` one name.
  return coqFlat(out);
}

/** The file's proofs: every stretch of sentences during which Coq had goals. */
export function theoremsOf(sentences: readonly VSentence[]): VTheorem[] {
  const out: VTheorem[] = [];
  let current: VTheorem | undefined;
  let before: VGoal[] | undefined;
  let givenUpBefore = new Set<string>();
  let shelvedBefore: string[] = [];
  // Goals the proof has shown (a shelved one among them was put aside; a witness Coq shelved never was).
  let shown = new Set<string>();
  sentences.forEach((s, index) => {
    if (before === undefined && s.goals !== undefined) {
      const start = s.goals[0];
      shown = new Set(s.goals.map((g) => g.id));
      if (start !== undefined) {
        const name = NAMED.exec(s.code)?.[1] ?? NAMED.exec(s.pp.trim())?.[1];
        current = { ...(name !== undefined ? { name } : {}), opener: stripDot(s.code), index, endIndex: index, line: s.line, endLine: s.line, ending: 'open', start, tactics: [] };
        out.push(current);
      }
    } else if (before !== undefined && current !== undefined) {
      if (s.goals === undefined) {
        current.ending = ending(s.code);
        current.endIndex = index;
        current.endLine = s.line;
        current = undefined;
      } else {
        // `shelve` only puts a goal aside: it was not acted on (drawn closed) while it stays on the shelf.
        const now = new Set([...s.goals.map((g) => g.id), ...(s.shelved ?? [])]);
        const was = new Set([...before.map((g) => g.id), ...shelvedBefore]);
        const acted = [...before.map((g) => g.id), ...shelvedBefore.filter((id) => shown.has(id))].filter((id) => !now.has(id));
        const made = s.goals.filter((g) => !was.has(g.id)).map((g) => g.id);
        for (const g of s.goals) shown.add(g.id);
        const tactic = stripDot(s.code);
        const gaveUp = (s.givenUp ?? []).filter((id) => !givenUpBefore.has(id));
        current.tactics.push({ index, tactic, line: s.line, acted, made, gaveUp, left: s.goals.length, structural: acted.length === 0 && made.length === 0 && STRUCTURAL.test(tactic) });
        current.endIndex = index;
        current.endLine = s.line;
      }
    }
    before = s.goals;
    shelvedBefore = s.goals === undefined ? [] : s.shelved ?? [];
    givenUpBefore = new Set(s.goals === undefined ? [] : s.givenUp ?? []);
  });
  return out;
}

/** The goals of a proof after each of its sentences, by identity (for the leaves of each step's tree). */
function goalsById(sentences: readonly VSentence[], t: VTheorem): Map<string, VGoal> {
  const m = new Map<string, VGoal>();
  for (let i = t.index; i <= t.endIndex; i++) for (const g of sentences[i]?.goals ?? []) if (!m.has(g.id)) m.set(g.id, g);
  return m;
}

/** The theorem's steps in the engine's record format: step 1 opens it; each act is one step. */
export function recordedSteps(sentences: readonly VSentence[], t: VTheorem): RecordedStep[] {
  const known = goalsById(sentences, t);
  const ids = new Map<string, number>();
  const idOf = (coqId: string): number => {
    let n = ids.get(coqId);
    if (n === undefined) ids.set(coqId, (n = ids.size + 1));
    return n;
  };
  const treeOf = (goals: readonly VGoal[]): ProofTree => {
    const leaves: LeafNode[] = goals.map((g) => ({ kind: 'leaf', id: idOf(g.id), status: 'open', context: g.context, goal: g.goal, step: 1 }));
    return { root: { kind: 'bundle', id: 0, children: leaves, step: 1 }, nextId: ids.size + 1 };
  };
  let step = 1;
  const out: RecordedStep[] = [{ step, tree: treeOf(sentences[t.index]?.goals ?? [t.start]), line: t.line }];
  for (const tac of t.tactics) {
    if (tac.acted.length === 0) continue;
    const after = sentences[tac.index]?.goals ?? [];
    // A goal given up inside the tactic (`split; [exact I | admit]`) was never reported: Coq does not say
    // which acted goal it came from, so every goal the tactic acted on is drawn given up (never proved).
    const unattributed = tac.gaveUp.some((id) => !tac.acted.includes(id));
    // A tactic that acted on several goals (`all: …`, `;` closing siblings) records one act per goal; the
    // new goals go to the first (Coq does not say which goal each came from).
    tac.acted.forEach((goal, k) => {
      const produced = k === 0 ? tac.made.map(idOf) : [];
      const gaveUp = unattributed || tac.gaveUp.includes(goal);
      const act: StepAct = { command: tac.tactic, leaf: idOf(goal), produced, ...(produced.length === 0 ? { removed: true as const } : {}), ...(gaveUp ? { gaveUp: true as const } : {}) };
      step++;
      const pending = tac.acted.slice(k + 1).map((id) => known.get(id)).filter((g): g is VGoal => g !== undefined);
      out.push({ step, tree: treeOf([...pending, ...after]), act, line: tac.line });
    });
  }
  return out;
}

/** One position of the step-through: the derivation after the first `upTo` acts. */
export interface VFileStep {
  /** The tactic of this step (the theorem's opener for step 0) and its line. */
  command: string;
  line: number;
  tree: TreeView;
}

/** The derivation drawn after each step (step 0: the goal alone; the last: the whole proof). */
export function derivationSteps(steps: readonly RecordedStep[]): VFileStep[] {
  const out: VFileStep[] = [];
  for (let k = 1; k <= steps.length; k++) {
    const d = buildRecordedDerivation(steps.slice(0, k));
    if (!d) continue;
    const s = steps[k - 1] as RecordedStep;
    out.push({ command: s.act?.command ?? 'goal', line: s.line ?? 0, tree: derivationToTreeView(d.root, d.currentKey) });
  }
  return out;
}

/** One theorem of an opened `.v` file, as the workbench receives it (`vfile.derivations`). */
export interface VFileTheoremReport {
  name?: string;
  opener: string;
  line: number;
  endLine: number;
  ending: VEnding;
  /** The derivation after each step (the step-through): step 0 is the goal alone. */
  steps: VFileStep[];
  /**
   * Admitted proofs of the file this theorem rests on (Coq's `Print Assumptions` names them), with their lines
   * when known (an anonymous `Goal`'s, a Program obligation's or a functor instance's constant has no line of its own).
   */
  restsOn?: { name: string; line?: number }[];
  /**
   * Lines of sentences before it that Arbor did not run (the read-only policy refused them; coqc would have
   * run them): its statement and proof were read without them, so what they mean here may differ from coqc.
   */
  readWithout?: number[];
  /** The theorem as an Arbor document (the declarations before it as one DEFINE, then the item), or why not. */
  converted: { ok: true; lines: string[] } | { ok: false; reason: string };
}

export interface VFileReport {
  theorems: VFileTheoremReport[];
  sentences: number;
  /** Where running stopped (a Coq error, a timeout, the run's limit, Cancel), if it did. */
  stopped?: { line: number; message: string; cancelled?: true };
  /** Sentences the read-only policy refused: not run, and running went on (each later theorem says so). */
  skipped?: VFileSkipped[];
  ms: number;
  /** The trusted project's load paths were used (false: none, or not trusted). */
  project?: boolean;
}

/** A sentence of a `.v` file Arbor did not run, and why. */
export interface VFileSkipped {
  line: number;
  /** The sentence's start, comments dropped. */
  text: string;
  reason: string;
}

/** How far a `.v` run is (sent to the workbench as the file is read: a 3,000-line file takes minutes). */
export interface VFileProgress {
  /** Sentences run so far, and the line of the last. */
  sentences: number;
  line: number;
  /** The file's lines. */
  lines: number;
  /** Theorems read to their end so far, and the last few names. */
  theorems: number;
  lastTheorems: string[];
  skipped?: number;
  /** After reading: theorems judged so far (statement, what each rests on) of `judging`. */
  judged?: number;
  judging?: number;
}
