import { createHash, randomBytes } from 'node:crypto';
import { lstat, mkdir, readdir, readFile, realpath, rename, rm, stat, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { basename, dirname, isAbsolute, join, resolve, sep } from 'node:path';
import type { DirEntry, RecoveryEntry, Settings } from '../../shared/api/api-contract.ts';
import { PROJECT_FILE_NAME } from '../../shared/project/project-file.ts';
import { defaultCacheFile } from '../provers/coq/closed-library-cache.ts';

/** Files that configure a workspace's provers (compared case-insensitively: some file systems are). */
const PROJECT_FILES = new Set([PROJECT_FILE_NAME.toLowerCase(), '_coqproject']);

/**
 * A name that is, or on some file system opens, a project file: case-insensitive, and without what Windows
 * drops or reads as a stream (`arbor.project.json.`, `arbor.project.json ` and `arbor.project.json::$DATA`
 * all create or change `arbor.project.json` there).
 */
const isProjectFileName = (name: string): boolean => PROJECT_FILES.has(name.replace(/:.*$/s, '').replace(/[. ]+$/, '').toLowerCase());

export interface WorkspaceOptions {
  /** The directory the renderer may read and write in (the user's project). */
  root: string;
  /** Read-only extra roots (the bundled examples). */
  readOnlyRoots?: string[];
  /** Per-user state: recovery files, settings, recent files. */
  userDir: string;
  /** Why a file (its real path) may not be written, beyond the project files' names: workspace trust's files (WorkspaceTrust.writeRefusal). */
  writeRefusal?: (realPath: string) => Promise<string | undefined>;
}

const MAX_FILE = 16 << 20;
const MAX_RECENT = 12;
/** The recovery store's bounds: it holds unsaved buffers, not archives. */
export const RECOVERY_LIMITS = { entryBytes: 4 << 20, entries: 200, totalBytes: 64 << 20, maxAgeMs: 30 * 24 * 3600_000 };

/** The per-user directory: `$ARBOR_USER_DIR`, else `$XDG_CONFIG_HOME/arbor`, else `~/.config/arbor`. */
export function defaultUserDir(): string {
  return process.env.ARBOR_USER_DIR ?? join(process.env.XDG_CONFIG_HOME ?? join(homedir(), '.config'), 'arbor');
}

/**
 * Everything the renderer may do with files, confined to the workspace roots: the renderer is untrusted
 * (a web page in the web host), so every path is resolved, symlinks followed, and checked to stay inside.
 */
export class Workspace {
  readonly root: string;
  private readonly readRoots: string[];
  /** Single files the user chose in a native dialog (Electron): allowed wherever they are. */
  private readonly chosen = new Set<string>();
  /** Editor windows that have listed their recovery, with how many clients hold each claim (see listRecovery). */
  private readonly claimedWindows = new Map<string, number>();

  constructor(private readonly options: WorkspaceOptions) {
    this.root = resolve(options.root);
    this.readRoots = [this.root, ...(options.readOnlyRoots ?? []).map((r) => resolve(r))];
  }

  /** A file the user picked in a native open/save dialog: the user's choice is the permission. */
  allowChosen(path: string): void {
    this.chosen.add(resolve(path));
  }

  /** `remember: false` leaves the recent-files list alone (companion files such as the edit history). */
  async read(path: string, options: { remember?: boolean } = {}): Promise<{ path: string; text: string }> {
    const full = await this.confine(path, this.readRoots, true);
    const info = await stat(full);
    if (!info.isFile()) throw new Error(`not a file: ${path}`);
    if (info.size > MAX_FILE) throw new Error(`file too large: ${path}`);
    const text = await readFile(full, 'utf8');
    if (options.remember !== false) await this.addRecent(full);
    return { path: full, text };
  }

  async write(path: string, text: string, options: { remember?: boolean } = {}): Promise<{ path: string }> {
    const full = await this.confine(path, [this.root], false);
    // Only files strictly inside the workspace: never the root itself, never over a directory.
    if (full === (await realpath(this.root).catch(() => this.root))) throw new Error(`not a file: ${path}`);
    const existing = await lstat(full).catch(() => undefined);
    if (existing?.isDirectory()) throw new Error(`not a file: ${path}`);
    // A project file chooses the backend, its prelude and (Coq) load paths: what the user trusts, never
    // something a client of the API (a web page, an attached agent) may create or change.
    if (isProjectFileName(basename(full))) throw new Error(`not allowed: ${basename(full)} is a project file; edit it outside Arbor`);
    // The user's own state — trust grants, settings, recovery (the user dir) and the closed-constants cache —
    // lies inside the workspace when it is the home directory (the desktop app's, or `arbor web` run from `~`):
    // a client writing it would forge a grant (its fingerprint hashes files the client can read) or a cache entry.
    const state = await Promise.all([this.options.userDir, dirname(defaultCacheFile())].map((d) => realpath(d).catch(() => resolve(d))));
    if (state.some((d) => full === d || full.startsWith(d.endsWith(sep) ? d : d + sep))) throw new Error(`not allowed: ${full} is Arbor's own state (trust grants, settings, caches); edit it outside Arbor`);
    const refused = await this.options.writeRefusal?.(full);
    if (refused !== undefined) throw new Error(`not allowed: ${refused}; edit it outside Arbor`);
    // Write to a fresh sibling temp file, then rename: a crash never leaves half a proof file. `wx`
    // (O_CREAT|O_EXCL) never follows a planted symlink, and the random name cannot be guessed in advance.
    const temp = join(dirname(full), `.${basename(full)}.${randomBytes(6).toString('hex')}.arbor-tmp`);
    await writeFile(temp, text, { encoding: 'utf8', flag: 'wx' });
    try {
      await rename(temp, full);
    } catch (err) {
      await rm(temp, { force: true });
      throw err;
    }
    if (options.remember !== false) await this.addRecent(full);
    return { path: full };
  }

  async list(dir?: string): Promise<{ dir: string; parent: string | null; entries: DirEntry[] }> {
    const full = await this.confine(dir ?? this.root, this.readRoots, true);
    const items = await readdir(full, { withFileTypes: true });
    const entries: DirEntry[] = items
      .filter((d) => !d.name.startsWith('.') && (d.isDirectory() || d.isFile()))
      .map((d): DirEntry => ({ name: d.name, path: join(full, d.name), kind: d.isDirectory() ? 'dir' : 'file' }))
      .sort((a, b) => (a.kind === b.kind ? a.name.localeCompare(b.name) : a.kind === 'dir' ? -1 : 1))
      .slice(0, 2000);
    const parent = dirname(full);
    const parentAllowed = this.readRoots.some((r) => parent === r || parent.startsWith(r + sep));
    return { dir: full, parent: parentAllowed && parent !== full ? parent : null, entries };
  }

  // Recovery: one JSON file per buffer and window, named by a hash of both.
  async saveRecovery(entry: Omit<RecoveryEntry, 'time'>): Promise<void> {
    const dir = join(this.options.userDir, 'recovery');
    await mkdir(dir, { recursive: true });
    const record: RecoveryEntry = { ...entry, time: Date.now() };
    const body = JSON.stringify(record);
    if (Buffer.byteLength(body) > RECOVERY_LIMITS.entryBytes) throw new Error(`recovery: buffer too large to keep (${Buffer.byteLength(body)} bytes; limit ${RECOVERY_LIMITS.entryBytes}) — save it to a file`);
    const file = recoveryFile(dir, entry.uri, entry.window);
    const others = (await this.recoveryFiles(dir)).filter((f) => f.path !== file);
    if (others.length >= RECOVERY_LIMITS.entries) throw new Error(`recovery: ${others.length} unsaved buffers are kept already (limit ${RECOVERY_LIMITS.entries}) — save or close some`);
    const total = others.reduce((n, f) => n + f.size, 0) + Buffer.byteLength(body);
    if (total > RECOVERY_LIMITS.totalBytes) throw new Error(`recovery: unsaved buffers would take ${total} bytes (limit ${RECOVERY_LIMITS.totalBytes}) — save or close some`);
    const temp = `${file}.${randomBytes(6).toString('hex')}.tmp`;
    await writeFile(temp, body, { encoding: 'utf8', flag: 'wx' });
    await rename(temp, file);
  }

  /** The recovery files, with entries past their age removed on the way. */
  private async recoveryFiles(dir: string): Promise<{ path: string; size: number }[]> {
    let names: string[];
    try {
      names = await readdir(dir);
    } catch {
      return [];
    }
    const out: { path: string; size: number }[] = [];
    const now = Date.now();
    for (const name of names.filter((n) => n.endsWith('.json'))) {
      const path = join(dir, name);
      const info = await lstat(path).catch(() => undefined);
      if (!info?.isFile()) continue;
      if (now - info.mtimeMs > RECOVERY_LIMITS.maxAgeMs) {
        await rm(path, { force: true });
        continue;
      }
      out.push({ path, size: info.size });
    }
    return out;
  }

  /**
   * The kept buffers: all of them (no `window`), or one window's — its own and the ones no window of this
   * host has claimed yet (from a window that is gone, or a host that was restarted), which become its own.
   * Each listing is a claim until `releaseRecovery` (its client went away; a reload claims again before or
   * after its old page lets go), so two open windows never restore the same buffer.
   */
  async listRecovery(window?: string): Promise<RecoveryEntry[]> {
    if (window !== undefined) this.claimedWindows.set(window, (this.claimedWindows.get(window) ?? 0) + 1);
    const dir = join(this.options.userDir, 'recovery');
    let names: string[];
    try {
      names = await readdir(dir);
    } catch {
      return [];
    }
    const entries: { name: string; e: RecoveryEntry }[] = [];
    const kept = new Set((await this.recoveryFiles(dir)).map((f) => f.path));
    for (const name of names.filter((n) => n.endsWith('.json') && kept.has(join(dir, n)))) {
      try {
        const e = JSON.parse(await readFile(join(dir, name), 'utf8')) as RecoveryEntry;
        if (typeof e.uri === 'string' && typeof e.text === 'string') entries.push({ name, e });
      } catch {
        // A corrupt recovery file is skipped, not fatal.
      }
    }
    if (window === undefined) return entries.map((x) => x.e).sort((a, b) => a.time - b.time);
    const out = entries.filter((x) => x.e.window === window).map((x) => x.e);
    // A buffer of a file this window keeps one of already stays for another window.
    const uris = new Set(out.map((e) => e.uri));
    for (const { name, e } of entries) {
      if (e.window === window || (e.window !== undefined && this.claimedWindows.has(e.window)) || uris.has(e.uri)) continue;
      // Adopt it. Taking the file is a rename: of two windows listing at once, one gets it.
      const taken = join(dir, `${name}.${randomBytes(6).toString('hex')}.adopting`);
      try {
        await rename(join(dir, name), taken);
      } catch {
        continue;
      }
      uris.add(e.uri);
      const mine: RecoveryEntry = { ...(JSON.parse(await readFile(taken, 'utf8')) as RecoveryEntry), window };
      const file = recoveryFile(dir, e.uri, window);
      const temp = `${file}.${randomBytes(6).toString('hex')}.tmp`;
      await writeFile(temp, JSON.stringify(mine), { encoding: 'utf8', flag: 'wx' });
      await rename(temp, file);
      await rm(taken, { force: true });
      out.push(mine);
    }
    return out.sort((a, b) => a.time - b.time);
  }

  /** One claim on `window`'s recovery ends; with none left its buffers may go to another window. */
  releaseRecovery(window: string): void {
    const n = (this.claimedWindows.get(window) ?? 0) - 1;
    if (n > 0) this.claimedWindows.set(window, n);
    else this.claimedWindows.delete(window);
  }

  async discardRecovery(uri: string, window?: string): Promise<void> {
    await rm(recoveryFile(join(this.options.userDir, 'recovery'), uri, window), { force: true });
  }

  /** The user's settings file (prover programs are set here or in the environment, never through the web API). */
  settingsPath(): string {
    return join(this.options.userDir, 'settings.json');
  }

  async settings(): Promise<Settings> {
    try {
      const s = JSON.parse(await readFile(join(this.options.userDir, 'settings.json'), 'utf8')) as unknown;
      return typeof s === 'object' && s !== null && !Array.isArray(s) ? (s as Settings) : {};
    } catch {
      return {};
    }
  }

  async updateSettings(patch: Settings): Promise<Settings> {
    const next = { ...(await this.settings()), ...patch };
    await mkdir(this.options.userDir, { recursive: true });
    await writeFile(join(this.options.userDir, 'settings.json'), JSON.stringify(next, null, 2), 'utf8');
    return next;
  }

  async recent(): Promise<string[]> {
    try {
      const r = JSON.parse(await readFile(join(this.options.userDir, 'recent.json'), 'utf8')) as unknown;
      return Array.isArray(r) ? r.filter((x): x is string => typeof x === 'string') : [];
    } catch {
      return [];
    }
  }

  private async addRecent(path: string): Promise<void> {
    const list = [path, ...(await this.recent()).filter((p) => p !== path)].slice(0, MAX_RECENT);
    await mkdir(this.options.userDir, { recursive: true });
    await writeFile(join(this.options.userDir, 'recent.json'), JSON.stringify(list), 'utf8');
  }

  /** Resolves `path` (relative to the workspace root) and requires it to stay inside one of `roots`. */
  private async confine(path: string, roots: string[], mustExist: boolean): Promise<string> {
    const abs = isAbsolute(path) ? resolve(path) : resolve(this.root, path);
    if (this.chosen.has(abs)) return abs;
    let real: string;
    try {
      real = await realpath(abs);
    } catch (err) {
      if (mustExist) throw new Error(`no such file: ${path}`, { cause: err });
      // A new file: its directory must exist and be inside.
      real = join(await realpath(dirname(abs)).catch(() => { throw new Error(`no such directory: ${dirname(path)}`); }), basename(abs));
    }
    const realRoots = await Promise.all(roots.map((r) => realpath(r).catch(() => r)));
    if (!realRoots.some((r) => real === r || real.startsWith(r.endsWith(sep) ? r : r + sep))) {
      throw new Error(`outside the workspace: ${path}`);
    }
    return real;
  }
}

function recoveryFile(dir: string, uri: string, window: string | undefined): string {
  return join(dir, `${hash(window === undefined ? uri : `${window}\n${uri}`)}.json`);
}

function hash(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 32);
}
