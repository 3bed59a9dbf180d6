import type { ShellResponse } from '../../shared/protocol/shell-command.ts';
import { splitRequests } from '../../shared/protocol/split-requests.ts';
import { parseRequest } from '../../shared/protocol/parse-request.ts';
import { commandSpec } from '../../shared/protocol/commands.ts';
import type { ApiService } from './api-service.ts';

/**
 * The channels one client (a browser tab, an Electron page) opened with NEW_CHANNEL. When the client
 * goes away (tab closed or reloaded: its documents' channel numbers are lost with it), its channels are
 * released, so no prover process is left running for nobody.
 */
export class ChannelOwnership {
  private readonly owned = new Set<number>();
  /** The editor windows whose documents this client opened in the host. */
  private readonly clients = new Set<string>();
  /** Recovery claims this client made (`recovery.list` with its window id), released when it goes. */
  private readonly recoveryClaims: string[] = [];

  /** Call with every successful API result: picks out channels created and released by this client. */
  observe(method: unknown, params: unknown, result: unknown): void {
    if (method === 'recovery.list') {
      const window = (params as { window?: unknown } | undefined)?.window;
      if (typeof window === 'string') this.recoveryClaims.push(window);
      return;
    }
    if (method === 'document.sync') {
      const client = (params as { client?: unknown } | undefined)?.client;
      if (typeof client === 'string') this.clients.add(client);
      return;
    }
    if (method === 'fork.adopt' || method === 'document.fork') {
      // A fork it made is its own: it may try on it, and it is released when the client goes.
      const id = (result as { channel?: unknown } | null)?.channel;
      if (typeof id === 'number') this.owned.add(id);
      return;
    }
    if (method !== 'shell.submit' || !Array.isArray(result)) return;
    const line = (params as { line?: unknown } | undefined)?.line;
    const requests = typeof line === 'string' ? splitRequests(line).map((r) => r.text) : [];
    (result as ShellResponse[]).forEach((r, i) => {
      const id = (r.RESPONSE as { ID?: unknown } | null)?.ID;
      if (typeof id === 'number' && r.ERR === '') this.owned.add(id);
      if (endsChannel(requests[i] ?? '')) this.owned.delete(r.CHANNEL);
    });
  }

  owns(channel: number): boolean {
    return this.owned.has(channel);
  }

  get channels(): number[] {
    return [...this.owned];
  }

  async releaseAll(service: ApiService): Promise<void> {
    const clients = [...this.clients];
    this.clients.clear();
    // Its unsaved buffers become adoptable by the next window that lists its recovery (nothing is lost
    // with a closed tab); a reload claims them again first, with the same window id.
    for (const window of this.recoveryClaims.splice(0)) service.releaseRecovery(window);
    await Promise.all(clients.map((c) => service.closeClient(c).catch(() => undefined)));
    const ids = [...this.owned];
    this.owned.clear();
    if (ids.length === 0) return;
    // The client is gone: stop its channels now (CANCEL), not after whatever they were running.
    await service.call('shell.submit', { line: ids.map((id) => `${id} CANCEL`).join('; ') }).catch(() => undefined);
  }
}

/** `n RELEASE_CHANNEL` or `n CANCEL` (with its channel id): the request ends channel n. */
function endsChannel(text: string): boolean {
  if (!/^\s*\d+\s/.test(text)) return false;
  const parsed = parseRequest(text);
  return 'command' in parsed && commandSpec(parsed.command.name).endsChannel === true;
}
