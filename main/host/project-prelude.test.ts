import { describe, expect, it } from 'vitest';
import type { ProjectInfo } from '../../shared/settings/provers-report.ts';
import { parseRequest } from '../../shared/protocol/parse-request.ts';
import { quoteArgument } from '../../shared/protocol/quote-argument.ts';
import { projectPrelude } from './project-prelude.ts';

const ctx = (project: ProjectInfo | null, path: string | undefined = '/ws/sub/a.arbor', backend = 'coq') => ({
  path, workspace: '/ws', backend, readProject: async (dir: string) => (dir === '/ws/sub' ? project : null),
});

describe('a folder\'s arbor.project.json for new channels', () => {
  it('gives the prelude of the document\'s folder as one request line', async () => {
    expect(await projectPrelude(ctx({ path: '/ws/sub/arbor.project.json', backend: 'coq', prelude: 'Require Import ZArith.\nRequire Import Lia.' }))).toBe('Require Import ZArith. Require Import Lia.');
    expect(await projectPrelude(ctx({ path: 'p', backend: 'lean', prelude: 'import Mathlib\nimport Aesop' }, '/ws/sub/a.lean', 'lean'))).toBe('import Mathlib, import Aesop');
  });

  it('nothing for unsaved buffers, the workspace root (the host applied it) and folders without a file', async () => {
    expect(await projectPrelude({ ...ctx({ path: 'p', backend: 'coq', prelude: 'X.' }), path: undefined })).toBeUndefined();
    expect(await projectPrelude(ctx({ path: 'p', backend: 'coq', prelude: 'X.' }, '/ws/a.arbor'))).toBeUndefined();
    expect(await projectPrelude(ctx(null))).toBeUndefined();
  });

  it('a project for another backend, or an invalid one, is one clear error', async () => {
    await expect(projectPrelude(ctx({ path: '/ws/sub/arbor.project.json', backend: 'lean' }))).rejects.toThrow(/asks for the lean backend, but this workbench runs coq/);
    await expect(projectPrelude(ctx({ path: '/ws/sub/arbor.project.json', error: 'arbor.project.json: backend: Invalid option' }))).rejects.toThrow(/^\/ws\/sub\/arbor\.project\.json: backend: Invalid option$/);
  });

  it('the PRELUDE request parses back to the same text', () => {
    expect(parseRequest(`3 PRELUDE ${quoteArgument('Definition s := "x".')}`)).toMatchObject({ channel: 3, command: { name: 'PRELUDE', text: 'Definition s := "x".' } });
  });
});
