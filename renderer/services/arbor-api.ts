import type { ApiEvent, ApiMethod, ApiParams, ApiResults, MenuCommand } from '../../shared/api/api-contract.ts';
import type { ArborTransport } from './arbor-transport.ts';
import { bridgeTransport, webSocketTransport } from './arbor-transport.ts';

/**
 * The renderer's only door to the host: named functions over the typed contract (shared/api). No
 * component ever sees a channel string or a transport.
 */
let transport: ArborTransport | undefined;

function current(): ArborTransport {
  if (!transport) {
    transport = window.arbor
      ? bridgeTransport(window.arbor)
      : webSocketTransport(`${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/api`);
  }
  return transport;
}

/** Tests and the perf page may run without a host. */
export function setTransport(t: ArborTransport): void {
  transport = t;
}

function call<M extends ApiMethod>(method: M, params: ApiParams<M>): Promise<ApiResults[M]> {
  return current().call(method, params) as Promise<ApiResults[M]>;
}

export const listChannels = () => call('shell.channels', {});
export const fetchTree = (channel: number, step?: number) => call('shell.tree', step === undefined ? { channel } : { channel, step });
export const releaseChannel = (channel: number) => call('shell.release', { channel });
/** An item's derivation as the engine recorded it: item `item`, else the one holding `step`, else the last; up to `step`. */
export const fetchDerivation = (channel: number, query: { item?: number; step?: number }) => call('proof.derivation', { channel, ...query });
export const documentSync = (p: ApiParams<'document.sync'>) => call('document.sync', p);
export const documentRun = (p: ApiParams<'document.run'>) => call('document.run', p);
export const documentCancel = (p: ApiParams<'document.cancel'>) => call('document.cancel', p);
export const documentRestartProver = (p: ApiParams<'document.restartProver'>) => call('document.restartProver', p);
export const documentRestart = (p: ApiParams<'document.restart'>) => call('document.restart', p);
export const documentClose = (p: ApiParams<'document.close'>) => call('document.close', p);
export const documentGet = (p: ApiParams<'document.get'>) => call('document.get', p);
export const documentInserted = (p: ApiParams<'document.inserted'>) => call('document.inserted', p);
/** A look-up in a document's environment (its channel), or in the library when it has none yet. */
export const lookUp = (kind: ApiParams<'proof.lookUp'>['kind'], text: string, channel?: number) =>
  call('proof.lookUp', channel === undefined ? { kind, text } : { kind, text, channel });
export const appInfo = () => call('app.info', {});
export const readFile = (path: string) => call('files.read', { path });
export const writeFile = (path: string, text: string) => call('files.write', { path, text });
export const listDir = (dir?: string) => call('files.list', dir === undefined ? {} : { dir });
export const pickOpenFile = (extensions?: string[]) => call('files.pickOpen', extensions ? { filters: extensions } : {});
export const pickSaveFile = (suggested?: string) => call('files.pickSave', suggested === undefined ? {} : { suggested });
export const saveRecovery = (window: string, uri: string, text: string, path?: string) => call('recovery.save', path === undefined ? { window, uri, text } : { window, uri, text, path });
export const listRecovery = (window: string) => call('recovery.list', { window });
export const discardRecovery = (window: string, uri: string) => call('recovery.discard', { window, uri });
export const getSettings = () => call('settings.get', {});
export const updateSettings = (patch: Record<string, string | number | boolean>) => call('settings.set', { patch });
export const recentFiles = () => call('recent.list', {});
export const detectProvers = () => call('provers.detect', {});
export const readProject = (dir: string) => call('project.read', { dir });
export const coqProject = () => call('project.coq', {});
export const requestProjectTrust = () => call('project.requestTrust', {});
export const trustProject = (code: string) => call('project.trust', { code });
export const vFileDerivations = (path: string) => call('vfile.derivations', { path });
export const vFileCancel = () => call('vfile.cancel', {});

export function onHostEvent(listener: (event: ApiEvent) => void): () => void {
  return current().onEvent(listener);
}

export function onMenuCommand(listener: (command: MenuCommand, arg?: string) => void): () => void {
  return onHostEvent((e) => {
    if (e.kind === 'menu') listener(e.command, e.arg);
  });
}

export const agentFocus = (channel: number, path?: string) => call('agent.focus', path === undefined ? { channel } : { channel, path });
export const agentDecide = (id: number, decision: 'accept' | 'reject') => call('agent.decide', { id, decision });
export const agentUndoAccept = (id: number) => call('agent.undoAccept', { id });
export const agentRunSources = (sources?: string[]) => call('agent.runSources', sources === undefined ? {} : { sources });
export const agentMcpInfo = () => call('agent.mcpInfo', {});
export const agentSetReference = (channel: number, statement: string | null) => call('agent.setReference', { channel, statement });
export const checkStatementFidelity = (params: ApiParams<'fidelity.check'>) => call('fidelity.check', params);
