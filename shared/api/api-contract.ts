import { z } from 'zod';
import type { EditRecord, Suggestion } from '../agent/agent-types.ts';
import type { FidelityReport } from '../fidelity/fidelity-types.ts';
import type { TreeView } from '../proof-tree/proof-tree.ts';
import type { DerivationReply } from '../derivation/recorded-derivation.ts';
import type { VFileProgress, VFileReport } from '../derivation/v-file-derivation.ts';
import type { TreeDelta } from '../proof-tree/tree-delta.ts';
import type { ShellResponse } from '../protocol/shell-command.ts';
import type { QueryAnswer } from '../protocol/query-answer.ts';
import type { ForkTryOutcome } from '../protocol/fork-try.ts';
import { FORK_TRY_LIMITS } from '../protocol/fork-try.ts';
import type { DocumentState } from '../checking/document-check.ts';
import type { DocumentPatch } from '../checking/document-patch.ts';
import type { ApiMethodName } from './api-methods.ts';
import type { ProjectInfo, ProversReport } from '../settings/provers-report.ts';
import type { CoqProjectStatus } from '../project/coq-project-status.ts';

/**
 * The one API between the workbench's renderer and its host (Electron IPC or the web host's WebSocket).
 * Every method's parameters are a zod schema: the host validates every call before acting on it, because
 * the renderer is untrusted (BRIEF §6). Results are typed only; they come from trusted code.
 */
const channel = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);
const filePath = z.string().min(1).max(4096).refine((p) => !p.includes('\u0000'), 'NUL in path');
const uri = z.string().min(1).max(1024);
const text = z.string().max(16 << 20);
const statement = z.string().min(1).max(10_000);
const client = z.string().min(1).max(64).regex(/^[A-Za-z0-9_-]+$/);
/** What a fork is made of: a channel, or a document's channel (`client` + `uri`), never both. */
const forkTarget = z.object({ channel: channel.optional(), client: client.optional(), uri: uri.optional() });
const oneTarget = (p: { channel?: number | undefined; client?: string | undefined; uri?: string | undefined }): boolean =>
  p.channel !== undefined ? p.client === undefined && p.uri === undefined : p.client !== undefined && p.uri !== undefined;
const targetMessage = 'name a channel, or a document by client and uri (not both)';

export const apiParamSchemas = {
  /** Submits one editor line (may hold several `;`-separated requests); resolves with every response. */
  'shell.submit': z.object({ line: z.string().max(1 << 20) }).strict(),
  'shell.channels': z.object({}).strict(),
  /** A channel's whole tree: the latest (with the sequence number of its last change), or after `step`. */
  'shell.tree': z.object({ channel, step: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER).optional() }).strict(),
  /** Stops a channel now and releases it (CANCEL): for channels no document uses, e.g. an agent's scratch channel. */
  'shell.release': z.object({ channel }).strict(),
  /**
   * A look-up (SEARCH, CHECK, ABOUT, PRINT, LOCATE) in a document's environment: on its channel, or
   * without one on the host's own look-up channel (the library only). The host writes the request.
   */
  /**
   * Documents live in the host (as coq-lsp's do): the editor sends its text at each version, with where
   * it changed, and asks for checking; the host owns the channel, the checked region and the protocol.
   * `client` is the editor window's id (two windows may open the same file).
   */
  'document.sync': z.object({
    client, uri, version: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER), text, path: filePath.optional(),
    edit: z.object({ firstLine: z.number().int().min(1).max(10_000_000), lineDelta: z.number().int().min(-10_000_000).max(10_000_000) }).strict().optional(),
  }).strict(),
  'document.run': z.object({
    client, uri,
    action: z.discriminatedUnion('kind', [
      z.object({ kind: z.literal('forward') }).strict(), z.object({ kind: z.literal('back') }).strict(), z.object({ kind: z.literal('all') }).strict(),
      z.object({ kind: z.literal('to'), line: z.number().int().min(0).max(10_000_000) }).strict(),
      z.object({ kind: z.literal('through'), line: z.number().int().min(0).max(10_000_000) }).strict(),
    ]),
  }).strict(),
  'document.cancel': z.object({ client, uri }).strict(),
  'document.restartProver': z.object({ client, uri }).strict(),
  'document.restart': z.object({ client, uri }).strict(),
  'document.close': z.object({ client, uri }).strict(),
  /** The document's whole checking state (a client that missed a patch starts again from it); null when it is not open. */
  'document.get': z.object({ client, uri }).strict(),
  /**
   * The editor's answer to a `document-insert` event: the line it inserted the client's command at (and
   * whether that line checked), or why it refused. The editor stays the one writer of the document's text.
   */
  'document.inserted': z.object({
    client, uri, id: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER),
    line: z.number().int().min(1).max(10_000_000).optional(),
    refused: z.string().min(1).max(2_000).optional(),
  }).strict(),
  /**
   * A scratch copy of the document's checked state through `line` (default: every checked line) on a
   * channel of its own, for trying things without touching the document; the document owns it and
   * releases it when it closes (or on `document.releaseFork`).
   */
  'document.fork': z.object({ client, uri, line: z.number().int().min(0).max(10_000_000).optional() }).strict(),
  'document.releaseFork': z.object({ client, uri, channel }).strict(),
  /**
   * A try on a fork of a channel's state after `step` (default: now): a state handle on a warm prover
   * (main/shell/state-forks.ts), never a replay, and the channel never moves. The target is a channel, or a
   * document (`client` + `uri`: its channel). Commands are requests without a channel id, proof steps and
   * look-ups only; the first that fails ends the try. Refused: another client's channel, the host's own,
   * more tries at once than FORK_TRY_LIMITS.inFlightPerClient.
   */
  'fork.try': forkTarget.extend({
    step: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional(),
    commands: z.array(z.string().min(1).max(FORK_TRY_LIMITS.commandChars)).min(1).max(FORK_TRY_LIMITS.commands),
    endWhenProved: z.boolean().optional(),
    deadlineMs: z.number().int().min(1).max(FORK_TRY_LIMITS.deadlineMs).optional(),
  }).strict().refine(oneTarget, targetMessage),
  /** A channel of the caller's own that adopted the target's state after `step` (the shell-level `document.fork`); `shell.release` ends it. */
  'fork.adopt': forkTarget.extend({ step: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional() }).strict().refine(oneTarget, targetMessage),
  'proof.lookUp': z.object({
    channel: channel.optional(),
    kind: z.enum(['search', 'check', 'about', 'print', 'locate']),
    text: z.string().min(1).max(10_000).refine((t) => ![...t].some((c) => (c < ' ' && c !== '\t') || c === '\u007f'), 'control character'),
  }).strict(),
  /**
   * The derivation of an item of the channel's document (every goal, what acted on it, how it closed), as
   * the engine recorded it: item `item` (0-based), else the one holding `step`, else the last; up to `step`.
   */
  'proof.derivation': z.object({
    channel, item: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional(), step: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER).optional(),
  }).strict(),
  'app.info': z.object({}).strict(),
  'files.read': z.object({ path: filePath }).strict(),
  'files.write': z.object({ path: filePath, text }).strict(),
  /** Lists a directory inside the workspace (for the in-app open dialog); default: the workspace root. */
  'files.list': z.object({ dir: filePath.optional() }).strict(),
  /** Electron only: the native open/save dialogs; the web host answers `null` and the renderer falls back. */
  'files.pickOpen': z.object({ filters: z.array(z.string().max(16)).max(8).optional() }).strict(),
  'files.pickSave': z.object({ suggested: z.string().max(256).optional() }).strict(),
  /**
   * Unsaved buffers, kept per editor window (`window`: its id, which survives a reload of that window):
   * two windows with the same file open keep two recoveries. `recovery.list` answers this window's own
   * and adopts those no open window claims (left by a window that is gone), so no two windows restore one.
   */
  'recovery.save': z.object({ uri, path: filePath.optional(), text, window: client.optional() }).strict(),
  'recovery.list': z.object({ window: client.optional() }).strict(),
  'recovery.discard': z.object({ uri, window: client.optional() }).strict(),
  'settings.get': z.object({}).strict(),
  'settings.set': z.object({ patch: z.record(z.string().max(64), z.union([z.string().max(4096), z.number(), z.boolean()])) }).strict(),
  'recent.list': z.object({}).strict(),
  /** Which provers are installed (paths, versions, exact fixes), with the user's Lean/Isabelle settings applied. */
  'provers.detect': z.object({}).strict(),
  /** The `arbor.project.json` of a folder the workbench may read (null: none there). */
  'project.read': z.object({ dir: filePath }).strict(),
  /**
   * What the workspace asks the user to trust — its `_CoqProject`'s load paths and options, the assumptions
   * its `arbor.project.json` declares (null: nothing) — and whether it is trusted: one grant for both.
   */
  'project.coq': z.object({}).strict(),
  /**
   * The user pressed "Trust…": the desktop app asks in a native dialog; the web host prints a one-time code
   * on its terminal, which `project.trust` must carry (an API call alone never trusts a workspace).
   */
  'project.requestTrust': z.object({}).strict(),
  'project.trust': z.object({ code: z.string().min(1).max(32) }).strict(),
  /** A `.v` file of the workspace opened as derivations (read-only; its sentences run in a sandboxed prover). */
  'vfile.derivations': z.object({ path: filePath }).strict(),
  'vfile.cancel': z.object({}).strict(),
  /**
   * The editor's document the agent side works on: its channel and file (the edit history is kept next
   * to the file). Answers that session's suggestions and history.
   */
  'agent.focus': z.object({ channel, path: filePath.optional() }).strict(),
  'agent.suggestions': z.object({}).strict(),
  /** Records the user's decision; an accepted suggestion's commands are written into the script by the renderer. */
  'agent.decide': z.object({ id: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER), decision: z.enum(['accept', 'reject']) }).strict(),
  'agent.history': z.object({}).strict(),
  /** The user undid an accepted suggestion's line in the editor (Ctrl+Z): recorded in the edit history. */
  'agent.undoAccept': z.object({ id: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER) }).strict(),
  /** Runs the built-in suggestion sources (default: all) on the current goal. */
  'agent.runSources': z.object({ sources: z.array(z.string().min(1).max(64)).max(16).optional() }).strict(),
  'agent.mcpInfo': z.object({}).strict(),
  /** The reference statement of the proof on `channel` (null clears it): agents' suggested GOALs are checked against it. */
  'agent.setReference': z.object({ channel, statement: statement.nullable() }).strict(),
  /** Statement fidelity of two statements (the host runs `checkFidelity`); see shared/fidelity. */
  'fidelity.check': z.object({
    canonical: statement, candidate: statement, context: z.string().max(100_000).optional(),
    backend: z.enum(['coq', 'lean']).optional(), timeoutMs: z.number().int().positive().max(60_000).optional(),
  }).strict(),
} as const satisfies Record<ApiMethodName, z.ZodType>;

export type ApiMethod = keyof typeof apiParamSchemas;
export type ApiParams<M extends ApiMethod> = z.input<(typeof apiParamSchemas)[M]>;

export interface ChannelInfo {
  id: number;
  backend: string;
  pid?: number;
  busy: boolean;
  step: number;
  finished: boolean;
  /** The prover process's CPU use (percent of one core) and resident memory, where the host can tell. */
  cpuPercent?: number;
  rssMb?: number;
}

export interface AppInfo {
  host: 'web' | 'electron';
  version: string;
  backend: string;
  backendAvailable: boolean;
  problems: string[];
  workspace: string;
  examplesDir: string;
}

export interface DirEntry {
  name: string;
  path: string;
  kind: 'file' | 'dir';
}

export interface RecoveryEntry {
  uri: string;
  /** The editor window that owns it (absent: written before windows had ids; any window may adopt it). */
  window?: string;
  path?: string;
  text: string;
  time: number;
}

export type Settings = Record<string, string | number | boolean>;

/** The agent session of one channel, as the suggestion panel shows it. */
export interface AgentSnapshot {
  channel: number;
  suggestions: Suggestion[];
  history: EditRecord[];
}

/** Where agents connect: the MCP streamable-HTTP endpoint and its bearer token (null when not served). */
export type McpInfo = { url: string; token: string } | null;

export interface ApiResults {
  'shell.submit': ShellResponse[];
  'shell.channels': ChannelInfo[];
  'shell.tree': TreeSnapshot | null;
  'shell.release': null;
  'proof.lookUp': { answer: QueryAnswer } | { error: string };
  'proof.derivation': DerivationReply;
  'document.sync': DocumentState;
  'document.run': DocumentState;
  'document.cancel': DocumentState;
  'document.restartProver': DocumentState;
  'document.restart': DocumentState;
  'document.close': null;
  'document.get': DocumentState | null;
  'document.inserted': null;
  'document.fork': { channel: number; step: number; line: number };
  'document.releaseFork': null;
  'fork.try': ForkTryOutcome;
  'fork.adopt': { channel: number; step: number };
  'app.info': AppInfo;
  'files.read': { path: string; text: string };
  'files.write': { path: string };
  'files.list': { dir: string; parent: string | null; entries: DirEntry[] };
  'files.pickOpen': string | null;
  'files.pickSave': string | null;
  'recovery.save': null;
  'recovery.list': RecoveryEntry[];
  'recovery.discard': null;
  'settings.get': Settings;
  'settings.set': Settings;
  'recent.list': string[];
  'provers.detect': ProversReport;
  'project.read': ProjectInfo | null;
  'project.coq': CoqProjectStatus | null;
  'project.requestTrust': CoqProjectStatus | null;
  'project.trust': CoqProjectStatus | null;
  'vfile.derivations': VFileReport;
  /** Whether a `.v` run was going (it stops before its next sentence; what was read is returned by its `vfile.derivations`). */
  'vfile.cancel': boolean;
  'agent.focus': AgentSnapshot;
  'agent.suggestions': Suggestion[];
  'agent.decide': Suggestion;
  'agent.history': EditRecord[];
  'agent.undoAccept': EditRecord;
  'agent.runSources': Suggestion[];
  'agent.mcpInfo': McpInfo;
  'agent.setReference': null;
  'fidelity.check': FidelityReport;
}

/** A channel's whole tree after `step`; `seq` numbers the channel's last tree change sent (see the `tree` event). */
export interface TreeSnapshot {
  seq: number;
  step: number;
  tree: TreeView | null;
}

/** What the host pushes to the renderer. */
export type ApiEvent =
  | { kind: 'request'; channel: number; text: string; time: number }
  /**
   * A response as the shell sent it, except that a proof state (the response of a step) is left out
   * (`stateInTree`): the `tree` event of that step carries it, as a change of the tree.
   */
  | { kind: 'response'; response: ShellResponse; time: number; stateInTree?: true }
  /**
   * How the channel's tree changed with a response that carried `STEP`: `seq` counts the channel's changes
   * from 1, so a client that missed one (or joined late) asks `shell.tree` for a snapshot instead.
   */
  | { kind: 'tree'; channel: number; step: number; seq: number; change: TreeDelta }
  | { kind: 'channels'; channels: ChannelInfo[] }
  /** A suggestion was queued or decided on the agent session of `channel`. */
  | { kind: 'suggestion'; channel: number; suggestion: Suggestion }
  /** An edit was recorded in the history of the agent session of `channel`. */
  | { kind: 'edit'; channel: number; record: EditRecord }
  /**
   * A document's checking state changed (documents live in the host): only what changed, numbered, so a
   * client that missed one asks `document.get` for the whole state (shared/checking/document-patch.ts).
   */
  | { kind: 'document'; patch: DocumentPatch }
  /** Something to tell the user about a document's checking (a failed line, a cancel). */
  | { kind: 'document-message'; uri: string; client: string; level: 'info' | 'error'; text: string }
  /**
   * Another client of the document's session (an MCP agent) ran a proof command on its channel: the editor
   * inserts it as a line after `afterLine` (the end of the checked region), checks it, and answers with
   * `document.inserted` (as LSP's applyEdit: the editor is the one writer of the text, so nobody's typing
   * is lost). A line that fails is taken out again; its error goes back to the agent.
   */
  | { kind: 'document-insert'; id: number; uri: string; client: string; afterLine: number; text: string; source: string }
  /** How far the `.v` file being opened (`vfile.derivations`) has been read. */
  | { kind: 'vfile-progress'; path: string; progress: VFileProgress }
  /** A menu item or shortcut handled by the renderer (Electron menus). */
  | { kind: 'menu'; command: MenuCommand; arg?: string };

export const MENU_COMMANDS = [
  'file.new', 'file.open', 'file.openPath', 'file.save', 'file.saveAs', 'file.openTranscript',
  'proof.stepForward', 'proof.stepBack', 'proof.runToCursor', 'proof.runAll', 'proof.cancel', 'proof.restart',
  'view.fit', 'view.search', 'view.exportSvg', 'view.exportPng', 'help.commands',
] as const;
export type MenuCommand = (typeof MENU_COMMANDS)[number];

export type ApiCallResult =
  | { ok: true; method: ApiMethod; params: unknown }
  | { ok: false; error: string };

/** Validates an untrusted call: a known method and parameters that match its schema. */
export function validateApiCall(method: unknown, params: unknown): ApiCallResult {
  if (typeof method !== 'string' || !Object.hasOwn(apiParamSchemas, method)) {
    return { ok: false, error: `unknown method: ${String(method).slice(0, 40)}` };
  }
  const schema = apiParamSchemas[method as ApiMethod];
  const parsed = schema.safeParse(params ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { ok: false, error: `bad parameters for ${method}: ${issue ? `${issue.path.join('.') || '(root)'} ${issue.message}` : 'invalid'}` };
  }
  return { ok: true, method: method as ApiMethod, params: parsed.data };
}

/** WebSocket frames (the web host's transport). */
export const wsClientFrame = z.object({
  id: z.number().int().min(0),
  method: z.string().max(64),
  params: z.unknown(),
}).strict();

export type WsServerFrame =
  | { id: number; result: unknown }
  | { id: number; error: string }
  | { event: ApiEvent };
