import { randomBytes } from 'node:crypto';
import type { AgentSnapshot, ApiEvent, McpInfo } from '../../shared/api/api-contract.ts';
import type { EditRecord, Suggestion } from '../../shared/agent/agent-types.ts';
import { AgentSession } from '../agent/agent-session.ts';
import { EditHistory } from '../agent/edit-history.ts';
import { inProcessPort } from '../agent/in-process-port.ts';
import { createArborMcpHttpServer } from '../agent/mcp-http-server.ts';
import { checkAgainstReference, suggestedGoal } from '../agent/reference-fidelity.ts';
import type { ArborMcpHttpServer } from '../agent/mcp-http-server.ts';
import { eqAdvisor } from '../agent/sources/eq-advisor.ts';
import { hammerPortfolio } from '../agent/sources/hammer-portfolio.ts';
import { quickTactics } from '../agent/sources/quick-tactics.ts';
import type { SuggestionSource } from '../agent/sources/suggestion-source.ts';
import { ToolError } from '../agent/tool-error.ts';
import type { ReplayPlan } from '../agent/script-tracker.ts';
import type { AdvisorSettings } from '../provers/eq/hammer.ts';
import type { BackendId, ProjectArgs } from '../shell/prover-session.ts';
import type { Shell } from '../shell/shell.ts';
import type { ShellResponse } from '../../shared/protocol/shell-command.ts';
import type { Workspace } from './workspace.ts';

export interface WorkbenchAgentOptions {
  shell: Shell;
  workspace: Workspace;
  /** Seconds for the hammer portfolio's `HAMMER`. */
  hammerSeconds?: number;
  /** The channels' backend: `eq` goals get the equational advisor instead of Coq's quick tactics. */
  backend?: BackendId;
  /** An external AIMLEAP advisor (`--advisor HOST:PORT`) for the eq-advisor's estimates and middle terms. */
  advisor?: AdvisorSettings;
  /** The workspace's trusted project: the MCP fidelity tool's coqc runs get its load paths. */
  project?: () => ProjectArgs | undefined;
  /** Replaces the built-in sources (tests). */
  sources?: readonly SuggestionSource[];
  /** Checks a suggested goal against the reference statement (tests replace it). */
  checkGoal?: (reference: string, goal: string) => Promise<Suggestion['fidelity']>;
}

/** What the agent side pushes to the renderer. */
export type AgentEvent = Extract<ApiEvent, { kind: 'suggestion' | 'edit' }>;

interface Entry {
  session: AgentSession;
  path?: string;
  /** The proof's reference statement: suggested `GOAL`s are checked against it. */
  reference?: string;
  off: () => void;
}

/** The companion file of a proof: `FILE.arbor` → `FILE.arbor.edits.json`. */
export const editsFileOf = (path: string): string => `${path}.edits.json`;

/**
 * The workbench's agent side: one agent session per editor channel (each with its own suggestion queue
 * and edit history), the one the active editor focuses being the session MCP agents and the panel use.
 * Queue and history changes go out as API events; the history is kept next to the proof file.
 */
export class WorkbenchAgent {
  private readonly sessions = new Map<number, Entry>();
  private focused = 0;
  private mcp: ArborMcpHttpServer | undefined;
  private mcpToken = '';
  private readonly listeners = new Set<(event: AgentEvent) => void>();
  private route: ((line: string, source: string) => Promise<ShellResponse[]>) | undefined;
  private documentScript: ((channel: number) => ReplayPlan | undefined) | undefined;
  readonly sources: readonly SuggestionSource[];

  constructor(private readonly options: WorkbenchAgentOptions) {
    const hammer = hammerPortfolio({ hammerSeconds: options.hammerSeconds ?? 10 });
    this.sources = options.sources ?? (options.backend === 'eq' ? [eqAdvisor(options.advisor ? { advisor: options.advisor } : {}), hammer] : [hammer, quickTactics()]);
  }

  onEvent(listener: (event: AgentEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Agents' requests go through the host's document sessions from now on (the editor and agents are
   * clients of one session). Set once, before any agent connects.
   */
  routeCommands(route: (line: string, source: string) => Promise<ShellResponse[]>): void {
    this.route = route;
  }

  /** Sessions on a document's channel read its script from the document (set once, before any session starts). */
  readDocumentScripts(scriptOf: (channel: number) => ReplayPlan | undefined): void {
    this.documentScript = scriptOf;
  }

  /** The user undid an accepted suggestion's line: the edit history says so. */
  undoAccept(id: number): EditRecord {
    return asPlainError(() => this.current().recordUndo(id));
  }

  /** The session of the focused channel (made on first use). */
  current(): AgentSession {
    return this.entry(this.focused).session;
  }

  /**
   * The editor now works on `channel` (with the file `path`): that session becomes current. Made
   * synchronously, before the editor's next request, so the session sees the proof from its `GOAL`.
   */
  async focus(channel: number, path?: string): Promise<AgentSnapshot> {
    this.focused = channel;
    const entry = this.entry(channel);
    this.prune();
    if (path !== undefined && entry.path !== path) {
      const before = entry.path;
      entry.path = path;
      if (before === undefined && entry.session.history.list().length > 0) await this.saveHistory(path);
      else await this.loadHistory(entry, path);
    }
    return this.snapshot(channel);
  }

  snapshot(channel = this.focused): AgentSnapshot {
    const session = this.entry(channel).session;
    return { channel, suggestions: session.queue.list(), history: session.history.list() };
  }

  decide(id: number, decision: 'accept' | 'reject'): Suggestion {
    const session = this.current();
    return asPlainError(() => decision === 'accept' ? session.markAccepted(id) : session.reject(id));
  }

  async runSources(names?: readonly string[]): Promise<Suggestion[]> {
    const unknown = names?.find((n) => !this.sources.some((s) => s.name === n));
    if (unknown !== undefined) throw new Error(`unknown suggestion source: ${unknown} (${this.sources.map((s) => s.name).join(', ')})`);
    const chosen = this.sources.filter((s) => names === undefined || names.includes(s.name));
    const session = this.current();
    try {
      return await session.runSources(chosen);
    } catch (err) {
      throw err instanceof ToolError ? new Error(err.text) : err;
    }
  }

  /** Sets (or clears) the reference statement of `channel`'s proof and re-checks its pending suggested goals. */
  setReference(channel: number, statement: string | null): void {
    const entry = this.entry(channel);
    if (statement === null) delete entry.reference;
    else entry.reference = statement;
    for (const s of entry.session.queue.list({ status: 'pending' })) {
      if (s.edit.kind !== 'commands' || suggestedGoal(s.edit.commands) === null) continue;
      if (statement === null) entry.session.queue.setFidelity(s.id, undefined);
      else void this.checkSuggestion(entry, s);
    }
  }

  /** Attaches the verdict of a suggested goal against the reference, unless the reference changed meanwhile. */
  private async checkSuggestion(entry: Entry, s: Suggestion): Promise<void> {
    const reference = entry.reference;
    const goal = s.edit.kind === 'commands' ? suggestedGoal(s.edit.commands) : null;
    if (reference === undefined || goal === null) return;
    const check = this.options.checkGoal ?? checkAgainstReference;
    const fidelity = await check(reference, goal);
    if (entry.reference === reference) entry.session.queue.setFidelity(s.id, fidelity);
  }

  /** Writes the history of the session whose file is `path` next to it (after the proof is saved). */
  async saveHistory(path: string): Promise<void> {
    const entry = [...this.sessions.values()].find((e) => e.path === path);
    if (!entry || entry.session.history.list().length === 0) return;
    await this.options.workspace.write(editsFileOf(path), entry.session.history.serialize(), { remember: false });
  }

  /** Serves MCP over streamable HTTP on 127.0.0.1 with its own token, on the focused session. */
  async startMcp(port = 0): Promise<{ url: string; token: string }> {
    this.mcpToken = randomBytes(24).toString('hex');
    this.mcp = await createArborMcpHttpServer({
      shell: this.options.shell, token: this.mcpToken, port, session: () => this.current(), sources: this.sources,
      ...(this.options.project ? { project: this.options.project } : {}),
    });
    return { url: this.mcp.url, token: this.mcpToken };
  }

  mcpInfo(): McpInfo {
    return this.mcp ? { url: this.mcp.url, token: this.mcpToken } : null;
  }

  async close(): Promise<void> {
    await this.mcp?.close();
    const entries = [...this.sessions.values()];
    this.sessions.clear();
    this.listeners.clear();
    for (const e of entries) e.off();
    await Promise.all(entries.map((e) => e.session.close()));
  }

  /**
   * A document's new channel: its agent session starts now, before the channel's first request, so it
   * follows the whole document from its first step (focus comes later, when the editor hears of the channel).
   */
  adopt(channel: number): void {
    this.entry(channel);
  }

  private entry(channel: number): Entry {
    let entry = this.sessions.get(channel);
    if (!entry) {
      const route = this.route;
      const scriptOf = this.documentScript;
      const session = new AgentSession({
        port: inProcessPort(this.options.shell, route && ((line) => route(line, 'agent'))),
        channel,
        ...(scriptOf ? { documentScript: () => scriptOf(channel) } : {}),
      });
      const offQueue = session.queue.onChange((suggestion) => {
        this.emit({ kind: 'suggestion', channel, suggestion });
        // A newly queued suggested goal: check it against the reference (in the background).
        if (suggestion.status === 'pending' && !('fidelity' in suggestion) && created.reference !== undefined) void this.checkSuggestion(created, suggestion);
      });
      const offHistory = session.history.onAdd((record: EditRecord) => this.emit({ kind: 'edit', channel, record }));
      const created: Entry = { session, off: () => { offQueue(); offHistory(); } };
      entry = created;
      this.sessions.set(channel, entry);
    }
    return entry;
  }

  private emit(event: AgentEvent): void {
    for (const l of this.listeners) l(event);
  }

  private async loadHistory(entry: Entry, path: string): Promise<void> {
    try {
      const { text } = await this.options.workspace.read(editsFileOf(path), { remember: false });
      entry.session.history.restore(EditHistory.parse(text).list());
    } catch {
      // No companion yet (or an unreadable one): the proof starts with an empty history.
    }
  }

  /** Sessions of channels that are gone (a document closed, cancelled or restarted) are closed. */
  private prune(): void {
    const live = new Set(this.options.shell.channelIds());
    for (const [channel, entry] of this.sessions) {
      if (channel === this.focused || live.has(channel)) continue;
      this.sessions.delete(channel);
      entry.off();
      void entry.session.close();
    }
  }
}

/** Tool errors go back to the renderer as plain messages (`reason: message`). */
function asPlainError<T>(run: () => T): T {
  try {
    return run();
  } catch (err) {
    throw err instanceof ToolError ? new Error(err.text) : err;
  }
}
