import { BrowserWindow, session, shell as electronShell } from 'electron';
import type { Rectangle } from 'electron';
import { join } from 'node:path';
import { APP_ORIGIN } from './app-protocol.ts';

/**
 * The one workbench window: isolated, sandboxed, no Node in the renderer, no navigation away from the
 * app, no new windows (links open in the system browser only if they are http(s)), no permissions.
 */
export function createAppWindow(preloadPath: string, bounds?: Partial<Rectangle>): BrowserWindow {
  const win = new BrowserWindow({
    width: bounds?.width ?? 1480,
    height: bounds?.height ?? 920,
    ...(bounds?.x !== undefined && bounds.y !== undefined ? { x: bounds.x, y: bounds.y } : {}),
    minWidth: 900,
    minHeight: 560,
    title: 'Arbor',
    show: false,
    webPreferences: {
      preload: preloadPath,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      spellcheck: false,
    },
  });
  win.once('ready-to-show', () => win.show());
  win.webContents.on('will-navigate', (event, url) => {
    if (!url.startsWith(`${APP_ORIGIN}/`)) event.preventDefault();
  });
  win.webContents.on('will-redirect', (event, url) => {
    if (!url.startsWith(`${APP_ORIGIN}/`)) event.preventDefault();
  });
  win.webContents.setWindowOpenHandler(({ url }) => {
    if (/^https?:\/\//.test(url)) void electronShell.openExternal(url);
    return { action: 'deny' };
  });
  win.webContents.on('will-attach-webview', (event) => event.preventDefault());
  void win.loadURL(`${APP_ORIGIN}/index.html`);
  return win;
}

/** Deny every permission request (camera, notifications, …): the workbench needs none. */
export function denyAllPermissions(): void {
  session.defaultSession.setPermissionRequestHandler((_wc, _permission, callback) => callback(false));
  session.defaultSession.setPermissionCheckHandler(() => false);
}

export const preloadFile = (appDir: string): string => join(appDir, 'preload', 'preload.cjs');
