import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll } from 'vitest';
import type { ShellResponse } from '../../../../shared/protocol/shell-command.ts';
import { ShellProcess } from '../../../cli/shell-process.ts';

/** Under the repo's .tmp/: files a sandboxed prover or coqc reads (the sandbox has no /tmp of the host). */
const TMP = fileURLToPath(new URL('../../../../.tmp/', import.meta.url));

/** `s` as one quoted argument of a shell request (`"…"`, its double quotes escaped). */
export const quoted = (s: string): string => `"${s.replace(/"/g, '\\"')}"`;

/** Whether `r` answers a request that left no goal open (a proof finished, without error). */
export const finished = (r: ShellResponse | undefined): boolean =>
  r?.ERR === '' && Array.isArray((r.RESPONSE as { goal?: unknown } | null)?.goal) && (r.RESPONSE as { goal: unknown[] }).goal.length === 0;

/** Sends one request on a channel and awaits its response. */
export type Send = (request: string) => Promise<ShellResponse>;

export interface RealShell {
  /** The running arbor-shell (started before the first test of the suite). */
  shell: () => ShellProcess;
  /** Sends `requests` on a channel of their own (opened for them, released after); returns their responses. */
  session: (requests: readonly string[]) => Promise<ShellResponse[]>;
  /** Opens a channel (left open: the shell ends after the suite) and returns what sends on it. */
  channel: () => Promise<Send>;
}

/**
 * Starts a real arbor-shell (`bin/arbor-shell.js` with `args`) before the tests of the suite this is called in
 * (a `describe`, or the file at its top level) and ends it after them.
 */
export function useRealShell(args: readonly string[]): RealShell {
  let shell: ShellProcess | undefined;
  beforeAll(() => {
    shell = new ShellProcess([...args]);
  });
  afterAll(async () => {
    await shell?.end();
  });
  const running = (): ShellProcess => {
    if (!shell) throw new Error('useRealShell: the shell runs only inside the tests of its suite');
    return shell;
  };
  return {
    shell: running,
    session: (requests) => running().onFreshChannel(requests),
    channel: async () => {
      const s = running();
      const ch = ((await s.request('NEW_CHANNEL', 0)).RESPONSE as { ID: number }).ID;
      return (request) => s.request(`${ch} ${request}`, ch);
    },
  };
}

/** A fresh directory under the repo's .tmp/ for the suite's tests (made before them, removed after); returns its path. */
export function useScratchDir(prefix: string): () => string {
  let dir: string | undefined;
  beforeAll(async () => {
    await mkdir(TMP, { recursive: true });
    dir = await mkdtemp(join(TMP, prefix));
  });
  afterAll(async () => {
    if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  });
  return () => {
    if (dir === undefined) throw new Error('useScratchDir: the directory exists only inside the tests of its suite');
    return dir;
  };
}

/**
 * What runs `requests` on a fresh arbor-shell (`args`) whose closed-library cache is a directory of the suite's own
 * (made before its tests, removed after), never the user's ~/.cache/arbor: an attack that poisons it stays here.
 */
export function useOwnCacheShell(args: readonly string[], prefix: string): (requests: readonly string[]) => Promise<ShellResponse[]> {
  let cacheDir: string | undefined;
  beforeAll(async () => {
    cacheDir = await mkdtemp(join(tmpdir(), prefix));
  });
  afterAll(async () => {
    if (cacheDir !== undefined) await rm(cacheDir, { recursive: true, force: true });
  });
  return async (requests) => {
    if (cacheDir === undefined) throw new Error('useOwnCacheShell: the shell runs only inside the tests of its suite');
    const shell = new ShellProcess([...args], { ...process.env, ARBOR_CACHE_DIR: cacheDir });
    try {
      return await shell.onFreshChannel(requests);
    } finally {
      await shell.end();
    }
  };
}
