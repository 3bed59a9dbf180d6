import { describe, expect, it } from 'vitest';
import { parseProjectFile } from './project-file.ts';

describe('arbor.project.json', () => {
  it('reads backend and prelude', () => {
    expect(parseProjectFile('{"backend":"coq","prelude":"Require Import ZArith."}')).toEqual({ ok: true, project: { backend: 'coq', prelude: 'Require Import ZArith.' } });
    expect(parseProjectFile('{"backend":"lean"}')).toEqual({ ok: true, project: { backend: 'lean' } });
  });

  it('names the bad field, never throws', () => {
    expect(parseProjectFile('{"backend":"hol"}')).toMatchObject({ ok: false, error: expect.stringMatching(/^arbor\.project\.json: backend: /) });
    expect(parseProjectFile('{"prelude":"x"}')).toMatchObject({ ok: false, error: expect.stringMatching(/backend/) });
    expect(parseProjectFile('{"backend":"coq","extra":1}')).toMatchObject({ ok: false, error: expect.stringMatching(/extra|unrecognized/i) });
    expect(parseProjectFile('{"backend":"coq","prelude":3}')).toMatchObject({ ok: false, error: expect.stringMatching(/prelude/) });
    expect(parseProjectFile('not json')).toMatchObject({ ok: false, error: expect.stringMatching(/not JSON/) });
    expect(parseProjectFile('[]')).toMatchObject({ ok: false });
  });
});
