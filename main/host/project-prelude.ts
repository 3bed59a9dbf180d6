import type { ProjectInfo } from '../../shared/settings/provers-report.ts';

export interface PreludeContext {
  /** The document's file (unsaved buffers have none: they use the workbench's defaults). */
  path: string | undefined;
  /** The workspace root: its project file was applied by the host at start, so it is not sent again. */
  workspace: string;
  /** The one backend this workbench's shell runs. */
  backend: string;
  readProject: (dir: string) => Promise<ProjectInfo | null>;
}

/**
 * The PRELUDE a new channel for this document gets from its folder's `arbor.project.json`. A project
 * file that does not validate, or that asks for another backend than the shell runs (one per workbench,
 * chosen at start), stops checking with one clear error instead of sending proofs to the wrong prover.
 */
export async function projectPrelude(ctx: PreludeContext): Promise<string | undefined> {
  if (ctx.path === undefined) return undefined;
  const dir = ctx.path.replace(/[/\\][^/\\]*$/, '');
  if (dir === '' || dir === ctx.workspace.replace(/[/\\]+$/, '')) return undefined;
  const project = await ctx.readProject(dir);
  if (project === null) return undefined;
  if (project.error !== undefined) throw new Error(`${project.path}: ${project.error.replace(/^arbor\.project\.json:\s*/, '')}`);
  if (project.backend !== undefined && project.backend !== ctx.backend) {
    throw new Error(`${project.path} asks for the ${project.backend} backend, but this workbench runs ${ctx.backend} (one backend per workbench, chosen when it starts): start the workbench with that folder as its workspace`);
  }
  if (project.prelude === undefined || project.prelude.trim() === '') return undefined;
  // One request line: Lean's imports stay separable (`,`), Coq's sentences end with `.` anyway.
  return project.prelude.split(/\r?\n/).map((l) => l.trim()).filter(Boolean).join(ctx.backend === 'lean' ? ', ' : ' ');
}
