import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PROJECT_FILE_NAME, parseProjectFile } from '../../shared/project/project-file.ts';
import type { ProversReport } from '../../shared/settings/provers-report.ts';

export type ProjectInfo = NonNullable<ProversReport['project']>;

/**
 * The folder's `arbor.project.json`: null when there is none; a file that does not validate is reported
 * (and ignored) rather than stopping the workbench.
 */
export async function readWorkspaceProject(dir: string): Promise<ProjectInfo | null> {
  const path = join(dir, PROJECT_FILE_NAME);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch {
    return null;
  }
  const parsed = parseProjectFile(text);
  if (!parsed.ok) return { path, error: parsed.error };
  return { path, backend: parsed.project.backend, ...(parsed.project.prelude !== undefined ? { prelude: parsed.project.prelude } : {}) };
}
