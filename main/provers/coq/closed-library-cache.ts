import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';

/**
 * Issue 24 item 4: library constants known closed, remembered on disk across sessions. A constant of an
 * installed library (`Coq.*`, `Hammer.*`) lives in a read-only `.vo` file; a `.vo` records the digests of
 * the libraries it was compiled against and Coq refuses to load it beside any other, so the file's digest
 * fixes the constant's whole dependency closure. "Closed under the global context" for that constant is
 * then a fact about (Coq's build, the library's name, the file's digest) and is stored under exactly that
 * key. Never stored: anything of the document (its names are not in a loaded library file), a library file
 * outside Coq's own library directory (a project's `.vo`, even under a `Coq` root), a file changed since
 * the session began (it may not be the one its coqidetop loaded), anything that was not found closed. The judgement itself is unchanged: what is not known closed here is
 * walked by Coq, as before.
 */

/** How the cache talks to the session's coqidetop (at its tip). */
export interface LibraryIO {
  /** The notice answers of a query (one or more sentences) at the tip, in order. */
  query(sentences: string): Promise<string[]>;
  /** Coq's version and build (the `About` call). */
  coqVersion(): Promise<string>;
}

/** Roots of the installed libraries; any other root may be the document's or a project's. */
const INSTALLED_ROOT = /^(Coq|Hammer)\./;
const LOADED_FROM = /^(\S+) has been loaded from file\s+(\S+\.vo)\s*$/;

export const defaultCacheFile = (): string =>
  join(process.env.ARBOR_CACHE_DIR ?? join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'arbor'), 'closed-constants-v2.json');

/** Digests of library files, by path, valid while the file's identity (inode, size, mtime) is the same. */
const digests = new Map<string, { id: string; digest: string }>();

/**
 * The file's sha256, or undefined when it cannot be read or changed since `since` (the session's start:
 * the content hashed is then the content its coqidetop loaded).
 */
async function stableDigest(file: string, since: number): Promise<string | undefined> {
  try {
    const before = await stat(file);
    if (before.mtimeMs >= since || before.ctimeMs >= since) return undefined;
    const id = `${before.ino}:${before.size}:${before.mtimeMs}:${before.ctimeMs}`;
    const known = digests.get(file);
    if (known?.id === id) return known.digest;
    const digest = createHash('sha256').update(await readFile(file)).digest('hex');
    const after = await stat(file);
    if (`${after.ino}:${after.size}:${after.mtimeMs}:${after.ctimeMs}` !== id) return undefined;
    digests.set(file, { id, digest });
    return digest;
  } catch {
    return undefined;
  }
}

/** The on-disk store, shared by every session of this process: key → constants known closed. */
class Store {
  private loaded: Promise<Map<string, Set<string>>> | undefined;
  private writing: Promise<void> = Promise.resolve();

  constructor(readonly file: string) {}

  private async read(): Promise<Map<string, Set<string>>> {
    const text = await readFile(this.file, 'utf8').catch(() => '{}');
    const out = new Map<string, Set<string>>();
    try {
      const json = JSON.parse(text) as Record<string, unknown>;
      for (const [k, v] of Object.entries(json)) if (Array.isArray(v)) out.set(k, new Set(v.filter((x): x is string => typeof x === 'string')));
    } catch {
      // A damaged file is an empty cache: everything is walked again.
    }
    return out;
  }

  entries(): Promise<Map<string, Set<string>>> {
    this.loaded ??= this.read();
    return this.loaded;
  }

  /** Adds `names` under `key` and writes the file (merged with what other processes wrote; atomic rename). */
  add(key: string, names: readonly string[]): Promise<void> {
    const run = async (): Promise<void> => {
      const mine = await this.entries();
      const set = mine.get(key) ?? new Set<string>();
      for (const n of names) set.add(n);
      mine.set(key, set);
      const onDisk = await this.read();
      for (const [k, v] of onDisk) {
        const m = mine.get(k) ?? new Set<string>();
        for (const n of v) m.add(n);
        mine.set(k, m);
      }
      await mkdir(dirname(this.file), { recursive: true });
      const tmp = `${this.file}.${process.pid}.tmp`;
      await writeFile(tmp, JSON.stringify(Object.fromEntries([...mine].map(([k, v]) => [k, [...v].sort()]))));
      await rename(tmp, this.file);
    };
    this.writing = this.writing.then(run, run).catch(() => undefined);
    return this.writing;
  }
}

const stores = new Map<string, Store>();
const storeFor = (file: string): Store => {
  let s = stores.get(file);
  if (!s) stores.set(file, (s = new Store(file)));
  return s;
};

export class ClosedLibraryCache {
  /** Loaded library → its cache key (undefined: never cached), as this session's coqidetop loaded it. */
  private readonly keys = new Map<string, string | undefined>();
  private version: Promise<string> | undefined;
  private readonly store: Store;
  /** Coq's own library directory (where `Coq.Init.Prelude` was loaded from): the only files cached. */
  private coqlib: string | undefined;
  readonly stats = { hits: 0, stored: 0 };
  /** The libraries loaded at boot, learnt as the session starts (`warm`). */
  private warming: Promise<void> | undefined;

  /** `since`: when the session began (a library file changed since may not be what its coqidetop loaded). */
  constructor(
    private readonly io: LibraryIO,
    file = defaultCacheFile(),
    private readonly since = Date.now(),
  ) {
    this.store = storeFor(file);
  }

  /**
   * Learns the libraries the prelude loaded (and hashes their files) as part of the session's start, instead
   * of at the first END that reaches them (≈ 0.1 s: one `Locate Library` per library, ~60 digests).
   */
  warm(): Promise<void> {
    this.warming ??= this.refresh().catch(() => undefined);
    return this.warming;
  }

  /** The loaded library a kernel name belongs to (the longest loaded library name that prefixes it). */
  private libraryOf(full: string): string | undefined {
    const parts = full.split('.');
    for (let i = parts.length - 1; i > 0; i--) {
      const lib = parts.slice(0, i).join('.');
      if (this.keys.has(lib)) return lib;
    }
    return undefined;
  }

  /** Learns the libraries loaded now (a document's `Require` adds some) and where each was loaded from. */
  private async refresh(): Promise<void> {
    const listed = (await this.io.query('Print Libraries.')).join('\n').split('\n').map((l) => l.trim()).filter((l) => INSTALLED_ROOT.test(l) && /^[A-Za-z0-9_.']+$/.test(l));
    const fresh = listed.filter((l) => !this.keys.has(l));
    if (fresh.length === 0) return;
    const answers = await this.io.query(fresh.map((l) => `Locate Library ${l}.`).join(' '));
    this.version ??= this.io.coqVersion();
    const version = await this.version;
    const located = fresh.map((lib, i) => {
      const m = answers.length === fresh.length ? LOADED_FROM.exec((answers[i] ?? '').replace(/\s+/g, ' ').trim()) : null;
      return m?.[1] === lib ? (m[2] as string) : undefined;
    });
    const prelude = located[fresh.indexOf('Coq.Init.Prelude')];
    if (this.coqlib === undefined && prelude?.endsWith('/theories/Init/Prelude.vo')) this.coqlib = prelude.slice(0, -'/theories/Init/Prelude.vo'.length);
    for (const [i, lib] of fresh.entries()) {
      const file = located[i];
      // Installed with Coq (its standard library, CoqHammer's in user-contrib); a project's `-Q … Coq` never counts.
      const installed = this.coqlib !== undefined && file !== undefined && !file.includes('/../') && (file.startsWith(`${this.coqlib}/theories/`) || file.startsWith(`${this.coqlib}/user-contrib/`));
      const digest = installed ? await stableDigest(file, this.since) : undefined;
      this.keys.set(lib, digest === undefined ? undefined : createHash('sha256').update(`${version}\0${lib}\0${digest}`).digest('hex'));
    }
  }

  /** The key of `full`'s library; the loaded libraries are listed again at most once per `round`. */
  private async keyOf(full: string, round: { refreshed: boolean }): Promise<string | undefined> {
    if (!INSTALLED_ROOT.test(full)) return undefined;
    let lib = this.libraryOf(full);
    if (lib === undefined && !round.refreshed) {
      round.refreshed = true;
      await this.refresh();
      lib = this.libraryOf(full);
    }
    return lib === undefined ? undefined : this.keys.get(lib);
  }

  /** Those of `fulls` known closed: found closed earlier in the very library file loaded now. */
  async knownClosed(fulls: readonly string[]): Promise<Set<string>> {
    const out = new Set<string>();
    if (!fulls.some((f) => INSTALLED_ROOT.test(f))) return out;
    await this.warming;
    try {
      const entries = await this.store.entries();
      const round = { refreshed: false };
      for (const full of fulls) {
        const key = await this.keyOf(full, round);
        if (key !== undefined && entries.get(key)?.has(full)) out.add(full);
      }
    } catch {
      return new Set();
    }
    this.stats.hits += out.size;
    return out;
  }

  /** Records that Coq found each of `closed` closed under the global context (installed libraries only). */
  async remember(closed: readonly string[]): Promise<void> {
    const byKey = new Map<string, string[]>();
    await this.warming;
    try {
      const round = { refreshed: false };
      for (const full of closed) {
        const key = await this.keyOf(full, round);
        if (key !== undefined) byKey.set(key, [...(byKey.get(key) ?? []), full]);
      }
      for (const [key, names] of byKey) {
        this.stats.stored += names.length;
        await this.store.add(key, names);
      }
    } catch {
      // Not remembered: walked again next time.
    }
  }
}
