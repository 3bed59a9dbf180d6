import { describe, expect, it } from 'vitest';
import { proversFrom, reconstructionFrom, reconstructionVariants } from './hammer-reconstruction.ts';

describe('hammer reconstruction', () => {
  it('reads the replacement hint', () => {
    expect(reconstructionFrom(['Reconstructing the proof...', 'Replace the hammer tactic with:\n\tsrun eauto use: map_length.'])).toBe(
      'srun eauto use: map_length',
    );
    expect(reconstructionFrom(['nothing'])).toBeUndefined();
  });
  it('repairs srun with a bare tactic', () => {
    expect(reconstructionVariants('srun eauto use: map_length')).toEqual([
      'srun eauto use: map_length',
      'srun (eauto) use: map_length',
      'eauto using map_length',
    ]);
    expect(reconstructionVariants('sauto use: a, b')).toEqual(['sauto use: a, b']);
  });
  it('reads prover detection', () => {
    expect(proversFrom(['Eprover found', 'Vampire not found', 'Z3 not found', 'CVC4 found'])).toEqual({
      found: ['Eprover', 'CVC4'],
      missing: ['Vampire', 'Z3'],
    });
  });
});
