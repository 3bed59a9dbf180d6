import type { CheckedLine } from './checked-lines.ts';

/** Per document: the checked prefix (which line made which STEP), the failing line, the running line. */
export interface DocumentCheck {
  entries: CheckedLine[];
  error?: { line: number; message: string };
  running?: { line: number; since: number };
  /** Lines queued to be checked through (run to cursor / run all), for the progress view. */
  target?: number;
}

/** What the host tells its clients about one document after every change of its checking state. */
export interface DocumentState {
  uri: string;
  /** The client (window) whose document it is. */
  client: string;
  /** The text version the state belongs to (the last edit the host received). */
  version: number;
  /** Which of the host's sessions of this document (one per open; see DocumentPatch). */
  session: number;
  /** Counts the session's states from 1 (0: before the first); events carry each change as a patch. */
  seq: number;
  /** The shell channel the document is checked on (none before its first check). */
  channel?: number;
  check: DocumentCheck;
}

/** How a client asks the host to check its document. */
export type CheckAction =
  | { kind: 'forward' }
  | { kind: 'back' }
  | { kind: 'all' }
  /** Check through `line`, or retract to it when it is inside the checked region (run to cursor). */
  | { kind: 'to'; line: number }
  /** Check through `line` (never retracts). */
  | { kind: 'through'; line: number };
