import { describe, expect, it } from 'vitest';
import { goalNameOf } from './goal-name.ts';

describe('goalNameOf', () => {
  it('is the name the parser takes: unicode, primes, dots; none for unnamed or unparsable GOALs', () => {
    expect(goalNameOf("GOAL αβ' \"True\"")).toBe("αβ'");
    expect(goalNameOf('  7 GOAL λ₁ "True"')).toBe('λ₁');
    expect(goalNameOf('GOAL 𝔸x "True"')).toBe('𝔸x');
    expect(goalNameOf('GOAL "True"')).toBeUndefined();
    expect(goalNameOf('GOAL αβ True')).toBeUndefined();
    expect(goalNameOf('APPLY (exact I)')).toBeUndefined();
  });
});
