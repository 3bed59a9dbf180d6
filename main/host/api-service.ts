import type { ShellResponse } from '../../shared/protocol/shell-command.ts';
import type { ApiEvent, ApiMethod, ApiResults, AppInfo, ChannelInfo, apiParamSchemas } from '../../shared/api/api-contract.ts';
import { validateApiCall } from '../../shared/api/api-contract.ts';
import type { ProversReport } from '../../shared/settings/provers-report.ts';
import type { VFileProgress, VFileReport } from '../../shared/derivation/v-file-derivation.ts';
import type { VFileHooks } from './v-file.ts';
import { validateSettingsPatch } from '../../shared/settings/prover-settings.ts';
import type { z } from 'zod';
import { checkFidelity } from '../fidelity/check-fidelity.ts';
import { formatQuery, queryCommand } from '../../shared/protocol/format-query.ts';
import type { QueryAnswer } from '../../shared/protocol/query-answer.ts';
import type { Shell, ShellEvent } from '../shell/shell.ts';
import type { ProcessUsage } from '../supervisor/process-usage.ts';
import { ProcessUsageSampler } from '../supervisor/process-usage.ts';
import type { WorkbenchAgent } from './workbench-agent.ts';
import type { Workspace } from './workspace.ts';
import { readWorkspaceProject } from './workspace-project.ts';
import type { WorkspaceTrust } from './workspace-trust.ts';
import { DocumentSessions } from './document-sessions.ts';
import { TreeFeed } from './tree-feed.ts';
import { DerivationFeed } from './derivation-feed.ts';
import { projectPrelude } from './project-prelude.ts';
import { forksOf } from '../shell/state-forks.ts';
import { ForkAccess } from './fork-access.ts';
import type { ApiCaller } from './fork-access.ts';
import { toShellResponse } from '../shell/command-result.ts';

type Params<M extends ApiMethod> = z.output<(typeof apiParamSchemas)[M]>;

export interface ApiServiceOptions {
  shell: Shell;
  workspace: Workspace;
  info: () => AppInfo;
  /** Native dialogs (Electron); the web host has none and answers null. */
  pickOpen?: (filters?: string[]) => Promise<string | null>;
  pickSave?: (suggested?: string) => Promise<string | null>;
  /** The agent side (suggestion queue, edit history, MCP); without it the `agent.*` methods fail. */
  agent?: WorkbenchAgent;
  /** The Provers page: backend detection with the user's settings; without it `provers.detect` fails. */
  detectProvers?: () => Promise<ProversReport>;
  /**
   * A setting that names a program Arbor will run (`lean.pantograph`, `isabelle.server`) is never taken
   * from an API call alone: the desktop app asks the user in a native dialog; without this (the web host,
   * whose clients are any page that got the token) such settings are refused and come only from the
   * user's settings file or the environment.
   */
  confirmProgramSetting?: (key: string, value: string) => Promise<boolean>;
  /**
   * The workspace's one grant (`project.coq`, `project.requestTrust`, `project.trust`): load paths and declared
   * axioms; `fidelity.check` runs with its load paths. Without it there is no project.
   */
  trust?: WorkspaceTrust;
  /** Opens a `.v` file as derivations (the Coq backend's runner, with the trusted project's load paths); without it `vfile.derivations` fails. */
  vFile?: (text: string, hooks: VFileHooks) => Promise<VFileReport>;
  /** How long typing must pause before an edited document is re-checked (default 600 ms). */
  recheckDelayMs?: number;
}

/**
 * Settings whose value is a program Arbor runs. A Lake project directory is one: `lake env` runs its
 * lakefile (a Lean program), and what that prints (LEAN_PATH) becomes paths the provers' sandbox may read.
 */
export const PROGRAM_SETTING_KEYS: readonly string[] = ['lean.pantograph', 'isabelle.server', 'lean.projectDir'];

export interface ApiService {
  /**
   * Validates and runs one untrusted call; throws an Error whose message goes back to the caller. `caller`
   * says which channels the calling client opened (the web host knows per socket); without it, none.
   */
  call(method: unknown, params: unknown, caller?: ApiCaller): Promise<unknown>;
  onEvent(listener: (event: ApiEvent) => void): () => void;
  /** Push a menu command (Electron) to every listener. */
  emit(event: ApiEvent): void;
  /** A client (window, tab) went away: its documents are closed and their channels stopped. */
  closeClient(client: string): Promise<void>;
  /** A client that listed `window`'s recovery went away: one claim on it ends (see Workspace.listRecovery). */
  releaseRecovery(window: string): void;
  dispose(): void;
}

/** How often a `.v` run's progress is sent to the workbench, at most. */
const PROGRESS_EVERY_MS = 250;

/**
 * The workbench API over a shell and a workspace, independent of transport: Electron's IPC and the web
 * host's WebSocket both go through `call`, so validation (zod, `validateApiCall`) happens in exactly one place.
 */
export function createApiService(options: ApiServiceOptions): ApiService {
  const { shell, workspace, agent } = options;
  const listeners = new Set<(event: ApiEvent) => void>();
  /** The `.v` file being read (`vfile.derivations`), for `vfile.cancel`. */
  let vFileRun: AbortController | undefined;
  const emit = (event: ApiEvent): void => {
    for (const l of listeners) l(event);
  };
  const usage = new Map<number, ProcessUsage>();
  // Look-ups for documents that have no channel yet run on one channel of the host's own.
  let lookUpChannelId: Promise<number> | undefined;
  let lookUpChannelNumber: number | undefined;
  const lookUpChannel = (): Promise<number> => {
    lookUpChannelId ??= shell.openChannel().then((r) => {
      if (!r.ok || r.opened === undefined) {
        lookUpChannelId = undefined;
        throw new Error(`no channel for look-ups: ${r.ok ? 'no channel' : r.error}`);
      }
      lookUpChannelNumber = r.opened;
      return r.opened;
    });
    return lookUpChannelId;
  };
  const channels = (): ChannelInfo[] => shell.channelIds().map((id) => {
    const s = shell.channelStatus(id);
    const info: ChannelInfo = { id, backend: s?.backend ?? '?', busy: s?.busy ?? false, step: s?.step ?? 0, finished: s?.finished ?? false };
    if (s?.pid !== undefined) {
      info.pid = s.pid;
      const u = usage.get(s.pid);
      if (u) {
        info.cpuPercent = Math.round(u.cpuPercent);
        info.rssMb = Math.round(u.rssMb);
      }
    }
    return info;
  });
  // The channels panel shows each prover's CPU and memory: sample them every two seconds while anyone listens.
  const sampler = new ProcessUsageSampler();
  const sampleUsage = async (): Promise<void> => {
    if (listeners.size === 0) return;
    const pids = shell.channelIds().map((id) => shell.channelStatus(id)?.pid).filter((p): p is number => p !== undefined);
    sampler.retain(pids);
    for (const pid of [...usage.keys()]) if (!pids.includes(pid)) usage.delete(pid);
    for (const pid of pids) {
      const u = await sampler.sample(pid);
      if (u) usage.set(pid, u);
    }
    emit({ kind: 'channels', channels: channels() });
  };
  const usageTimer = setInterval(() => void sampleUsage(), 2000);
  usageTimer.unref();
  const trees = new TreeFeed(shell);
  const derivations = new DerivationFeed(shell);
  // Channels of clients' scratch work (agents' tries, documents' forks): their traffic is theirs, not every window's.
  const scratch = new Set<number>();
  const unsubscribe = shell.onEvent((event: ShellEvent) => {
    if (event.kind !== 'channels' && scratch.has(event.kind === 'request' ? event.channel : event.response.CHANNEL)) {
      if (event.kind === 'response') queueMicrotask(() => emit({ kind: 'channels', channels: channels() }));
      return;
    }
    switch (event.kind) {
      case 'request':
        // One `channels` event per command, after its answer: the request itself tells clients the channel
        // is busy now (or queued), as the renderer's store reads it.
        emit({ kind: 'request', channel: event.channel, text: event.text, time: event.time });
        break;
      case 'response': {
        const { response } = event;
        const step = response.STEP;
        // The engine says whether its response is the state (then never built here); other backends' states are values already.
        const isState = event.result.isState === true || (response.RESPONSE !== null && typeof response.RESPONSE === 'object' && 'goal' in response.RESPONSE);
        if (step !== undefined && !response.ERR && isState) {
          // The state goes to clients once, as a change of the tree, not again in full with every response.
          emit({ kind: 'response', response: toShellResponse(event.result, { without: true }), time: event.time, stateInTree: true });
        } else {
          emit({ kind: 'response', response, time: event.time });
        }
        if (step !== undefined) {
          // Read the tree synchronously: the channel's next command cannot have started yet (see Shell.enqueue).
          const { seq, change } = trees.changeAfterStep(response.CHANNEL, event.result.ok ? event.result.tree : undefined);
          emit({ kind: 'tree', channel: response.CHANNEL, step, seq, change });
        }
        emit({ kind: 'channels', channels: channels() });
        break;
      }
      case 'channels':
        trees.retain(shell.channelIds());
        for (const c of scratch) if (!shell.channelStatus(c)) scratch.delete(c);
        emit({ kind: 'channels', channels: channels() });
        break;
    }
  });

  const unsubscribeAgent = agent?.onEvent(emit);
  const documents = new DocumentSessions({
    shell,
    prelude: (path) => {
      const i = options.info();
      return projectPrelude({ path, workspace: i.workspace, backend: i.backend, readProject: (dir) => readWorkspaceProject(dir, (f) => workspace.read(f, { remember: false }).then((r) => r.text)) });
    },
    emit,
    onChannel: (channel) => agent?.adopt(channel),
    fork: (channel, step) => forksOf(shell).fork(channel, step),
    ...(options.recheckDelayMs !== undefined ? { recheckDelayMs: options.recheckDelayMs } : {}),
  });
  // Agents are clients of the same document sessions as the editor: their proof commands on a
  // document's channel go into the document (see DocumentSessions.clientCommand).
  const submitAsClient = async (line: string, source: string): Promise<ShellResponse[]> => {
    const responses = await documents.clientCommand(line, source, (direct) => Promise.all(shell.submitLine(direct)));
    // A channel a client opened is its scratch space (NEW_CHANNEL answers `{ ID }`): its later traffic stays off the broadcast.
    for (const r of responses) if (isChannelOpened(r)) scratch.add(r.RESPONSE.ID);
    return responses;
  };
  agent?.routeCommands((line, source) => submitAsClient(line, source));
  agent?.readDocumentScripts((channel) => documents.scriptOf(channel));
  const requireAgent = (): WorkbenchAgent => {
    if (!agent) throw new Error('the agent side is not running in this host');
    return agent;
  };

  const forkAccess = new ForkAccess({ shell, scratch, documentChannel: (client, uri) => documents.get(client, uri)?.channel, hostChannel: () => lookUpChannelNumber, isDocumentChannel: (c) => documents.isDocumentChannel(c) });

  const handlers: { [M in ApiMethod]: (p: Params<M>, caller?: ApiCaller) => Promise<ApiResults[M]> } = {
    'shell.submit': (p, caller) => {
      forkAccess.checkSubmit(p.line, caller);
      return submitAsClient(p.line, 'agent:attached');
    },
    'shell.channels': () => Promise.resolve(channels()),
    'shell.tree': (p) => Promise.resolve(trees.snapshot(p.channel, p.step)),
    'proof.derivation': (p) => Promise.resolve(derivations.derivation(p.channel, { ...(p.item !== undefined ? { item: p.item } : {}), ...(p.step !== undefined ? { step: p.step } : {}) })),
    'shell.release': async (p, caller) => {
      forkAccess.checkRelease(p.channel, caller);
      await shell.cancel(p.channel);
      return null;
    },
    'document.sync': (p) => Promise.resolve(documents.sync(p.client, p.uri, {
      version: p.version, text: p.text, ...(p.path !== undefined ? { path: p.path } : {}), ...(p.edit ? { edit: p.edit } : {}),
    })),
    'document.run': (p) => documents.run(p.client, p.uri, p.action),
    'document.cancel': (p) => documents.cancel(p.client, p.uri),
    'document.restartProver': (p) => documents.restartProver(p.client, p.uri),
    'document.restart': (p) => documents.restart(p.client, p.uri),
    'document.close': async (p) => {
      await documents.close(p.client, p.uri);
      return null;
    },
    'document.inserted': async (p) => {
      documents.inserted(p.client, p.uri, p.id, { ...(p.line !== undefined ? { line: p.line } : {}), ...(p.refused !== undefined ? { refused: p.refused } : {}) });
      return null;
    },
    'document.get': (p) => Promise.resolve(documents.get(p.client, p.uri) ?? null),
    'document.fork': async (p) => {
      const fork = await documents.fork(p.client, p.uri, p.line);
      scratch.add(fork.channel);
      return fork;
    },
    'document.releaseFork': async (p) => {
      await documents.releaseFork(p.client, p.uri, p.channel);
      return null;
    },
    'fork.try': (p, caller) => forkAccess.try(p, caller),
    'fork.adopt': async (p, caller) => {
      const fork = await forkAccess.adopt(p, caller);
      scratch.add(fork.channel);
      return fork;
    },
    'proof.lookUp': async (p) => {
      const channel = p.channel ?? await lookUpChannel();
      // The renderer's text is untrusted: it goes through the protocol's parser (its argument checks) like any client's.
      const [response] = await Promise.all(shell.submitLine(`${channel} ${formatQuery(queryCommand(p.kind, p.text))}`));
      if (!response) return { error: 'internal error: no response' };
      return response.ERR !== '' ? { error: response.ERR } : { answer: response.RESPONSE as QueryAnswer };
    },
    'app.info': () => Promise.resolve(options.info()),
    'files.read': (p) => workspace.read(p.path),
    'files.write': async (p) => {
      const written = await workspace.write(p.path, p.text);
      // The proof's edit history goes next to it (FILE.arbor.edits.json); the proof is saved either way.
      await agent?.saveHistory(written.path).catch(() => undefined);
      return written;
    },
    'files.list': (p) => workspace.list(p.dir),
    'files.pickOpen': (p) => options.pickOpen ? options.pickOpen(p.filters) : Promise.resolve(null),
    'files.pickSave': (p) => options.pickSave ? options.pickSave(p.suggested) : Promise.resolve(null),
    'recovery.save': async (p) => {
      await workspace.saveRecovery({ uri: p.uri, text: p.text, ...(p.path !== undefined ? { path: p.path } : {}), ...(p.window !== undefined ? { window: p.window } : {}) });
      return null;
    },
    'recovery.list': (p) => workspace.listRecovery(p.window),
    'recovery.discard': async (p) => {
      await workspace.discardRecovery(p.uri, p.window);
      return null;
    },
    'settings.get': () => workspace.settings(),
    'settings.set': async (p) => {
      // The prover settings end up on a command line: only values that pass their schema are stored.
      const valid = validateSettingsPatch(p.patch);
      if (!valid.ok) throw new Error(valid.error);
      for (const key of PROGRAM_SETTING_KEYS) {
        if (!Object.hasOwn(p.patch, key)) continue;
        const value = String(p.patch[key]);
        const confirmed = options.confirmProgramSetting ? await options.confirmProgramSetting(key, value) : false;
        if (!confirmed) {
          throw new Error(options.confirmProgramSetting
            ? `setting ${key}: not confirmed`
            : `setting ${key}: a program to run is never set through this page; put it in ${workspace.settingsPath()} or the environment (see the Provers page)`);
        }
      }
      return workspace.updateSettings(p.patch);
    },
    'recent.list': () => workspace.recent(),
    'project.read': (p) => readWorkspaceProject(p.dir, (path) => workspace.read(path, { remember: false }).then((r) => r.text)),
    'project.coq': async () => {
      // Read again: a file created or changed since start shows (a changed file is untrusted until asked again).
      await options.trust?.load();
      return options.trust?.status() ?? null;
    },
    'project.requestTrust': async () => (options.trust ? options.trust.request() : null),
    'project.trust': async (p) => {
      if (!options.trust) throw new Error('this workspace has no project file');
      return options.trust.grant(p.code);
    },
    'vfile.derivations': async (p) => {
      if (!options.vFile) throw new Error('opening .v files needs the Coq backend');
      const { text } = await workspace.read(p.path);
      // One run at a time: opening another file stops the one still reading (it keeps what it read).
      vFileRun?.abort();
      const run = new AbortController();
      vFileRun = run;
      // At most a few progress events a second: List.v has 2,842 sentences, and each event re-renders the panel.
      let sent = 0;
      const onProgress = (progress: VFileProgress): void => {
        const now = performance.now();
        if (now - sent < PROGRESS_EVERY_MS) return;
        sent = now;
        emit({ kind: 'vfile-progress', path: p.path, progress });
      };
      try {
        return await options.vFile(text, { signal: run.signal, onProgress });
      } finally {
        if (vFileRun === run) vFileRun = undefined;
      }
    },
    'vfile.cancel': async () => {
      const going = vFileRun !== undefined;
      vFileRun?.abort();
      return going;
    },
    'provers.detect': () => options.detectProvers ? options.detectProvers() : Promise.reject(new Error('provers.detect is not available in this host')),
    'agent.focus': (p) => requireAgent().focus(p.channel, p.path),
    'agent.suggestions': async () => requireAgent().snapshot().suggestions,
    'agent.decide': async (p) => requireAgent().decide(p.id, p.decision),
    'agent.history': async () => requireAgent().snapshot().history,
    'agent.undoAccept': async (p) => requireAgent().undoAccept(p.id),
    'agent.runSources': (p) => requireAgent().runSources(p.sources),
    'agent.mcpInfo': async () => agent?.mcpInfo() ?? null,
    'agent.setReference': async (p) => {
      requireAgent().setReference(p.channel, p.statement);
      return null;
    },
    'fidelity.check': (p) => checkFidelity({
      canonical: p.canonical, candidate: p.candidate, backend: p.backend ?? 'coq',
      ...(p.context ? { context: p.context } : {}), ...(p.timeoutMs !== undefined ? { timeoutMs: p.timeoutMs } : {}),
    }, undefined, options.trust?.projectArgs()),
  };

  return {
    async call(method, params, caller) {
      const checked = validateApiCall(method, params);
      if (!checked.ok) throw new Error(checked.error);
      const handler = handlers[checked.method] as (p: unknown, caller?: ApiCaller) => Promise<unknown>;
      return handler(checked.params, caller);
    },
    onEvent(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    emit,
    closeClient: (client) => documents.closeClient(client),
    releaseRecovery: (window) => workspace.releaseRecovery(window),
    dispose() {
      clearInterval(usageTimer);
      unsubscribe();
      unsubscribeAgent?.();
      listeners.clear();
    },
  };
}

function isChannelOpened(r: ShellResponse): r is ShellResponse & { RESPONSE: { ID: number } } {
  const v = r.RESPONSE;
  return r.ERR === '' && v !== null && typeof v === 'object' && Object.keys(v).length === 1 && typeof (v as { ID?: unknown }).ID === 'number';
}
