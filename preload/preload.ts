import { contextBridge, ipcRenderer } from 'electron';
import type { IpcRendererEvent } from 'electron';
import type { ApiEvent } from '../shared/api/api-contract.ts';
import { API_METHODS } from '../shared/api/api-methods.ts';

/**
 * The renderer's only bridge: call a named API method, listen to events. `ipcRenderer` itself is never
 * exposed; unknown method names are refused here and every call is validated again in main.
 */
const methods = new Set<string>(API_METHODS);

contextBridge.exposeInMainWorld('arbor', {
  call(method: string, params: unknown): Promise<unknown> {
    if (typeof method !== 'string' || !methods.has(method)) return Promise.reject(new Error(`unknown method: ${String(method)}`));
    return ipcRenderer.invoke('arbor:call', method, params);
  },
  onEvent(listener: (event: ApiEvent) => void): () => void {
    const handler = (_e: IpcRendererEvent, event: ApiEvent): void => listener(event);
    ipcRenderer.on('arbor:event', handler);
    return () => {
      ipcRenderer.removeListener('arbor:event', handler);
    };
  },
});
