import { writeFile } from 'node:fs/promises';
import { basename, extname } from 'node:path';

/**
 * Makes a reproduction script a checkable theory file: Isabelle requires the theory name to be the file's
 * base name, so an existing header is renamed and a missing one is added (`imports Main` by default).
 */
export function toTheory(script: string, theoryName: string, imports: readonly string[] = ['Main']): string {
  if (!/^[A-Za-z][A-Za-z0-9_']*$/.test(theoryName)) throw new Error(`not an Isabelle theory name: ${theoryName}`);
  const header = /^\s*theory\s+("?)[^\s"]+\1/m;
  if (header.test(script)) return script.replace(header, `theory ${theoryName}`);
  const body = script.trimEnd();
  return `theory ${theoryName}\n  imports ${imports.join(' ')}\nbegin\n\n${body}\n\nend\n`;
}

/** Writes `script` to `path` (a `.thy` file) with a theory header whose name matches the file. */
export async function saveTheory(path: string, script: string, imports?: readonly string[]): Promise<string> {
  if (extname(path) !== '.thy') throw new Error(`a theory file must end in .thy: ${path}`);
  const text = toTheory(script, basename(path, '.thy'), imports);
  await writeFile(path, text, 'utf8');
  return text;
}
