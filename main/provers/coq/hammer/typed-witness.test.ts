import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ShellProcess } from '../../../cli/shell-process.ts';
import { existentialBinder, typedWitnessTactics } from './typed-witness.ts';

describe('the bound variable of an existential or a sigma goal (pure)', () => {
  it('reads exists, sig and sigT as Coq prints them', () => {
    expect(existentialBinder('exists c : color, code c = 2')).toEqual({ name: 'c', type: 'color' });
    expect(existentialBinder('{f : foo | ctornum f = 3}')).toEqual({ name: 'f', type: 'foo' });
    expect(existentialBinder('{l : list bool & length l = 2}')).toEqual({ name: 'l', type: 'list bool' });
    expect(existentialBinder('forall n, n = n')).toBeUndefined();
  });
  it('one tactic per small value of the type, the document\'s constructors included', () => {
    const ts = typedWitnessTactics({ name: 'c', type: 'color' }, new Map([['color', [{ name: 'red', args: [] }, { name: 'green', args: [] }]]]));
    expect(ts.map((t) => t.tactic)).toEqual([expect.stringContaining('exists (red)'), expect.stringContaining('exists (green)')]);
    expect(typedWitnessTactics({ name: 'f', type: 'nat -> nat' }, new Map())).toEqual([]);
  });
});

describe('HAMMER\'s witnesses over the document\'s own types (real coqidetop)', () => {
  let shell: ShellProcess;
  beforeAll(() => {
    shell = new ShellProcess(['--timeout', '60', '--max-channels', '4', '--pool', '0']);
  });
  afterAll(async () => {
    expect(await shell.end()).toBe(0);
  });

  // The witness is a constructor of a type the document declares, reached only through its own function:
  // no lemma, no arithmetic, and `eexists` leaves `code ?c = 3`, which nothing unifies.
  const defs = 'Inductive shade := pale | mid | deep | ink. Definition code (s : shade) : nat := match s with pale => 0 | mid => 1 | deep => 3 | ink => 7 end.';
  for (const goal of ['exists s : shade, code s = 3', '{s : shade | code s = 7}', 'exists l : list shade, length l = 1 /\\ code (hd pale l) = 1']) {
    it(`closes ${goal} with a value of the type`, async () => {
      const c = ((await shell.request('NEW_CHANNEL', 0)).RESPONSE as { ID: number }).ID;
      expect((await shell.request(`${c} DEFINE "${defs}"`, c)).ERR).toBe('');
      expect((await shell.request(`${c} GOAL "${goal}"`, c)).ERR).toBe('');
      const t0 = performance.now();
      const r = await shell.request(`${c} HAMMER 20`, c);
      expect(performance.now() - t0).toBeLessThan(21_000);
      expect(r.ERR).toBe('');
      expect(r.HAMMER_REPORT?.closedWith).toMatch(/exists \(/);
      expect((await shell.request(`${c} END`, c)).ERR).toBe('');
    }, 120_000);
  }
});
