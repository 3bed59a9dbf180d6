import { declaredAssumptions } from '../provers/coq/assumptions.ts';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PROJECT_FILE_NAME, parseProjectFile } from '../../shared/project/project-file.ts';
import type { ProjectInfo } from '../../shared/settings/provers-report.ts';

export type { ProjectInfo };

/**
 * The folder's `arbor.project.json`: null when there is none; a file that does not validate is reported
 * (and ignored) rather than stopping the workbench. `read` fails for a missing file (or one outside
 * what the caller may read): both mean "no project file here".
 */
export async function readWorkspaceProject(dir: string, read: (path: string) => Promise<string> = (p) => readFile(p, 'utf8')): Promise<ProjectInfo | null> {
  const path = join(dir, PROJECT_FILE_NAME);
  let text: string;
  try {
    // The renderer's `project.read` passes the workspace's confined read (only folders it may read).
    text = await read(path);
  } catch {
    return null;
  }
  const parsed = parseProjectFile(text);
  if (!parsed.ok) return { path, error: parsed.error };
  return { path, backend: parsed.project.backend, ...(parsed.project.prelude !== undefined ? { prelude: parsed.project.prelude } : {}) };
}

/** The assumptions a project prelude declares, by name, for the question that asks the user to trust them. */
export const projectAssumptionNames = (prelude: string): string[] => [...declaredAssumptions(prelude)];
