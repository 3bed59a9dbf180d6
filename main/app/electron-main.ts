import { app, dialog, ipcMain } from 'electron';
import type { BrowserWindow, IpcMainInvokeEvent } from 'electron';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ApiEvent, MenuCommand } from '../../shared/api/api-contract.ts';
import { createApiService } from '../host/api-service.ts';
import type { ApiService } from '../host/api-service.ts';
import { appInfo } from '../host/workbench-shell.ts';
import { composeWorkbench } from '../host/compose-workbench.ts';
import type { WorkbenchShell } from '../host/workbench-shell.ts';
import { ChannelOwnership } from '../host/channel-ownership.ts';
import type { WorkbenchAgent } from '../host/workbench-agent.ts';
import { Workspace } from '../host/workspace.ts';
import { WorkspaceTrust, type TrustQuestion } from '../host/workspace-trust.ts';
import { openVFile, type VFileHooks } from '../host/v-file.ts';
import { buildAppMenu } from './app-menu.ts';
import { APP_ORIGIN, registerAppScheme, serveRenderer } from './app-protocol.ts';
import { createAppWindow, denyAllPermissions, preloadFile } from './app-window.ts';

// Bundled to dist/main/app/electron-main.js; the renderer is dist/renderer, preload dist/preload.
const distDir = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const examplesDir = app.isPackaged ? join(process.resourcesPath, 'examples') : resolve(distDir, '..', 'resources', 'examples');

registerAppScheme();
if (!app.requestSingleInstanceLock()) app.quit();

let win: BrowserWindow | undefined;
let service: ApiService | undefined;
let workbench: WorkbenchShell | undefined;
let workspace: Workspace | undefined;
let agent: WorkbenchAgent | undefined;

/** Only our own page may call the API (not a frame that navigated elsewhere). */
function trusted(event: IpcMainInvokeEvent): boolean {
  const url = event.senderFrame?.url ?? '';
  return url.startsWith(`${APP_ORIGIN}/`) && event.sender === win?.webContents;
}

/**
 * The workspace's one grant, asked natively (no page can draw or answer it): everything a yes covers is
 * shown — the folders provers may read, the Coq options, the assumptions proofs may use — and what is ignored.
 */
async function confirmWorkspace(q: TrustQuestion): Promise<boolean> {
  const paths = q.loadPaths.filter((l) => l.exists).map((l) => `-${l.kind} ${l.path} ${l.logical}`);
  const r = await dialog.showMessageBox({
    type: 'warning', buttons: ['Not now', 'Trust this workspace'], defaultId: 0, cancelId: 0,
    message: `Trust this workspace's project files${q.path !== undefined ? ` (${q.path})` : ''}?`,
    detail: [
      `Its provers may read these folders (read-only): ${paths.join('; ') || 'none'}`,
      `Coq options: ${q.args.join(' ') || 'none'}`,
      `Assumptions accepted as if proved: ${q.axioms.join(', ') || 'none'}${q.projectFile !== undefined ? ` (declared in ${q.projectFile})` : ''}`,
      ...q.ignored.map((i) => `Ignored: ${i}`),
    ].join('\n'),
  });
  return r.response === 1;
}

async function start(): Promise<void> {
  denyAllPermissions();
  serveRenderer(join(distDir, 'renderer'));
  // The workspace's one grant (_CoqProject's load paths, arbor.project.json's axioms): asked once per
  // workspace, and again only when either file changes.
  const trust = new WorkspaceTrust({ root: homedir(), userDir: app.getPath('userData'), askNative: confirmWorkspace });
  await trust.load();
  await trust.askAtStart();
  workspace = new Workspace({ root: homedir(), readOnlyRoots: [examplesDir], userDir: app.getPath('userData'), writeRefusal: (p) => trust.writeRefusal(p) });
  const settings = await workspace.settings();
  // The one composition with the web host's (compose-workbench.ts); only the trust dialog is the desktop's own.
  const composed = await composeWorkbench(workspace, {}, trust);
  workbench = composed.ws;
  const ws = workspace;
  const wb = workbench;
  agent = composed.agent;
  const mcp = await agent.startMcp();
  process.stdout.write(`Arbor: agents (MCP, streamable HTTP): ${mcp.url}  Authorization: Bearer ${mcp.token}\n`);
  service = createApiService({
    shell: wb.shell,
    workspace: ws,
    agent,
    detectProvers: composed.detectProvers,
    info: () => appInfo('electron', wb, ws.root, examplesDir),
    trust,
    ...(wb.backend === 'coq' ? { vFile: (text: string, hooks: VFileHooks) => openVFile(text, wb.hammerSeconds * 1000, trust, hooks) } : {}),
    confirmProgramSetting: async (key, value) => {
      // The renderer is untrusted: a program to run needs the user's own yes, in a dialog it cannot draw.
      const r = await dialog.showMessageBox(win as BrowserWindow, {
        type: 'warning', buttons: ['Cancel', 'Use this program'], defaultId: 0, cancelId: 0,
        message: `Let Arbor run this program for ${key}?`, detail: value,
      });
      return r.response === 1;
    },
    pickOpen: async (filters) => {
      const extensions = filters?.length ? filters : ['arbor', 'txt', 'v'];
      const r = await dialog.showOpenDialog(win as BrowserWindow, { properties: ['openFile'], filters: [{ name: filters?.length ? 'Files' : 'Arbor proofs and Coq files', extensions }, { name: 'All files', extensions: ['*'] }] });
      const path = r.canceled ? null : r.filePaths[0] ?? null;
      if (path) ws.allowChosen(path);
      return path;
    },
    pickSave: async (suggested) => {
      const r = await dialog.showSaveDialog(win as BrowserWindow, { defaultPath: suggested ?? 'proof.arbor', filters: [{ name: 'Arbor proofs', extensions: ['arbor'] }] });
      const path = r.canceled ? null : r.filePath ?? null;
      if (path) ws.allowChosen(path);
      return path;
    },
  });
  // Every call is validated by the service (zod, shared/api); the sender is checked here.
  const ownership = new ChannelOwnership();
  ipcMain.handle('arbor:call', async (event, method: unknown, params: unknown) => {
    if (!trusted(event)) throw new Error('untrusted sender');
    const result = await service?.call(method, params);
    ownership.observe(method, params, result);
    return result;
  });
  service.onEvent((event: ApiEvent) => {
    if (win && !win.isDestroyed()) win.webContents.send('arbor:event', event);
  });
  const send = (command: MenuCommand, arg?: string): void => service?.emit(arg === undefined ? { kind: 'menu', command } : { kind: 'menu', command, arg });
  const refreshMenu = async (): Promise<void> => {
    const { Menu } = await import('electron');
    Menu.setApplicationMenu(buildAppMenu(send, await ws.recent()));
  };
  await refreshMenu();
  const bounds = typeof settings.windowBounds === 'string' ? safeJson(settings.windowBounds) : undefined;
  win = createAppWindow(preloadFile(distDir), bounds);
  // A reload or a crashed renderer forgets its documents' channels: release their provers.
  const releaseOwned = (): void => {
    if (service) void ownership.releaseAll(service);
  };
  win.webContents.on('did-start-navigation', (details) => {
    if (details.isMainFrame && !details.isSameDocument) releaseOwned();
  });
  win.webContents.on('render-process-gone', releaseOwned);
  win.on('close', () => {
    if (win) void ws.updateSettings({ windowBounds: JSON.stringify(win.getBounds()) });
  });
  // Recent files change as documents open: rebuild the menu when the window regains focus.
  win.on('focus', () => void refreshMenu());
}

function safeJson(text: string): Record<string, number> | undefined {
  try {
    return JSON.parse(text) as Record<string, number>;
  } catch {
    return undefined;
  }
}

app.on('second-instance', () => {
  if (win) {
    if (win.isMinimized()) win.restore();
    win.focus();
  }
});

app.on('web-contents-created', (_event, contents) => {
  contents.on('will-navigate', (e, url) => {
    if (!url.startsWith(`${APP_ORIGIN}/`)) e.preventDefault();
  });
  contents.setWindowOpenHandler(() => ({ action: 'deny' }));
});

// Closing the app leaves no prover behind: release every channel before quitting.
let quitting = false;
app.on('before-quit', (event) => {
  if (quitting || !workbench) return;
  event.preventDefault();
  quitting = true;
  void (agent?.close() ?? Promise.resolve()).then(() => workbench?.dispose()).finally(() => app.quit());
});

app.on('window-all-closed', () => app.quit());
app.whenReady().then(start).catch((err: unknown) => {
  dialog.showErrorBox('Arbor could not start', err instanceof Error ? err.stack ?? err.message : String(err));
  app.quit();
});
