import { writeFile } from 'node:fs/promises';
import { basename, extname } from 'node:path';
import { toTheory } from '../../../shared/scripts/script-file.ts';

export { toTheory };

/** Writes `script` to `path` (a `.thy` file) with a theory header whose name matches the file. */
export async function saveTheory(path: string, script: string, imports?: readonly string[]): Promise<string> {
  if (extname(path) !== '.thy') throw new Error(`a theory file must end in .thy: ${path}`);
  const text = toTheory(script, basename(path, '.thy'), imports);
  await writeFile(path, text, 'utf8');
  return text;
}
