import { z } from 'zod';

/** The project file in a workspace folder: which backend its proofs use and their prelude. */
export const PROJECT_FILE_NAME = 'arbor.project.json';

export const PROJECT_BACKENDS = ['coq', 'eq', 'lean', 'isabelle'] as const;

export const projectFileSchema = z.object({
  backend: z.enum(PROJECT_BACKENDS),
  /** Coq vernacular (e.g. `Require Import ZArith.`) or Lean imports (`import Mathlib` lines or module names). */
  prelude: z.string().max(64 * 1024).refine((s) => !s.includes('\u0000'), 'NUL in prelude').optional(),
}).strict();

export type ProjectFile = z.infer<typeof projectFileSchema>;

/** Parses a project file's text; a bad file gives one message naming the field, never a throw. */
export function parseProjectFile(text: string): { ok: true; project: ProjectFile } | { ok: false; error: string } {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    return { ok: false, error: `${PROJECT_FILE_NAME} is not JSON: ${(err as Error).message}` };
  }
  const parsed = projectFileSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { ok: false, error: `${PROJECT_FILE_NAME}: ${issue ? `${issue.path.join('.') || '(root)'}: ${issue.message}` : 'invalid'}` };
  }
  return { ok: true, project: parsed.data };
}
