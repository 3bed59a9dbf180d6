import { describe, expect, it } from 'vitest';
import { blockList, readArborBlocks, withCoqBlocks } from './coq-blocks.ts';

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
  it('takes Coq\'s blocks, with the reading\'s functor parameters only where it agrees', () => {
    const read = [{ kind: 'module' as const, name: 'F', params: ['X'] }, { kind: 'module type' as const, name: 'N' }];
    expect(withCoqBlocks(read, [{ kind: 'module', name: 'F' }])).toEqual([{ kind: 'module', name: 'F', params: ['X'] }]);
    expect(withCoqBlocks(read, [{ kind: 'module', name: 'G' }])).toEqual([{ kind: 'module', name: 'G' }]);
    expect(withCoqBlocks([], [{ kind: 'section', name: 'S' }])).toEqual([{ kind: 'section', name: 'S' }]);
  });
  it('says them for messages', () => {
    expect(blockList([])).toBe('nothing');
    expect(blockList([{ kind: 'module', name: 'M' }, { kind: 'section', name: 'S' }])).toBe('module M, section S');
  });
});
