import { rm } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { readCoqProject } from './coq-project.ts';
import { writtenCoqProject } from './testing/coq-project-fixture.ts';

/**
 * Attack (atk-prim) on trusting Coq's primitive-number libraries by kernel-name PREFIX (assumptions.ts
 * primitiveLibraryAxiom): a `_CoqProject` binding its folder to `Coq.Floats.PrimFloat` would make its
 * `Evil.v`'s `Axiom bad : False` the kernel name `Coq.Floats.PrimFloat.Evil.bad` (coqc accepts it), under a
 * trusted prefix. Held: Arbor does not bind a load path under the prefix `Coq`.
 */
describe('a project library under the logical root Coq.Floats.PrimFloat', () => {
  it('is never bound (the prefix Coq is the standard library)', async () => {
    const root = await writtenCoqProject('atk-prim-', 'Coq.Floats.PrimFloat', { 'Evil.v': 'Axiom bad : False.\n' });
    try {
      const setup = await readCoqProject(root);
      expect(setup?.args.args).toEqual([]);
      expect(setup?.status.ignored.join('\n')).toMatch(/Coq\.Floats\.PrimFloat: the prefix Coq is the standard library/);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  }, 120_000);
});
