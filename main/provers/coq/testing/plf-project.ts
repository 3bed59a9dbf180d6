import { fileURLToPath } from 'node:url';
import { openProjectWorkspace, type VfaWorkspace } from './vfa-project.ts';

const FIXTURE = fileURLToPath(new URL('../../../../fixtures/public/plf/', import.meta.url));

/** PLF's files in dependency order (Maps → Imp → Equiv; Maps, Imp → Smallstep → Types). */
export const PLF_FILES = ['Maps.v', 'Imp.v', 'Equiv.v', 'Smallstep.v', 'Types.v'] as const;

export type PlfWorkspace = VfaWorkspace;

/**
 * `fixtures/public/plf` (Software Foundations vol. 2, MIT; SOURCE.md) as a user's workspace: copied under `.tmp/`,
 * compiled by the real `coqc` as its `_CoqProject` says (`-Q . PLF`), trusted, opened in a workbench shell.
 */
export function openPlfWorkspace(prefix: string): Promise<PlfWorkspace> {
  return openProjectWorkspace({ fixture: FIXTURE, logical: 'PLF', files: PLF_FILES }, prefix);
}
