import { createHash } from 'node:crypto';
import { existsSync, statSync } from 'node:fs';
import { readFile, realpath } from 'node:fs/promises';
import { homedir } from 'node:os';
import { delimiter, isAbsolute, join, resolve, sep } from 'node:path';
import { parseCoqProject } from '../../shared/project/coq-project-file.ts';
import type { CoqProjectStatus } from '../../shared/project/coq-project-status.ts';
import type { ProjectArgs } from '../shell/prover-session.ts';

export const COQ_PROJECT_FILE = '_CoqProject';

/** A workspace's `_CoqProject` as Arbor would use it once trusted. */
export interface CoqProjectSetup {
  status: Omit<CoqProjectStatus, 'trusted' | 'confirm' | 'axioms' | 'projectFile' | 'path'> & { path: string };
  /** coqidetop's arguments and the directories they name (absolute, real paths). */
  args: ProjectArgs;
  /** What the user trusts: the file's exact text (a changed file asks again). */
  fingerprint: string;
}

/** `a` is `b` or a folder above it. */
const within = (b: string, a: string): boolean => b === a || b.startsWith(a.endsWith(sep) ? a : a + sep);

/**
 * A load path is bound read-only into every prover's sandbox (and `coqc`'s), so it must stay inside the
 * workspace the user trusts, whatever name or symlink leads to it: a folder outside it (`..`, `/`, Coq's own
 * library, a symlink that leaves the workspace) or the user's home directory would let a prover read
 * everything there (keys, other projects, Arbor's own grants file). Each refusal says why.
 */
function refusal(real: string, root: string): string | undefined {
  const home = homedir();
  if (within(home, real)) return 'it is the home directory or holds it';
  if (real !== root && within(root, real)) return `it holds the workspace itself (${real})`;
  if (!within(real, root)) return `it is outside the workspace (${real})`;
  return undefined;
}

const onPath = (name: string): boolean => (process.env.PATH ?? '').split(delimiter).some((d) => d !== '' && existsSync(join(d, name)));

/**
 * Reads the workspace root's `_CoqProject` (undefined when there is none) and resolves its load paths
 * against the file's folder, as Coq does. A directory that does not exist is reported and left out; a
 * `dune-project` is noted, with whether `dune` is installed (Arbor does not read dune theories yet).
 */
export async function readCoqProject(root: string): Promise<CoqProjectSetup | undefined> {
  const path = join(root, COQ_PROJECT_FILE);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch {
    return undefined;
  }
  const parsed = parseCoqProject(text);
  const realRoot = await realpath(root).catch(() => resolve(root));
  const ignored = [...parsed.ignored];
  const args: string[] = [];
  const readOnly: string[] = [];
  const loadPaths: CoqProjectStatus['loadPaths'] = [];
  for (const lp of parsed.loadPaths) {
    const abs = isAbsolute(lp.dir) ? lp.dir : resolve(root, lp.dir);
    const real = await realpath(abs).catch(() => undefined);
    const isDir = real !== undefined && statSync(real, { throwIfNoEntry: false })?.isDirectory() === true;
    const wide = isDir ? refusal(real, realRoot) : undefined;
    loadPaths.push({ kind: lp.kind, dir: lp.dir, logical: lp.logical, path: real ?? abs, exists: isDir && wide === undefined });
    if (!isDir) {
      ignored.push(`-${lp.kind} ${lp.dir} ${lp.logical}: no such directory`);
      continue;
    }
    if (wide !== undefined) {
      ignored.push(`-${lp.kind} ${lp.dir} ${lp.logical}: not bound, ${wide}`);
      continue;
    }
    args.push(`-${lp.kind}`, real, lp.logical);
    readOnly.push(real);
  }
  args.push(...parsed.args);
  const dune = existsSync(join(root, 'dune-project'))
    ? onPath('dune')
      ? 'a dune-project is here; Arbor reads only _CoqProject (list the theories there with -Q/-R)'
      : 'a dune-project is here but dune is not installed; Arbor reads only _CoqProject'
    : undefined;
  return {
    status: { path, loadPaths, args: parsed.args, ignored, ...(dune !== undefined ? { dune } : {}) },
    args: { args, readOnly },
    fingerprint: createHash('sha256').update(text).digest('hex'),
  };
}
