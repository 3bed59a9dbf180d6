/**
 * Test and benchmark set-up, never used by the product.
 * Builds the real AIMLEAP prover (GitHub `ai4reason/aimleap`) for the advisor benchmark and the
 * real-binary test, with the repository's own `makeoptscript` (Debian `ocaml-nox`: ocamllex,
 * ocamlc, ocamlopt and the unix library). Nothing of AIMLEAP is kept in Arbor: the source is
 * exported into a cache directory outside the checkout and built there, once per commit.
 *
 * Where the source comes from, first that exists:
 *  - `AIMLEAP_SRC` (or the caller's `source`): a clone, a bare git directory, or a plain copy;
 *  - a clone the previous run made in the cache;
 *  - `git clone https://github.com/ai4reason/aimleap` into the cache (needs network).
 */
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { runProcess } from '../../../process/process-manager.ts';

export const AIMLEAP_REPO_URL = 'https://github.com/ai4reason/aimleap';

export interface AimleapBuild {
  bin: string;
  /** The source's commit (or `unversioned` for a plain copy). */
  commit: string;
  source: string;
}

export const aimleapCacheDir = (): string => resolve(process.env['AIMLEAP_CACHE'] ?? join(process.env['XDG_CACHE_HOME'] ?? join(homedir(), '.cache'), 'arbor', 'aimleap'));

async function run(program: string, args: string[], cwd: string | undefined, what: string): Promise<string> {
  const r = await runProcess({ program, args, timeoutMs: 300_000, sandbox: false, ...(cwd ? { cwd } : {}) });
  if (r.exitCode !== 0) throw new Error(`${what} failed (exit ${r.exitCode}${r.timedOut ? ', timed out' : ''}): ${(r.stderr || r.stdout).trim().slice(-2000)}`);
  return r.stdout;
}

/** The git directory of `dir` (a bare repository or a clone), or undefined for a plain copy. */
function gitDirOf(dir: string): string | undefined {
  if (existsSync(join(dir, '.git'))) return join(dir, '.git');
  if (existsSync(join(dir, 'HEAD')) && existsSync(join(dir, 'objects'))) return dir;
  return undefined;
}

/** The path of a built `aimleap` binary, building it first if the cache has none for the source's commit. */
export async function buildAimleap(options: { source?: string; log?: (line: string) => void } = {}): Promise<AimleapBuild> {
  const log = options.log ?? (() => undefined);
  const cache = aimleapCacheDir();
  mkdirSync(cache, { recursive: true });
  let source = options.source ?? process.env['AIMLEAP_SRC'];
  if (!source) {
    source = join(cache, 'clone');
    if (!existsSync(source)) {
      log(`cloning ${AIMLEAP_REPO_URL} into ${source}`);
      try {
        await run('git', ['clone', '--depth', '1', AIMLEAP_REPO_URL, source], undefined, `git clone ${AIMLEAP_REPO_URL}`);
      } catch (err) {
        rmSync(source, { recursive: true, force: true });
        throw new Error(`${(err as Error).message}\nno network? set AIMLEAP_SRC to a copy of ${AIMLEAP_REPO_URL}`, { cause: err });
      }
    }
  }
  source = resolve(source);
  const gitDir = gitDirOf(source);
  const commit = gitDir ? (await run('git', [`--git-dir=${gitDir}`, 'rev-parse', 'HEAD'], undefined, 'git rev-parse')).trim() : 'unversioned';
  const dir = join(cache, commit === 'unversioned' ? 'unversioned' : commit.slice(0, 12));
  const bin = join(dir, 'bin', 'aimleap');
  if (commit !== 'unversioned' && existsSync(bin)) return { bin, commit, source };
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  if (gitDir) {
    const tar = join(cache, `${commit.slice(0, 12)}.tar`);
    await run('git', [`--git-dir=${gitDir}`, 'archive', '--format=tar', '-o', tar, 'HEAD', 'src', 'makeoptscript'], undefined, 'git archive');
    await run('tar', ['-xf', tar, '-C', dir], undefined, 'tar');
    rmSync(tar, { force: true });
  } else {
    await run('cp', ['-r', join(source, 'src'), join(source, 'makeoptscript'), dir], undefined, 'copy of the AIMLEAP source');
  }
  mkdirSync(join(dir, 'bin'), { recursive: true });
  log(`building AIMLEAP ${commit.slice(0, 12)} in ${dir} (its makeoptscript, ocamlopt)`);
  await run('bash', ['makeoptscript'], dir, 'AIMLEAP build (makeoptscript; needs Debian ocaml-nox)');
  if (!existsSync(bin)) throw new Error(`AIMLEAP build produced no ${bin}`);
  return { bin, commit, source };
}

/** A source `buildAimleap` can use without network (AIMLEAP_SRC, or an earlier clone), or undefined. */
export function localAimleapSource(): string | undefined {
  const env = process.env['AIMLEAP_SRC'];
  if (env) return existsSync(env) ? env : undefined;
  const clone = join(aimleapCacheDir(), 'clone');
  return existsSync(clone) ? clone : undefined;
}
