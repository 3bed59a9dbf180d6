import { formatStatementMeaning } from '../../shared/protocol/statement-meaning.ts';
import { provedWording } from '../../shared/protocol/section-premises.ts';
import type { ApiEvent } from '../../shared/api/api-contract.ts';
import { untitledTitle, WINDOW_ID } from '../store/documents-slice.ts';
import { scriptFile } from '../../shared/scripts/script-file.ts';
import { parseTranscript } from '../../shared/transcript/parse-transcript.ts';
import { syntheticDerivation } from '../../shared/derivation/synthetic-derivation.ts';
import { syntheticTree } from '../../shared/tree-layout/synthetic-tree.ts';
import type { TreeView } from '../../shared/proof-tree/proof-tree.ts';
import { useArbor } from '../store/store.ts';
import * as api from './arbor-api.ts';
import { checker, receiveDocumentPatch, syncDocument } from './document-client.ts';
import { createModel, disposeModel, getModel } from './monaco-models.ts';
import { download } from './download.ts';
import { forgetTreeCopy, receiveTreeChange } from './tree-sync.ts';
import { rememberTabs, savedTabs } from './open-tabs.ts';
import type { SavedTabs } from './open-tabs.ts';
import { followDerivations } from './derivation-sync.ts';
import { followCursorGoals } from './cursor-goals.ts';
import { insertClientCommand } from './agent.ts';

export { checker } from './document-client.ts';

const store = (): ReturnType<typeof useArbor.getState> => useArbor.getState();

/** Connects host events to the store and restores the session (recovered buffers, else an example). */
export async function startWorkbench(): Promise<void> {
  api.onHostEvent(handleEvent);
  followDerivations();
  followCursorGoals();
  const params = new URLSearchParams(location.search);
  const synthetic = Number(params.get('synthetic') ?? 0);
  if (synthetic > 0) {
    // Performance mode: a synthetic tree, no host needed.
    const t0 = performance.now();
    // `&shape=derivation`: a finished-looking derivation (closed runs, splits, one open path) instead.
    const size = Math.min(synthetic, 200_000);
    // `&shape=given`: a recorded tree the page was handed (`window.__arborGivenTree`, the fit benchmark's real derivations).
    const given = (window as { __arborGivenTree?: TreeView }).__arborGivenTree;
    const tree = params.get('shape') === 'given' && given ? given : params.get('shape') === 'derivation' ? syntheticDerivation(size) : syntheticTree(size);
    perf().generateMs = performance.now() - t0;
    // The tree arrives once the app has started (as a prover's tree does, seconds after start-up), so
    // the measurement is the tree's own cost, not Monaco's start-up. First paint is measured from here.
    await new Promise<void>((resolve) => {
      const idle = (window as { requestIdleCallback?: (cb: () => void, o?: { timeout: number }) => number }).requestIdleCallback;
      if (idle) idle(() => resolve(), { timeout: 3000 });
      else setTimeout(resolve, 500);
    });
    perf().treeArrivedAt = performance.now();
    store().setSynthetic(tree);
    return;
  }
  try {
    store().setAppInfo(await api.appInfo());
    store().setConnected(true);
    store().setChannels(await api.listChannels());
    store().setMcpInfo(await api.agentMcpInfo().catch(() => null));
  } catch (err) {
    store().addMessage('error', `host: ${(err as Error).message}`);
    return;
  }
  void refreshProjectStatus();
  const info = store().host.info;
  if (info && !info.backendAvailable) store().addMessage('error', `prover backend ${info.backend} not available: ${info.problems.join('; ')}`);
  // Read before anything changes the store: from now on the tab list follows it.
  const before = savedTabs();
  rememberTabs();
  const recovered = await api.listRecovery(WINDOW_ID).catch(() => []);
  for (const r of recovered) {
    const uri = r.uri;
    if (getModel(uri)) continue;
    createModel(uri, r.text);
    store().addDocument({ uri, title: r.path ? baseName(r.path) : untitledTitle(uri), dirty: true, ...(r.path ? { path: r.path } : {}) });
    watchModel(uri);
  }
  if (recovered.length > 0) store().addMessage('info', `Recovered ${recovered.length} unsaved buffer(s).`);
  if (before) await restoreTabs(before);
  const open = params.get('open');
  if (open) await openPath(open);
  else if (store().documents.order.length === 0 && params.has('new')) newDocument();
  else if (store().documents.order.length === 0) await openExample(info?.examplesDir);
}

/**
 * After a reload: the window's tabs again, in their order — saved files from disk, clean untitled ones
 * from their text (unsaved ones came back from recovery) — each checked again as far as it was.
 */
async function restoreTabs(saved: SavedTabs): Promise<void> {
  for (const tab of saved.tabs) {
    if (getModel(tab.uri)) {
      // Recovered unsaved: an untitled tab keeps the title it had (an example's copy keeps its name).
      if (tab.path === undefined && store().documents.docs[tab.uri]) store().patchDocument(tab.uri, { title: tab.title });
      continue;
    }
    if (tab.path !== undefined) await openPath(tab.path);
    else if (tab.text !== undefined && tab.uri.startsWith('untitled:')) {
      createModel(tab.uri, tab.text);
      store().addDocument({ uri: tab.uri, title: tab.title, dirty: false });
      watchModel(tab.uri);
    }
  }
  store().reorderDocuments(saved.tabs.map((t) => t.uri));
  if (saved.active && store().documents.docs[saved.active]) store().setActiveDocument(saved.active);
  for (const tab of saved.tabs) {
    if (tab.checkedThrough === undefined || !getModel(tab.uri)) continue;
    await syncDocument(tab.uri).then(() => checker.checkThrough(tab.uri, tab.checkedThrough as number), (err: unknown) => {
      store().addMessage('error', `check ${tab.title} again: ${(err as Error).message}`);
    });
  }
}

/** A newcomer's first view: an example proof as an untitled copy (Save asks where it goes). */
async function openExample(examplesDir: string | undefined): Promise<void> {
  const name = '02-fold-left-right.arbor';
  try {
    if (!examplesDir) throw new Error('no examples folder');
    const file = await api.readFile(`${examplesDir}/${name}`);
    const uri = newDocument(file.text);
    store().patchDocument(uri, { title: `Example ${name}`, dirty: false });
    store().addMessage('info', `Opened the example ${name}: ▶▶ Run all checks it; the tree shows its shape.`);
  } catch {
    newDocument();
  }
}

function handleEvent(event: ApiEvent): void {
  const s = store();
  switch (event.kind) {
    case 'vfile-progress':
      s.vFileProgress(event.path, event.progress);
      break;
    case 'request':
      s.appendLive({ kind: 'request', time: event.time, channel: event.channel, text: event.text });
      s.markBusy(event.channel);
      break;
    case 'response':
      s.appendLive({ kind: 'response', time: event.time, response: event.response });
      // The END that finishes a proof carries its reproduction script; any later step (a REVERT) voids it.
      // A failed HAMMER/END says what it tried, stage by stage.
      if (event.response.ERR && event.response.HAMMER_REPORT) {
        // About the document checked on that channel (an agent's scratch copies have none): the problems
        // list shows it on its line, as one line built from the report, the stages on demand.
        const doc = Object.values(s.documents.docs).find((d) => d.channel === event.response.CHANNEL);
        if (doc) s.receiveHammerFailure(event.response.CHANNEL, event.response.ERR, event.response.HAMMER_REPORT);
      }
      if (event.response.STATEMENT) {
        // The finished proof's statement means something else than its text reads (issue 21): say so, beside the proof.
        const doc = Object.values(s.documents.docs).find((d) => d.channel === event.response.CHANNEL);
        if (doc) s.addMessage('error', formatStatementMeaning(event.response.STATEMENT), doc.uri);
      }
      if (event.response.PREMISES?.length && event.response.STEP !== undefined) {
        // Proved inside a section under its hypotheses: the problems list's line says so, and so does Messages.
        s.receivePremises(event.response.CHANNEL, event.response.STEP, event.response.PREMISES);
        const doc = Object.values(s.documents.docs).find((d) => d.channel === event.response.CHANNEL);
        if (doc) s.addMessage('info', `END: ${provedWording(event.response.PREMISES)} (the theorem is conditional on them once the section ends).`, doc.uri);
      } else if (event.response.STEP !== undefined && s.problems.premises?.[event.response.CHANNEL]?.[event.response.STEP]) {
        // That step was redone (after a REVERT) without premises: the old ones are not its.
        s.receivePremises(event.response.CHANNEL, event.response.STEP, []);
      }
      if (event.response.SCRIPT !== undefined) s.receiveScript(event.response.CHANNEL, event.response.SCRIPT, event.response.STATEMENT);
      else if (event.response.STEP !== undefined && !event.response.ERR) s.receiveScript(event.response.CHANNEL, null);
      break;
    case 'tree':
      receiveTreeChange(event);
      perf().liveStep = event.step;
      break;
    case 'channels':
      s.setChannels(event.channels);
      break;
    case 'suggestion':
      s.receiveSuggestion(event.channel, event.suggestion);
      break;
    case 'edit':
      s.receiveEdit(event.channel, event.record);
      break;
    case 'document':
      receiveDocumentPatch(event.patch);
      break;
    case 'document-insert':
      void insertClientCommand(event);
      break;
    case 'document-message':
      // A failing line's error is the problems list's (it leaves when the line changes); the log keeps the rest.
      if (event.client === WINDOW_ID && !(event.level === 'error' && /^line [0-9]+: /.test(event.text))) s.addMessage(event.level, event.text, event.uri);
      break;
    case 'menu':
      break;
  }
}

export function newDocument(text = ''): string {
  const uri = store().nextUntitled();
  createModel(uri, text);
  store().addDocument({ uri, title: untitledTitle(uri), dirty: false });
  watchModel(uri);
  return uri;
}

export async function openPath(path: string): Promise<void> {
  if (/\.v$/i.test(path)) return openVFile(path);
  try {
    const file = await api.readFile(path);
    const examples = store().host.info?.examplesDir;
    if (examples && isInside(file.path, examples)) {
      // The shipped examples are never edited: an example opens as an untitled copy (Save asks where).
      const copy = newDocument(file.text);
      store().patchDocument(copy, { title: baseName(file.path), dirty: false });
      store().addMessage('info', `Opened a copy of the example ${baseName(file.path)}: Save asks where to keep it.`);
      return;
    }
    const uri = `file://${file.path}`;
    const existing = getModel(uri);
    if (existing) {
      store().setActiveDocument(uri);
      return;
    }
    createModel(uri, file.text);
    store().addDocument({ uri, title: baseName(file.path), path: file.path, dirty: false });
    watchModel(uri);
  } catch (err) {
    store().addMessage('error', `open ${path}: ${(err as Error).message}`);
  }
}

export async function saveDocument(uri: string, saveAs = false): Promise<void> {
  const doc = store().documents.docs[uri];
  const model = getModel(uri);
  if (!doc || !model) return;
  let path = saveAs ? undefined : doc.path;
  if (!path) {
    path = (await api.pickSaveFile(`${doc.title.replace(/\s+/g, '-').toLowerCase()}.arbor`)) ?? undefined;
    if (!path) {
      store().setOpenDialog('save');
      return;
    }
  }
  await saveTo(uri, path);
}

export async function saveTo(uri: string, path: string): Promise<void> {
  const model = getModel(uri);
  if (!model) return;
  try {
    const text = model.getValue();
    const saved = await api.writeFile(path, text);
    // Text typed while the write was on its way is not on disk: it stays dirty, and in recovery.
    const dirty = !model.isDisposed() && model.getValue() !== text;
    store().patchDocument(uri, { path: saved.path, title: baseName(saved.path), dirty });
    if (dirty) saveRecoveryNow(uri);
    else await api.discardRecovery(WINDOW_ID, uri);
    store().addMessage('info', `Saved ${saved.path}`);
  } catch (err) {
    store().addMessage('error', `save: ${(err as Error).message}`);
  }
}

/**
 * Closes a tab. One with unsaved changes is not closed but asked about (Save / Don't save / Cancel, the
 * close dialog); its recovery stays until the answer. `discard`: the answer was Don't save.
 */
export async function closeDocument(uri: string, discard = false): Promise<void> {
  const doc = store().documents.docs[uri];
  if (doc?.dirty && !discard) {
    store().setClosing(uri);
    return;
  }
  // The host stops the document's channel.
  await checker.close(uri).catch(() => undefined);
  if (doc?.channel !== undefined) {
    forgetTreeCopy(doc.channel);
    store().forgetChannel(doc.channel);
  }
  await api.discardRecovery(WINDOW_ID, uri).catch(() => undefined);
  recoverySaves.delete(uri);
  disposeModel(uri);
  store().closeDocument(uri);
}

/** The close dialog's Save: saves (a file of its own, or Save as) and closes once nothing is unsaved. */
export async function saveAndClose(uri: string): Promise<void> {
  store().setClosing(null);
  await saveDocument(uri);
  const doc = store().documents.docs[uri];
  if (doc && !doc.dirty) await closeDocument(uri);
  else if (doc) store().addMessage('info', `${doc.title} is still open: save it (Save as), then close it.`);
}

/** Per document: a recovery save on its way, and whether another change came since it left. */
const recoverySaves = new Map<string, { inFlight: boolean; again: boolean; refused?: string }>();

/**
 * Nothing typed is lost: every change goes to the recovery store at once — one save on its way per
 * document, the latest text sent as soon as it is back — and whatever is dirty is sent again when the
 * page is hidden or unloaded.
 */
function saveRecoveryNow(uri: string): void {
  const state = recoverySaves.get(uri) ?? { inFlight: false, again: false };
  recoverySaves.set(uri, state);
  if (state.inFlight) {
    state.again = true;
    return;
  }
  const doc = store().documents.docs[uri];
  const model = getModel(uri);
  if (!doc?.dirty || !model) return;
  state.inFlight = true;
  api.saveRecovery(WINDOW_ID, uri, model.getValue(), doc.path).then(() => {
    state.refused = undefined;
  }, (err: Error) => {
    // Say it once per cause: a refused recovery (too large, too many) is the user's to act on.
    if (state.refused !== err.message) store().addMessage('error', `Unsaved changes of ${doc.title} are not kept for recovery: ${err.message}`);
    state.refused = err.message;
  }).finally(() => {
    state.inFlight = false;
    if (state.again) {
      state.again = false;
      saveRecoveryNow(uri);
    }
  });
}

function flushRecovery(): void {
  for (const uri of store().documents.order) {
    const doc = store().documents.docs[uri];
    const model = getModel(uri);
    if (doc?.dirty && model) void api.saveRecovery(WINDOW_ID, uri, model.getValue(), doc.path).catch(() => undefined);
  }
}

if (typeof window !== 'undefined') {
  window.addEventListener('pagehide', flushRecovery);
  window.addEventListener('beforeunload', flushRecovery);
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'hidden') flushRecovery();
  });
}

/** Marks the document dirty, autosaves it to a recovery file, and tells the checker what changed. */
function watchModel(uri: string): void {
  const model = getModel(uri);
  if (!model) return;
  // The host owns the document from now on: it gets the text, and every change after.
  void syncDocument(uri).catch((err: unknown) => store().addMessage('error', `open in host: ${(err as Error).message}`));
  model.onDidChangeContent((e) => {
    if (!store().documents.docs[uri]?.dirty) store().patchDocument(uri, { dirty: true });
    let first = Infinity;
    let delta = 0;
    for (const c of e.changes) {
      // Enter at the end of a line leaves that line as it was: the change begins on the next one (so the
      // checked line above a new line stays checked, and its state stays at the cursor).
      const atLineEnd = c.range.startLineNumber === c.range.endLineNumber && c.range.startColumn === c.range.endColumn && /^\r?\n/.test(c.text) && model.getLineMaxColumn(c.range.startLineNumber) === c.range.startColumn;
      first = Math.min(first, c.range.startLineNumber + (atLineEnd ? 1 : 0));
      delta += (c.text.match(/\n/g)?.length ?? 0) - (c.range.endLineNumber - c.range.startLineNumber);
    }
    if (first !== Infinity) void syncDocument(uri, { firstLine: first, lineDelta: delta }).catch((err: unknown) => store().addMessage('error', `sync: ${(err as Error).message}`));
    saveRecoveryNow(uri);
  });
}

/**
 * A `.v` file opens as derivations (read-only): the host runs its sentences in a sandboxed prover and
 * sends every theorem's derivation after each step; the tree pane shows them, the `.v file` tab steps.
 */
export async function openVFile(path: string): Promise<void> {
  let text: string;
  try {
    text = (await api.readFile(path)).text;
  } catch (err) {
    store().addMessage('error', `open ${path}: ${(err as Error).message}`);
    return;
  }
  const run = store().startVFile(path, text);
  store().setTreeSource('vfile');
  store().setTreeView('derivation');
  store().setBottomTab('vfile');
  try {
    const report = await api.vFileDerivations(path);
    // Opened again meanwhile (the host cancelled this run for the newer one): the newer one answers.
    if (store().vfile.run !== run) return;
    store().receiveVFile(path, report, undefined, run);
    if (report.stopped?.cancelled) store().addMessage('info', `${baseName(path)}: ${report.stopped.message}`);
    else if (report.stopped) store().addMessage('error', `${baseName(path)}: line ${report.stopped.line}: ${report.stopped.message}`);
  } catch (err) {
    if (store().vfile.run !== run) return;
    store().receiveVFile(path, null, (err as Error).message, run);
    store().addMessage('error', `open ${path}: ${(err as Error).message}`);
  }
}

/** The workspace's `_CoqProject` and whether it is trusted (the banner above the editor says so). */
export async function refreshProjectStatus(): Promise<void> {
  try {
    store().setProjectStatus(await api.coqProject());
  } catch {
    store().setProjectStatus(null);
  }
}

export async function loadTranscriptText(name: string, text: string): Promise<void> {
  const parsed = parseTranscript(text);
  store().loadTranscript(name, parsed.entries, parsed.problems.length);
  // Open on the first proof state (a replay's first step), not on the request before it.
  const first = parsed.entries.findIndex((e) => e.kind === 'response' && !e.response.ERR && e.response.STEP !== undefined);
  if (first > 0) store().setTranscriptCursor(first);
  store().setTreeSource('transcript');
  store().setBottomTab('transcript');
  if (parsed.problems.length) store().addMessage('error', `${name}: ${parsed.problems.length} unreadable line(s) skipped`);
}

/** Saves a finished proof's reproduction script as the file its prover checks (`.v`, `.thy`, `.lean`). */
export function saveReproductionScript(script: string): void {
  const s = store();
  const doc = s.documents.activeUri ? s.documents.docs[s.documents.activeUri] : undefined;
  const file = scriptFile(s.host.info?.backend ?? 'coq', script, doc?.title);
  download(file.name, new Blob([file.text], { type: 'text/plain' }));
}

export interface PerfRecord {
  generateMs?: number;
  treeArrivedAt?: number;
  layoutMs?: number;
  firstPaintMs?: number;
  nodes?: number;
  drawTimes?: number[];
  /** The last step whose tree reached the store (the live-path benchmark waits on it). */
  liveStep?: number;
  /** When the goals panel last showed the goals at a line (bench/goals-at-cursor.bench.ts). */
  goalsShown?: { line: number; at: number };
}

/** Numbers the e2e benchmark reads (`window.__arborPerf`). */
export function perf(): PerfRecord {
  const w = window as unknown as { __arborPerf?: PerfRecord };
  return (w.__arborPerf ??= {});
}

/** Whether `path` is `dir` or inside it (either separator). */
function isInside(path: string, dir: string): boolean {
  const d = dir.replace(/[\\/]+$/, '');
  return path === d || path.startsWith(`${d}/`) || path.startsWith(`${d}\\`);
}

function baseName(path: string): string {
  return path.split(/[\\/]/).pop() ?? path;
}
