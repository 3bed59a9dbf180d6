import type { CheckedLine } from '../../shared/checking/checked-lines.ts';
import { changedLines, commandLinesBetween, firstStaleLine, recheckTarget, retractFrom } from '../../shared/checking/checked-lines.ts';
import type { CheckAction, DocumentCheck, DocumentState } from '../../shared/checking/document-check.ts';
import type { DocumentPatch } from '../../shared/checking/document-patch.ts';
import { diffDocumentState } from '../../shared/checking/document-patch.ts';
import type { ParsedLine } from '../../shared/checking/parsed-line.ts';
import { parseLine, parseLines } from '../../shared/checking/parsed-line.ts';
import type { ShellResponse } from '../../shared/protocol/shell-command.ts';
import { DOCUMENT_COMMANDS } from '../../shared/protocol/commands.ts';
import type { ReplayPlan } from '../agent/script-tracker.ts';
import { parseRequest } from '../../shared/protocol/parse-request.ts';
import { quoteArgument } from '../../shared/protocol/quote-argument.ts';
import { splitRequests } from '../../shared/protocol/split-requests.ts';
import type { CommandResult } from '../shell/command-result.ts';
import { failure, toShellResponse } from '../shell/command-result.ts';
import type { Shell } from '../shell/shell.ts';
import { coqTrim } from '../../shared/protocol/coq-lexical.ts';

/** What documents need of the shell: its typed API (parsed commands in, typed results out; no protocol text). */
export type DocumentShell = Pick<Shell, 'openChannel' | 'run' | 'cancel' | 'release'>;

export interface DocumentSessionsOptions {
  shell: DocumentShell;
  /** The PRELUDE a new channel gets for a document at `path` (its folder's project file); throws to refuse checking. */
  prelude?: (path: string | undefined) => Promise<string | undefined>;
  /** Every change of a document's checking state, and messages about it, for the clients. */
  emit: (event: DocumentEvent) => void;
  /** How long typing must pause before an edited region is re-checked. */
  recheckDelayMs?: number;
  /** A document got a new channel; called before the channel's first request. */
  onChannel?: (channel: number) => void;
  /**
   * Forks a channel's state after `step` onto a channel of its own (a state handle adopted by a warm prover,
   * state-forks.ts). Absent: a fork replays the checked requests on a new channel.
   */
  fork?: (channel: number, step: number) => Promise<{ channel: number; step: number }>;
}

export type DocumentEvent =
  /** What changed in a document's checking state (clients keep the state and apply each patch in turn). */
  | { kind: 'document'; patch: DocumentPatch }
  | { kind: 'document-message'; uri: string; client: string; level: 'info' | 'error'; text: string }
  | { kind: 'document-insert'; id: number; uri: string; client: string; afterLine: number; text: string; source: string };

/** How long a client's command waits for the editor to insert and check it (a HAMMER line included). */
const INSERT_TIMEOUT_MS = 15 * 60_000;

interface DocumentSession {
  uri: string;
  client: string;
  path?: string;
  version: number;
  /** See DocumentState.session and .seq. */
  session: number;
  seq: number;
  /** The last state sent to the clients, to send the next as a change of it. */
  sent?: DocumentState;
  lines: string[];
  /** Every line parsed once, at sync (a line whose text did not change keeps its parse). */
  parsed: ParsedLine[];
  check: DocumentCheck;
  /** Each checked line's parsed requests: what a replay or a fork runs again, without parsing it again. */
  requestsOf: WeakMap<CheckedLine, ParsedLine>;
  channel?: number;
  queue: Promise<void>;
  generation: number;
  recheckTimer?: ReturnType<typeof setTimeout>;
  pendingTarget?: number;
  /** While a replay runs (its lines checked again from their kept parse, not from the text): the last line it restores. */
  replayEnd?: number;
  closed: boolean;
  /** Other clients' commands run one at a time, each after the previous one's line is in and checked. */
  clientQueue: Promise<unknown>;
  /** The results of the line checked last (what another client's command gets back). */
  lastLine?: { line: number; text: string; results: CommandResult[] };
  /** The prelude the channel was opened with (a fork is opened with the same), and its `PRELUDE` request for replay plans. */
  prelude?: { text: string; request: string };
  /** Scratch copies of the document's state (`fork`): released with the document. */
  forks: Set<number>;
}

/** A scratch copy of a document's checked state: its own channel, at `step`, holding lines 1..`line`. */
export interface DocumentFork {
  channel: number;
  step: number;
  line: number;
}


interface PendingInsert {
  doc: DocumentSession;
  resolve: (answer: { line?: number; refused?: string }) => void;
}

const EMPTY: DocumentCheck = { entries: [] };

/**
 * The documents of the workbench, owned by the host (as coq-lsp owns its documents): each has its text
 * (as its editor last sent it, with a version), its channel, and Proof-General-style checking state — the
 * checked region is a prefix of the document; every command line in it is recorded with the steps before
 * and after it, so an edit at line k sends one `REVERT` to the step before k and re-sends only lines ≥ k.
 * Clients (the editor) send edits and ask for checking; they never write or read protocol text.
 * Operations on one document run one after another; an edit or cancel stops a running sequence after its
 * current command (`generation`), and an edit above the running command stops that command at once.
 */
export class DocumentSessions {
  private readonly docs = new Map<string, DocumentSession>();
  private readonly inserts = new Map<number, PendingInsert>();
  private nextInsert = 1;
  private nextSession = 1;

  constructor(private readonly options: DocumentSessionsOptions) {}

  /** The editor's text at `version`; `edit` says where it changed (absent when the document is opened or replaced). */
  sync(client: string, uri: string, params: { version: number; text: string; path?: string; edit?: { firstLine: number; lineDelta: number } }): DocumentState {
    const key = keyOf(client, uri);
    let doc = this.docs.get(key);
    if (!doc) {
      const lines = params.text.split(/\r?\n/);
      doc = {
        uri, client, version: params.version, session: this.nextSession++, seq: 0, lines, parsed: parseLines(lines), check: { ...EMPTY }, requestsOf: new WeakMap(),
        queue: Promise.resolve(), generation: 0, closed: false, clientQueue: Promise.resolve(), forks: new Set(),
      };
      if (params.path !== undefined) doc.path = params.path;
      this.docs.set(key, doc);
      this.publish(doc);
      return this.state(doc);
    }
    // An older version arriving late never replaces a newer text.
    if (params.version < doc.version) return this.state(doc);
    doc.version = params.version;
    const before = doc.lines;
    doc.lines = params.text.split(/\r?\n/);
    doc.parsed = parseLines(doc.lines, doc.parsed);
    // Another path may be another project (its prelude): everything is checked again.
    const moved = params.path !== undefined && params.path !== doc.path;
    if (params.path !== undefined) doc.path = params.path;
    // A whole text without its edit keeps what it did not change: checked lines above the first changed one stay.
    // A new path wins over any edit (Save As into another project, then a key typed): nothing checked stays.
    const edit = moved ? { firstLine: 1, lineDelta: 0 } : params.edit ?? changedLines(before, doc.lines);
    if (edit !== undefined) void this.edited(doc, edit.firstLine, edit.lineDelta);
    return this.state(doc);
  }

  /** Runs a check action; resolves when it is done, with the document's state then. */
  async run(client: string, uri: string, action: CheckAction): Promise<DocumentState> {
    const doc = this.require(client, uri);
    switch (action.kind) {
      case 'forward': {
        const next = commandLinesBetween(doc.lines, this.checkedEnd(doc) + 1, doc.lines.length)[0];
        if (next !== undefined) await this.checkThrough(doc, next);
        break;
      }
      case 'back': {
        const last = doc.check.entries.at(-1);
        this.bump(doc);
        if (last) await this.enqueue(doc, () => this.retract(doc, last.line));
        break;
      }
      case 'all':
        await this.checkThrough(doc, doc.lines.length);
        break;
      case 'to':
        if (action.line > this.checkedEnd(doc)) await this.checkThrough(doc, action.line);
        else {
          this.bump(doc);
          await this.enqueue(doc, () => this.retract(doc, action.line + 1));
        }
        break;
      case 'through':
        await this.checkThrough(doc, action.line);
        break;
    }
    return this.state(doc);
  }

  /** Stop a running command: a fresh channel, the checked lines replayed on it. */
  async cancel(client: string, uri: string): Promise<DocumentState> {
    const doc = this.require(client, uri);
    if (doc.check.running) await this.restartProver(doc, undefined, 'Cancelled');
    return this.state(doc);
  }

  /** A fresh prover for the document (the channels panel's Restart): nothing checked is lost. */
  async restartProver(clientOrDoc: string | DocumentSession, uri?: string, why = 'Restarted'): Promise<DocumentState> {
    const doc = typeof clientOrDoc === 'string' ? this.require(clientOrDoc, uri ?? '') : clientOrDoc;
    this.bump(doc);
    this.clearRecheck(doc);
    if (doc.channel === undefined) return this.state(doc);
    const old = doc.channel;
    delete doc.channel;
    // CANCEL, not RELEASE_CHANNEL: a release waits for the running command; this must stop it now.
    await this.options.shell.cancel(old);
    this.message(doc, 'info', `${why}: channel ${old} released; replaying the checked lines on a new channel.`);
    this.publish(doc);
    await this.enqueue(doc, () => this.replay(doc));
    return this.state(doc);
  }

  /** Forget the proof: a new channel, nothing checked. */
  async restart(client: string, uri: string): Promise<DocumentState> {
    const doc = this.require(client, uri);
    this.bump(doc);
    this.clearRecheck(doc);
    await this.enqueue(doc, async () => {
      await this.resetChannel(doc);
      this.setCheck(doc, { ...EMPTY });
    });
    return this.state(doc);
  }

  /** The document is closed: its channel is stopped and released. */
  async close(client: string, uri: string): Promise<void> {
    const key = keyOf(client, uri);
    const doc = this.docs.get(key);
    if (!doc) return;
    this.docs.delete(key);
    doc.closed = true;
    for (const [id, pending] of this.inserts) {
      if (pending.doc !== doc) continue;
      this.inserts.delete(id);
      pending.resolve({ refused: 'the document was closed' });
    }
    this.bump(doc);
    this.clearRecheck(doc);
    const channels = [...(doc.channel !== undefined ? [doc.channel] : []), ...doc.forks];
    doc.forks.clear();
    await Promise.all(channels.map((c) => this.options.shell.cancel(c).catch(() => undefined)));
  }

  /** Every document of a client that went away (a closed tab). */
  async closeClient(client: string): Promise<void> {
    await Promise.all([...this.docs.values()].filter((d) => d.client === client).map((d) => this.close(d.client, d.uri)));
  }

  /**
   * A request line from another client of the session — an MCP agent, attached or in the workbench. Its
   * proof commands on a document's channel become lines of that document: the editor inserts each after
   * the checked region and checks it (`document-insert` → `document.inserted`), so the editor's text, the
   * checked region and the channel never disagree, and neither the user's nor the agent's work is lost.
   * `REVERT n` steps the checked region back to the line that made step n. Anything else (other
   * channels, queries, STATE, NEW_CHANNEL, scratch copies) goes to the shell as it is (`direct`).
   */
  async clientCommand(line: string, source: string, direct: (line: string) => Promise<ShellResponse[]>): Promise<ShellResponse[]> {
    const requests = splitRequests(line);
    const routed = requests.map((r) => this.routeOf(r.error === undefined ? r.text : ''));
    if (!routed.some((r) => r !== undefined)) return direct(line);
    const out: ShellResponse[] = [];
    for (const [i, request] of requests.entries()) {
      const route = routed[i];
      if (route === undefined) out.push(...await direct(request.text));
      else out.push(...await this.serialised(route.doc, () => route.revertTo !== undefined
        ? this.clientRevert(route.doc, route.channel, route.revertTo, direct)
        : this.clientInsert(route.doc, route.channel, route.text, source)));
    }
    return out;
  }

  /** The editor's answer to a `document-insert`. */
  inserted(client: string, uri: string, id: number, answer: { line?: number; refused?: string }): void {
    const pending = this.inserts.get(id);
    if (!pending || pending.doc.client !== client || pending.doc.uri !== uri) throw new Error(`no insertion #${id} is waiting for ${uri}`);
    this.inserts.delete(id);
    pending.resolve(answer);
  }

  /**
   * A scratch copy of the document's state after its checked lines through `line` (default: all checked
   * lines): a fork of the document's channel at that step (`options.fork`), else a new channel with the
   * document's prelude, the checked requests replayed on it. The document
   * owns it: it is released when the document closes, or by `releaseFork`. Waits for running checks first,
   * so the copy is of a settled state.
   */
  async fork(client: string, uri: string, line?: number): Promise<DocumentFork> {
    const doc = this.require(client, uri);
    await this.idle(client, uri);
    const through = line ?? this.checkedEnd(doc);
    if (through > this.checkedEnd(doc)) throw new Error(`line ${through} is not checked (the document is checked through line ${this.checkedEnd(doc)})`);
    if (this.options.fork && doc.channel !== undefined) {
      // The document's state at that line, as a handle: nothing is replayed.
      const step = doc.check.entries.filter((e) => e.line <= through).at(-1)?.stepAfter ?? 0;
      const forked = await this.options.fork(doc.channel, step);
      if (doc.closed) {
        await this.options.shell.cancel(forked.channel);
        throw new Error('the document was closed');
      }
      doc.forks.add(forked.channel);
      return { channel: forked.channel, step: forked.step, line: through };
    }
    const lines = doc.check.entries.filter((e) => e.line <= through).map((e) => this.requestsOf(doc, e));
    const opened = await this.options.shell.openChannel();
    const id = opened.ok ? opened.opened : undefined;
    if (id === undefined) throw new Error(`cannot open a channel: ${opened.ok ? 'no channel' : opened.error}`);
    doc.forks.add(id);
    try {
      let step = 0;
      const run = async (command: Parameters<DocumentShell['run']>[1], text: string): Promise<void> => {
        const r = await this.options.shell.run(id, command, text);
        if (!r.ok) throw new Error(`replaying "${text.slice(0, 200)}" on the fork: ${r.error}`);
        if (r.step !== undefined) step = r.step;
        if (doc.closed) throw new Error('the document was closed');
      };
      if (doc.prelude) await run({ name: 'PRELUDE', text: doc.prelude.text }, doc.prelude.request);
      for (const line of lines) {
        for (const request of line.requests) {
          if ('error' in request.parsed) throw new Error(`replaying "${request.text.slice(0, 200)}" on the fork: ${request.parsed.error}`);
          await run(request.parsed.command, request.text);
        }
      }
      return { channel: id, step, line: through };
    } catch (e) {
      await this.releaseFork(client, uri, id);
      throw e;
    }
  }

  /** Stops and releases one of the document's forks. */
  async releaseFork(client: string, uri: string, channel: number): Promise<void> {
    const doc = this.docs.get(keyOf(client, uri));
    if (!doc?.forks.delete(channel)) throw new Error(`channel ${channel} is not a fork of ${uri}`);
    await this.options.shell.cancel(channel).catch(() => undefined);
  }

  /**
   * The script of the document whose channel is `channel`: what agents' `get_script` and scratch copies
   * read, so the document is the one place its script lives. Undefined for a channel no document owns.
   */
  /** Whether `channel` is an open document's own (clients reach it through the document, not around it). */
  isDocumentChannel(channel: number): boolean {
    return [...this.docs.values()].some((d) => d.channel === channel && !d.closed);
  }

  scriptOf(channel: number): ReplayPlan | undefined {
    const doc = [...this.docs.values()].find((d) => d.channel === channel && !d.closed);
    return doc ? this.scriptOfDoc(doc, this.checkedEnd(doc)) : undefined;
  }

  get(client: string, uri: string): DocumentState | undefined {
    const doc = this.docs.get(keyOf(client, uri));
    return doc ? this.state(doc) : undefined;
  }

  /** Settles when everything queued for the document so far has run (for tests and for callers that wait). */
  async idle(client: string, uri: string): Promise<DocumentState> {
    const doc = this.require(client, uri);
    for (;;) {
      const q = doc.queue;
      await q;
      if (q === doc.queue && doc.recheckTimer === undefined) return this.state(doc);
      if (q === doc.queue) await new Promise((r) => setTimeout(r, this.options.recheckDelayMs ?? 600));
    }
  }

  // ---- other clients' commands ----

  private routeOf(text: string): { doc: DocumentSession; channel: number; text: string; revertTo?: number } | undefined {
    if (text === '') return undefined;
    const parsed = parseRequest(text);
    if (!('command' in parsed)) return undefined;
    const doc = [...this.docs.values()].find((d) => d.channel === parsed.channel && !d.closed);
    if (!doc) return undefined;
    // Coq's blanks only: a no-break space ending the command is part of its last name (`APPLY intros h h\u00a0`).
    const bare = coqTrim(text).replace(/^[0-9]+[ \t]+/, '');
    if (parsed.command.name === 'REVERT') return { doc, channel: parsed.channel, text: bare, revertTo: parsed.command.step };
    return DOCUMENT_COMMANDS.has(parsed.command.name) ? { doc, channel: parsed.channel, text: bare } : undefined;
  }

  private serialised<T>(doc: DocumentSession, op: () => Promise<T>): Promise<T> {
    const run = doc.clientQueue.then(op, op);
    doc.clientQueue = run.catch(() => undefined);
    return run;
  }

  private async clientInsert(doc: DocumentSession, channel: number, text: string, source: string): Promise<ShellResponse[]> {
    const refuse = (why: string): ShellResponse[] => [{ CHANNEL: channel, RESPONSE: null, ERR: why }];
    // Whatever the document is doing (checking, an edit's re-check) finishes first: the line goes after it.
    await this.idle(doc.client, doc.uri);
    if (doc.closed) return refuse('the document was closed');
    // A line that failed below the checked region stays where it is: the command goes in before it.
    const id = this.nextInsert++;
    const answer = new Promise<{ line?: number; refused?: string }>((resolve) => {
      const timer = setTimeout(() => {
        this.inserts.delete(id);
        resolve({ refused: 'the editor did not answer' });
      }, INSERT_TIMEOUT_MS);
      timer.unref?.();
      this.inserts.set(id, { doc, resolve: (a) => { clearTimeout(timer); resolve(a); } });
    });
    this.options.emit({ kind: 'document-insert', id, uri: doc.uri, client: doc.client, afterLine: this.checkedEnd(doc), text, source });
    const { line, refused } = await answer;
    if (refused !== undefined || line === undefined) return refuse(`the editor did not take the command: ${refused ?? 'no line'}`);
    const last = doc.lastLine;
    if (!last || last.line !== line || coqTrim(last.text) !== coqTrim(text)) return refuse(`the command is in the editor at line ${line}, but the document changed before it was checked`);
    // The other client speaks the protocol: its answer is rendered as protocol lines here, at its edge.
    return last.results.map((r) => toShellResponse(r));
  }

  private async clientRevert(doc: DocumentSession, channel: number, step: number, direct: (line: string) => Promise<ShellResponse[]>): Promise<ShellResponse[]> {
    await this.idle(doc.client, doc.uri);
    const entries = doc.check.entries;
    const keep = step === 0 ? 0 : entries.findIndex((e) => e.stepAfter === step) + 1;
    if (keep === 0 && step !== 0) {
      const ends = entries.map((e) => e.stepAfter).join(', ');
      return [{ CHANNEL: channel, RESPONSE: null, ERR: `REVERT ${step}: no checked line of the document ends at step ${step}${ends ? ` (lines end at steps ${ends})` : ''}` }];
    }
    // The checked region steps back; the text stays in the editor (as Proof General's retract).
    await this.run(doc.client, doc.uri, { kind: 'to', line: keep === 0 ? 0 : (entries[keep - 1] as CheckedLine).line });
    return direct(`${channel} STATE`);
  }

  // ---- checking ----

  private require(client: string, uri: string): DocumentSession {
    const doc = this.docs.get(keyOf(client, uri));
    if (!doc) throw new Error(`no such document: ${uri} (open it first)`);
    return doc;
  }

  private state(doc: DocumentSession): DocumentState {
    const s: DocumentState = { uri: doc.uri, client: doc.client, version: doc.version, session: doc.session, seq: doc.seq, check: doc.check };
    if (doc.channel !== undefined) s.channel = doc.channel;
    return s;
  }

  /** Sends what changed since the last state sent: a patch, never every checked line again. */
  private publish(doc: DocumentSession): void {
    if (doc.closed) return;
    doc.seq += 1;
    const state = this.state(doc);
    this.options.emit({ kind: 'document', patch: diffDocumentState(doc.sent, state) });
    doc.sent = state;
  }

  private message(doc: DocumentSession, level: 'info' | 'error', text: string): void {
    if (!doc.closed) this.options.emit({ kind: 'document-message', uri: doc.uri, client: doc.client, level, text });
  }

  private setCheck(doc: DocumentSession, patch: Partial<DocumentCheck>): void {
    const next: DocumentCheck = { ...doc.check, ...patch };
    for (const k of Object.keys(patch) as (keyof DocumentCheck)[]) if (patch[k] === undefined) delete next[k];
    doc.check = next;
    this.publish(doc);
  }

  /** What rebuilds the checked state through `through` elsewhere: the prelude request and one request per line (channel ids left out). */
  private scriptOfDoc(doc: DocumentSession, through: number): ReplayPlan {
    const lines = doc.check.entries.filter((e) => e.line <= through).flatMap((e) => this.requestsOf(doc, e).requests.map((r) => r.text));
    return { lines, ...(doc.prelude !== undefined ? { prelude: doc.prelude.request } : {}) };
  }

  /** A checked line's parsed requests (kept from when it was checked). */
  private requestsOf(doc: DocumentSession, entry: CheckedLine): ParsedLine {
    return doc.requestsOf.get(entry) ?? parseLine(entry.text);
  }

  private checkedEnd(doc: DocumentSession): number {
    return doc.check.entries.at(-1)?.line ?? 0;
  }

  private checkThrough(doc: DocumentSession, target: number): Promise<void> {
    const gen = this.bump(doc);
    return this.enqueue(doc, () => this.runTo(doc, target, gen));
  }

  /**
   * The document changed from `firstLine` on, adding `lineDelta` lines. Retracts at once (so the checked
   * region never covers edited text), stops a command running at or below the edit, and re-checks the
   * old region (or as far as the interrupted run was going) after a pause in typing.
   */
  private edited(doc: DocumentSession, firstLine: number, lineDelta: number): Promise<void> {
    const running = doc.check.running;
    const runTarget = doc.check.target;
    if (running !== undefined && runTarget !== undefined && doc.replayEnd === undefined && firstLine > running.line && firstLine > this.checkedEnd(doc)) {
      // Typed below the line being checked and every checked line: nothing checked changed and the run reads the
      // text as it is now, so it goes on (cutting it left a run-all stopped for a note typed at the end). When the
      // edit moved the run's last line, a re-check behind it goes on to there.
      const moved = recheckTarget(Math.max(runTarget, doc.pendingTarget ?? 0), firstLine, lineDelta);
      if (moved !== runTarget) this.scheduleRecheck(doc, moved);
      return Promise.resolve();
    }
    const stopsRunning = running !== undefined && running.line >= firstLine;
    // A replay cut short by this edit had lines still to restore: they are checked again (re-check) too.
    const replayEnd = doc.replayEnd;
    const oldEnd = Math.max(this.checkedEnd(doc), stopsRunning ? doc.check.target ?? running.line : 0, replayEnd ?? 0);
    const target = recheckTarget(Math.max(oldEnd, doc.pendingTarget ?? 0), firstLine, lineDelta);
    if (stopsRunning && doc.channel !== undefined) {
      // The running command's answer no longer matters: stop it now rather than wait for it (a HAMMER can
      // take a minute). The lines checked above the edit are replayed on a new channel (see `retract`).
      const old = doc.channel;
      delete doc.channel;
      void this.options.shell.cancel(old);
      this.message(doc, 'info', `Edited at line ${firstLine}, above the running line ${running.line}: stopped it (channel ${old} released); re-checking on a new channel.`);
      this.publish(doc);
    }
    const hadPending = doc.pendingTarget !== undefined;
    this.bump(doc);
    const done = this.enqueue(doc, () => this.retract(doc, firstLine));
    if (doc.check.error && doc.check.error.line >= firstLine) this.setCheck(doc, { error: undefined });
    if ((target >= firstLine && (oldEnd >= firstLine || hadPending)) || replayEnd !== undefined) this.scheduleRecheck(doc, target);
    return done;
  }

  /** A re-check through `target` after a pause in typing (a later edit reschedules it). */
  private scheduleRecheck(doc: DocumentSession, target: number): void {
    doc.pendingTarget = target;
    clearTimeout(doc.recheckTimer);
    doc.recheckTimer = setTimeout(() => {
      delete doc.pendingTarget;
      delete doc.recheckTimer;
      if (!doc.closed) void this.recheck(doc, Math.min(target, doc.lines.length));
    }, this.options.recheckDelayMs ?? 600);
  }

  /**
   * The re-check an edit scheduled: it continues checking and stops nothing. A run asked meanwhile (after a
   * restart, say) goes on through its own line; bumping the generation here cut it short after one line.
   */
  private recheck(doc: DocumentSession, target: number): Promise<void> {
    const gen = doc.generation;
    return this.enqueue(doc, async () => {
      // Already checked through (by that run): nothing to do, and its error, if any, stays shown.
      if (commandLinesBetween(doc.lines, this.checkedEnd(doc) + 1, target).length === 0) return;
      await this.runTo(doc, target, gen);
    });
  }

  private clearRecheck(doc: DocumentSession): void {
    clearTimeout(doc.recheckTimer);
    delete doc.recheckTimer;
    delete doc.pendingTarget;
  }

  private bump(doc: DocumentSession): number {
    doc.generation += 1;
    return doc.generation;
  }

  private enqueue(doc: DocumentSession, op: () => Promise<void>): Promise<void> {
    const run = doc.queue.then(op).catch((err: unknown) => {
      this.message(doc, 'error', `checking failed: ${err instanceof Error ? err.message : String(err)}`);
    });
    doc.queue = run;
    return run;
  }

  private async channel(doc: DocumentSession): Promise<number> {
    if (doc.channel !== undefined) return doc.channel;
    // Asked before the channel exists, so a refused project leaves no channel behind.
    const prelude = await this.options.prelude?.(doc.path);
    const opened = await this.options.shell.openChannel();
    const id = opened.ok ? opened.opened : undefined;
    if (id === undefined) throw new Error(`cannot open a channel: ${opened.ok ? 'no channel' : opened.error}`);
    this.options.onChannel?.(id);
    delete doc.prelude;
    if (prelude !== undefined) {
      const request = `PRELUDE ${quoteArgument(prelude)}`;
      const set = await this.options.shell.run(id, { name: 'PRELUDE', text: prelude }, request);
      if (!set.ok) {
        await this.options.shell.release(id);
        throw new Error(`the project's prelude was refused: ${set.error}`);
      }
      doc.prelude = { text: prelude, request };
    }
    if (doc.closed) {
      await this.options.shell.cancel(id);
      throw new Error('the document was closed');
    }
    doc.channel = id;
    this.publish(doc);
    return id;
  }

  private async resetChannel(doc: DocumentSession): Promise<void> {
    if (doc.channel !== undefined) {
      const old = doc.channel;
      delete doc.channel;
      await this.options.shell.cancel(old);
    }
    await this.channel(doc);
  }

  private async runTo(doc: DocumentSession, target: number, gen: number): Promise<void> {
    this.setCheck(doc, { error: undefined, target });
    try {
      // Before sending anything new, drop checked lines whose text changed behind our back.
      const stale = firstStaleLine(doc.check.entries, doc.lines);
      if (stale !== undefined) await this.retract(doc, stale);
      while (doc.generation === gen) {
        const next = commandLinesBetween(doc.lines, this.checkedEnd(doc) + 1, target)[0];
        if (next === undefined) break;
        if (!(await this.checkLine(doc, next, doc.parsed[next - 1] as ParsedLine, gen))) break;
      }
    } finally {
      this.setCheck(doc, { running: undefined, target: undefined });
    }
  }

  /** Runs one line's parsed requests one at a time on the document's channel (a failed request must not let the next one run). */
  private async checkLine(doc: DocumentSession, line: number, parsed: ParsedLine, gen: number): Promise<boolean> {
    const { text } = parsed;
    const channel = await this.channel(doc);
    const stepBefore = doc.check.entries.at(-1)?.stepAfter ?? 0;
    let stepAfter = stepBefore;
    this.setCheck(doc, { running: { line, since: Date.now() } });
    let error: string | undefined;
    const results: CommandResult[] = [];
    doc.lastLine = { line, text, results };
    for (const request of parsed.requests) {
      if ('error' in request.parsed) {
        // Parsed at sync and found wanting: nothing goes to the shell; the line fails with the parser's word.
        error = request.parsed.error;
        results.push(failure(channel, error));
        break;
      }
      const result = await this.options.shell.run(channel, request.parsed.command, request.text);
      results.push(result);
      if (!result.ok) {
        error = result.error;
        break;
      }
      if (result.step !== undefined) stepAfter = result.step;
    }
    if (doc.generation !== gen && doc.channel !== channel) {
      // Cancelled under our feet (the channel was released), whatever the answer: whoever cancelled takes over.
      return false;
    }
    if (error !== undefined) {
      // Undo what the line's earlier requests did: the checked region ends before this line.
      if (stepAfter !== stepBefore) {
        if (stepBefore >= 1) await this.options.shell.run(channel, { name: 'REVERT', step: stepBefore });
        else await this.resetChannel(doc);
      }
      this.setCheck(doc, { error: { line, message: error } });
      this.message(doc, 'error', `line ${line}: ${error}`);
      return false;
    }
    const entry: CheckedLine = { line, text, stepBefore, stepAfter };
    doc.requestsOf.set(entry, parsed);
    this.setCheck(doc, { entries: [...doc.check.entries, entry] });
    return true;
  }

  private async retract(doc: DocumentSession, line: number): Promise<void> {
    const entries = doc.check.entries;
    const stale = firstStaleLine(entries, doc.lines);
    const from = Math.min(line, stale ?? Infinity);
    const r = retractFrom(entries, from);
    if (doc.channel === undefined && r.kept.length > 0) {
      // The channel was stopped under checked lines (an edit above a running command): replay what is kept.
      this.setCheck(doc, { entries: r.kept });
      await this.replay(doc);
      return;
    }
    if (r.action.kind === 'none') return;
    if (r.action.kind === 'revert' && doc.channel !== undefined) {
      const reverted = await this.options.shell.run(doc.channel, { name: 'REVERT', step: r.action.step });
      if (!reverted.ok) {
        this.message(doc, 'error', `REVERT ${r.action.step}: ${reverted.error}; restarting the proof`);
        await this.resetChannel(doc);
        this.setCheck(doc, { entries: [] });
        return;
      }
    } else {
      await this.resetChannel(doc);
    }
    this.setCheck(doc, { entries: r.kept });
  }

  private async replay(doc: DocumentSession): Promise<void> {
    const entries: CheckedLine[] = doc.check.entries;
    this.setCheck(doc, { entries: [] });
    await this.channel(doc);
    const gen = doc.generation;
    doc.replayEnd = entries.at(-1)?.line;
    try {
      for (const e of entries) {
        if (doc.generation !== gen) return;
        if (!(await this.checkLine(doc, e.line, this.requestsOf(doc, e), gen))) return;
      }
    } finally {
      delete doc.replayEnd;
      this.setCheck(doc, { running: undefined });
    }
  }
}

const keyOf = (client: string, uri: string): string => `${client}\u0000${uri}`;
