import { describe, expect, it } from 'vitest';
import { blockList, readArborBlocks, sameBlocks } from './coq-blocks.ts';

describe('Coq\'s open blocks (plugin Arbor_blocks)', () => {
  it('reads the plugin\'s notice, outermost first', () => {
    expect(readArborBlocks(['Blocks'])).toEqual([]);
    expect(readArborBlocks(['Blocks\nmodule M\nsection S\nmodule type U'])).toEqual([
      { kind: 'module', name: 'M' }, { kind: 'section', name: 'S' }, { kind: 'module type', name: 'U' },
    ]);
    // A module named `type` is a module, not a module type without a name.
    expect(readArborBlocks(['Blocks\nmodule type'])).toEqual([{ kind: 'module', name: 'type' }]);
  });
  it('refuses anything else (no answer is never "nothing open")', () => {
    expect(readArborBlocks([])).toBeUndefined();
    expect(readArborBlocks(['Blocks', 'module M'])).toBeUndefined();
    expect(readArborBlocks(['Blocks\nfunctor F'])).toBeUndefined();
    expect(readArborBlocks(['Names\nmodule M'])).toBeUndefined();
  });
  it('compares kinds and names in order, and says them', () => {
    expect(sameBlocks([{ kind: 'module', name: 'M', params: ['X'] } as { kind: 'module'; name: string }], [{ kind: 'module', name: 'M' }])).toBe(true);
    expect(sameBlocks([{ kind: 'module type', name: 'M' }], [{ kind: 'module', name: 'M' }])).toBe(false);
    expect(sameBlocks([{ kind: 'module', name: 'M' }], [])).toBe(false);
    expect(blockList([])).toBe('nothing');
    expect(blockList([{ kind: 'module', name: 'M' }, { kind: 'section', name: 'S' }])).toBe('module M, section S');
  });
});
