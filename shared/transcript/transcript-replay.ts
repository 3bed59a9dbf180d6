import type { DerivationStep } from '../derivation/derivation.ts';
import { commandAt } from '../protocol/commands.ts';
import { buildDerivation } from '../derivation/derivation.ts';
import { derivationToTreeView } from '../derivation/derivation-view.ts';
import { looksLikeState } from '../proof-tree/from-state-json.ts';
import type { Goal } from '../proof-tree/proof-state.ts';
import type { TreeView } from '../proof-tree/proof-tree.ts';
import type { TranscriptEntry } from './parse-transcript.ts';

/**
 * Replaying an agent's transcript as a debugger shows a session: every request is a stop (failures too),
 * each paired with its response; at each stop the derivation of the proof in progress, as it was then,
 * with the failed attempts on the goal they were tried on (red, with the error) and the REVERTed
 * branches kept beside the path that replaced them (abandoned). A proof dropped before END for another
 * GOAL is stepped through like any other; its stops say so.
 */

/** One request and its response: a stop of the replay. */
export interface ReplayStop {
  /** Index of the response entry (the cursor stands there), and of its request (-1 if unknown). */
  entry: number;
  request: number;
  channel: number;
  /** The request without its channel id. */
  command: string;
  err: string;
  step?: number;
  /** A step of a proof that was dropped before END for another GOAL. */
  abandoned?: true;
}

export interface ReplayFilter {
  failuresOnly?: boolean;
  channel?: number | null;
}

const stripChannel = (text: string): string => text.replace(/^\s*[0-9]+\s+/, '').trim();
const stopsCache = new WeakMap<readonly TranscriptEntry[], ReplayStop[]>();

/**
 * Pairs each response with its request: per channel in order (a channel answers in request order), so a
 * piped transcript that lists all requests before all responses pairs the same as an interleaved one.
 * `NEW_CHANNEL`'s answer (`{ID}`) is paired with the oldest pending NEW_CHANNEL and is no stop.
 */
export function replayStops(entries: readonly TranscriptEntry[]): ReplayStop[] {
  const cached = stopsCache.get(entries);
  if (cached) return cached;
  const pending = new Map<number, { text: string; index: number }[]>();
  const stops: ReplayStop[] = [];
  entries.forEach((e, index) => {
    if (e.kind === 'request') {
      const q = pending.get(e.channel) ?? [];
      q.push({ text: stripChannel(e.text), index });
      pending.set(e.channel, q);
      return;
    }
    const r = e.response;
    const q = pending.get(r.CHANNEL) ?? [];
    const isNewChannel = typeof r.RESPONSE === 'object' && r.RESPONSE !== null && 'ID' in r.RESPONSE;
    const at = isNewChannel ? q.findIndex((t) => /^NEW_CHANNEL\b/.test(t.text)) : q.findIndex((t) => !/^NEW_CHANNEL\b/.test(t.text));
    const [req] = at >= 0 ? q.splice(at, 1) : [undefined];
    if (isNewChannel) return;
    stops.push({ entry: index, request: req?.index ?? -1, channel: r.CHANNEL, command: req?.text ?? '(request not in the transcript)', err: r.ERR, ...(r.STEP !== undefined ? { step: r.STEP } : {}) });
  });
  // A proof is abandoned when its channel's next successful GOAL comes before an END finished it.
  const open = new Map<number, ReplayStop[]>();
  for (const s of stops) {
    const isGoal = /^GOAL\b/.test(s.command) && s.err === '';
    if (isGoal) {
      for (const dropped of open.get(s.channel) ?? []) dropped.abandoned = true;
      open.set(s.channel, []);
    }
    open.get(s.channel)?.push(s);
    const r = entries[s.entry];
    if (r?.kind === 'response' && s.err === '' && commandAt(s.command)?.closesGoal === true && Array.isArray((r.response.RESPONSE as { goal?: unknown } | null)?.goal) && ((r.response.RESPONSE as { goal: unknown[] }).goal.length === 0)) open.delete(s.channel);
  }
  stopsCache.set(entries, stops);
  return stops;
}

/** The stops a filter keeps (positions of the slider). */
export function filterStops(stops: readonly ReplayStop[], filter: ReplayFilter = {}): ReplayStop[] {
  return stops.filter((s) => (!filter.failuresOnly || s.err !== '') && (filter.channel === undefined || filter.channel === null || s.channel === filter.channel));
}

/** Ids of attempt nodes: far above any derivation node id (step · 2^20 + i). */
const ATTEMPT_BASE = 2 ** 44;

/**
 * The derivation of the proof in progress on `stop`'s channel as it was at that stop: failed attempts
 * hang under the goal they were tried on, REVERTed branches under the goal they had acted on.
 */
export function derivationAtStop(entries: readonly TranscriptEntry[], stop: ReplayStop): TreeView | null {
  const stops = replayStops(entries).filter((s) => s.channel === stop.channel && s.entry <= stop.entry);
  let proof: DerivationStep[] = [];
  /** Attempts to hang under a node (by node id), in the order they happened. */
  let attempts = new Map<number, TreeView[]>();
  const viewOf = (): TreeView | null => {
    if (proof.length === 0) return null;
    const { root } = buildDerivation(proof);
    return root ? withAttempts(derivationToTreeView(root), attempts) : null;
  };
  for (const s of stops) {
    const e = entries[s.entry];
    const response = e?.kind === 'response' ? e.response.RESPONSE : undefined;
    if (s.err !== '') {
      // A failure acts on nothing: it hangs under the current goal, red, with the error.
      const tree = viewOf();
      const current = tree ? findCurrent(tree) : undefined;
      if (current) {
        const list = attempts.get(current.id) ?? [];
        list.push({
          id: 2 * ATTEMPT_BASE + s.entry, kind: 'leaf', status: 'open', step: s.step ?? current.step, ctxt: { vars: [], hyps: [] },
          goal: current.goal ?? '', action: s.command, attempt: { kind: 'failed', error: s.err },
        });
        attempts.set(current.id, list);
      }
      continue;
    }
    if (s.step === undefined || !looksLikeState(response)) continue;
    if (/^GOAL\b/.test(s.command)) {
      proof = [];
      attempts = new Map();
    }
    if (/^REVERT\b/.test(s.command)) {
      const before = viewOf();
      const kept = proof.filter((p) => p.step <= (s.step as number));
      const dropped = proof.filter((p) => p.step > (s.step as number));
      proof = kept;
      const firstDropped = dropped[0];
      if (before && firstDropped) {
        // The goal the first dropped step acted on keeps that step's branch beside the new path, abandoned;
        // a dropped step that proved its goal (no branch to keep) hangs under the goal it is back to.
        const acted = findActedAt(before, firstDropped.step);
        const after = acted ? undefined : viewOf();
        const at = acted ?? (after ? findCurrent(after) : undefined);
        if (at) {
          const branch = acted
            ? markAbandoned({ ...acted, attempt: { kind: 'reverted' } }, s.entry)
            : markAbandoned({ id: at.id, kind: 'leaf', status: 'proved', step: at.step, ctxt: { vars: [], hyps: [] }, goal: at.goal ?? '', action: firstDropped.command, attempt: { kind: 'reverted' } }, s.entry);
          const list = attempts.get(at.id) ?? [];
          list.push(branch);
          attempts.set(at.id, list);
        }
      }
      continue;
    }
    while (proof.length > 0 && (proof[proof.length - 1] as DerivationStep).step >= s.step) proof.pop();
    proof.push({ step: s.step, command: s.command, state: response as Goal });
  }
  return viewOf();
}

function findCurrent(tree: TreeView): TreeView | undefined {
  if (tree.current === 'goal') return tree;
  for (const c of tree.children ?? []) {
    const f = findCurrent(c);
    if (f) return f;
  }
  return undefined;
}

/** The node whose action was taken at `step`. */
function findActedAt(tree: TreeView, step: number): TreeView | undefined {
  const kids = tree.children ?? [];
  if (tree.action !== undefined && !tree.attempt && kids.some((c) => c.step === step)) return tree;
  for (const c of kids) {
    const f = findActedAt(c, step);
    if (f) return f;
  }
  return undefined;
}

/** A copy of a branch with fresh ids (the new path reuses the step numbers), closed and not current. */
function markAbandoned(branch: TreeView, salt: number): TreeView {
  let k = 0;
  const copy = (n: TreeView): TreeView => {
    const { current: _current, ...rest } = n;
    const out: TreeView = { ...rest, id: ATTEMPT_BASE + salt * 4096 + ++k, status: 'proved', closed: true, attempt: n.attempt ?? { kind: 'reverted', inside: true } };
    if (n.children) out.children = n.children.map(copy);
    return out;
  };
  return copy(branch);
}

/** Hangs each node's attempts first among its children (the continuation stays last). */
function withAttempts(tree: TreeView, attempts: ReadonlyMap<number, TreeView[]>): TreeView {
  if (attempts.size === 0) return tree;
  const visit = (n: TreeView): TreeView => {
    const kids = (n.children ?? []).map(visit);
    const extra = attempts.get(n.id);
    const children = extra ? [...extra, ...kids] : kids;
    return children.length > 0 ? { ...n, children } : n;
  };
  return visit(tree);
}
