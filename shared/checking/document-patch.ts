import type { CheckedLine } from './checked-lines.ts';
import type { DocumentCheck, DocumentState } from './document-check.ts';

/**
 * How a document's checking state changed, as the host sends it to its clients: the checked lines change
 * only at their end (a line checked is appended, an edit or a step back drops a suffix), so a change is
 * "keep the first `keep` lines, then append these", plus the few small fields in full. A run-all of n lines
 * then sends O(n) bytes, not every checked line again with every change (O(n²)).
 */
export interface DocumentPatch {
  uri: string;
  client: string;
  version: number;
  /** Which of the host's sessions of this document (a document closed and opened again is a new one). */
  session: number;
  /** The state this patch makes, counted from 1 per session: a client applies patch n only to state n − 1. */
  seq: number;
  channel?: number;
  /** Checked lines of the previous state that stay (a prefix). */
  keep: number;
  /** Checked lines after them. */
  append: CheckedLine[];
  error?: DocumentCheck['error'];
  running?: DocumentCheck['running'];
  target?: number;
}

/** The patch that turns `before` (undefined: nothing yet) into `after`; checked lines compare by identity, then by value. */
export function diffDocumentState(before: DocumentState | undefined, after: DocumentState): DocumentPatch {
  const old = before?.check.entries ?? [];
  const now = after.check.entries;
  let keep = 0;
  // Every line of the prefix is compared (shared lines by identity, so this is cheap): equal ends and an
  // equal first line do not make the middle equal.
  const shorter = Math.min(old.length, now.length);
  while (keep < shorter && sameLine(old[keep] as CheckedLine, now[keep] as CheckedLine)) keep++;
  const patch: DocumentPatch = {
    uri: after.uri, client: after.client, version: after.version, session: after.session, seq: after.seq, keep, append: now.slice(keep),
  };
  if (after.channel !== undefined) patch.channel = after.channel;
  if (after.check.error !== undefined) patch.error = after.check.error;
  if (after.check.running !== undefined) patch.running = after.check.running;
  if (after.check.target !== undefined) patch.target = after.check.target;
  return patch;
}

/**
 * The state after `patch`, or undefined when the patch does not follow `state` (a missed patch, another
 * session): the client then asks for the whole state.
 */
export function applyDocumentPatch(state: DocumentState | undefined, patch: DocumentPatch): DocumentState | undefined {
  const base: DocumentState | undefined = state?.session === patch.session ? state : undefined;
  const seq = base?.seq ?? 0;
  if (patch.seq !== seq + 1) return undefined;
  const entries = base?.check.entries ?? [];
  if (patch.keep > entries.length) return undefined;
  const check: DocumentCheck = { entries: patch.keep === entries.length && patch.append.length === 0 ? entries : [...entries.slice(0, patch.keep), ...patch.append] };
  if (patch.error !== undefined) check.error = patch.error;
  if (patch.running !== undefined) check.running = patch.running;
  if (patch.target !== undefined) check.target = patch.target;
  const next: DocumentState = { uri: patch.uri, client: patch.client, version: patch.version, session: patch.session, seq: patch.seq, check };
  if (patch.channel !== undefined) next.channel = patch.channel;
  return next;
}

function sameLine(a: CheckedLine, b: CheckedLine): boolean {
  return a === b || (a.line === b.line && a.text === b.text && a.stepBefore === b.stepBefore && a.stepAfter === b.stepAfter);
}
