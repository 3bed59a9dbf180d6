import type { OpenBlock } from './document-blocks.ts';
import type { CoqMessage, RawGoal } from './xml-protocol.ts';

/** The session's document on coqidetop: a log of the sentences sent after the preludes, in order. */
export interface LogEntry {
  /** As sent (with `Timeout`); replayed after a restart. */
  sentence: string;
  stateId: number;
  /** Set on the last sentence of each step: what a Checkpoint points at. */
  token?: object;
  /** The goals after that step, when small: REVERT to it then needs no `Goal` round trip. */
  goals?: { goals: RawGoal[]; shelved: number };
}

export interface CoqCheckpoint {
  token: object;
}

/** An item of the document in the log: a declaration, or a proof (open until its `Qed`). */
export interface LogItem {
  kind: 'define' | 'proof';
  /** Log length before its first sentence. */
  start: number;
  /** Log length after its last sentence (a proof's `Qed`); undefined while a proof is open. */
  end?: number;
  /** A proof's theorem name and statement. */
  name?: string;
  goal?: string;
  /** A declaration's: the sections and modules open after it (a later GOAL is stated inside them). */
  blocks?: OpenBlock[];
}

export type Attempt = { ok: true; goals: RawGoal[]; messages: CoqMessage[] } | { ok: false; error: unknown };
