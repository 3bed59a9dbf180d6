import { realpath, stat } from 'node:fs/promises';
import { isAbsolute, relative, resolve, sep } from 'node:path';

/** A path an input names that would take Arbor outside the input's folder; its message says which and why. */
export class PathOutsideFolder extends Error {}

const inside = (root: string, path: string): boolean => {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
};

/**
 * `name` (relative, as an input file writes it) resolved inside `folder`, following symlinks: absolute
 * paths, `..` and links that lead out are refused, so a case file cannot put `/home/…/.ssh/id_rsa` into a
 * report. Resolves undefined when nothing is there (the caller decides what a missing file means).
 */
export async function confinedPath(folder: string, name: string): Promise<string | undefined> {
  if (isAbsolute(name) || /^[A-Za-z]:[\\/]/.test(name)) throw new PathOutsideFolder(`refused path ${JSON.stringify(name)}: absolute paths are not allowed; name a file in the input's folder`);
  if (name.split(/[\\/]/).includes('..')) throw new PathOutsideFolder(`refused path ${JSON.stringify(name)}: '..' is not allowed; name a file in the input's folder`);
  const root = await realpath(folder);
  let real: string;
  try {
    real = await realpath(resolve(root, name));
  } catch {
    return undefined;
  }
  if (!inside(root, real)) throw new PathOutsideFolder(`refused path ${JSON.stringify(name)}: it is a link to a file outside the input's folder`);
  // A FIFO would block the read for ever, a directory would fail the whole input: only files are read.
  if (!(await stat(real)).isFile()) throw new PathOutsideFolder(`refused path ${JSON.stringify(name)}: not a regular file`);
  return real;
}

/** Whether `path` (a file found under `folder`) really is inside it once symlinks are followed. */
export async function reallyInside(folder: string, path: string): Promise<boolean> {
  return inside(await realpath(folder), await realpath(path));
}
