import { describe, expect, it } from 'vitest';
import { declaredAssumptions } from './assumptions.ts';
import { readArborStatement } from './arbor-plugin.ts';
import { guard } from './coq-errors.ts';
import { parseCheck } from './coq-queries.ts';
import { blockEffect } from './document-blocks.ts';
import { librariesFromPrint } from './functor-parameters.ts';
import { typeFromCheck } from './statement-reading.ts';
import { vToDocument } from './v-to-document.ts';
import { parseRequest } from '../../../shared/protocol/parse-request.ts';
import { splitRequests } from '../../../shared/protocol/split-requests.ts';

/** The readers of Coq text the no-break-space fix touched, alone (no Coq): a no-break space is part of a name. */
const NBSP = '\u00a0';

describe("Arbor's readers of Coq text keep a no-break space, part of a name", () => {
  it('guard trims Coq blanks only', () => {
    expect(guard('goal', ` ${NBSP}True `)).toBe(`${NBSP}True`);
    expect(guard('tactic', `exact h${NBSP}`)).toBe(`exact h${NBSP}`);
    expect(guard('goal', ' 1 = 1\t')).toBe('1 = 1');
  });

  it('a request\'s argument keeps a no-break space at its ends (APPLY, CHECK, RULE)', () => {
    expect(parseRequest(`APPLY intros h h${NBSP}`)).toMatchObject({ command: { name: 'APPLY', tactic: `intros h h${NBSP}` } });
    expect(parseRequest(`APPLY ${NBSP}exact I `)).toMatchObject({ command: { name: 'APPLY', tactic: `${NBSP}exact I` } });
    expect(parseRequest(`CHECK v${NBSP}`)).toMatchObject({ command: { name: 'CHECK', term: `v${NBSP}` } });
    expect(parseRequest('  APPLY  (exact I)\t')).toMatchObject({ command: { name: 'APPLY', tactic: '(exact I)' } });
    expect(parseRequest(`APPLY${NBSP}x`)).toMatchObject({ error: expect.stringMatching(/unknown command/) as unknown });
    expect(splitRequests(`APPLY intros h h${NBSP} ; APPLY exact h${NBSP}`).map((r) => r.text)).toEqual([`APPLY intros h h${NBSP}`, `APPLY exact h${NBSP}`]);
  });

  it('the plugin\'s lines and Check answers', () => {
    const read = readArborStatement([`@eq nat (S O) O${NBSP}`, `Names\nO${NBSP} Constant Top.O${NBSP}\nS Constructor Coq.Init.Datatypes.S`, 'Kernel\n(App eq)']);
    expect(read?.printed).toBe(`@eq nat (S O) O${NBSP}`);
    expect([...(read?.names ?? [])]).toEqual([[`O${NBSP}`, `Top.O${NBSP}`], ['S', 'Coq.Init.Datatypes.S']]);
    expect(typeFromCheck(`t\n     : ${NBSP}True`)).toBe(`${NBSP}True`);
    expect(typeFromCheck('t\n     : 1 = 1\n')).toBe('1 = 1');
    expect(parseCheck(`v\n     : T${NBSP}`)).toEqual({ term: 'v', type: `T${NBSP}` });
  });

  it('module blocks: names whole, comments and strings skipped, a let\'s own `:=` not counted', () => {
    expect(blockEffect(`Module Type N := with${NBSP}Definition.`)).toBeUndefined();
    expect(blockEffect('Module Type N (* with Definition *) := T.')).toBeUndefined();
    expect(blockEffect('Module Type N := éwith Definition.')).toBeUndefined();
    expect(blockEffect('Module M : T with Definition p := let y := 1 in y.')).toEqual({ open: { kind: 'module', name: 'M' } });
    expect(blockEffect('Module M : T with Definition p := (let y := 1 in y).')).toEqual({ open: { kind: 'module', name: 'M' } });
    expect(blockEffect('Module M : T with Definition p := let (a, b) := (1, 2) in a := N.')).toBeUndefined();
    expect(blockEffect('Module M : T with Definition p := 1.')).toEqual({ open: { kind: 'module', name: 'M' } });
    expect(blockEffect('Module M : T with Definition p := 1 := N.')).toBeUndefined();
  });

  it('prelude assumptions, Print Libraries, a .v file\'s theorem', () => {
    expect([...declaredAssumptions(`Axiom ax${NBSP} : True.\nAxiom ${NBSP}bx : True.\nLemma c${NBSP} : True. Admitted.\nParameter p q : nat.`)]).toEqual([`ax${NBSP}`, `${NBSP}bx`, 'p', 'q', `c${NBSP}`]);
    expect(librariesFromPrint(`Loaded library files:\n  Coq.Init.Prelude\n  Top.a${NBSP}b`)).toEqual(['Coq.Init.Prelude', `Top.a${NBSP}b`]);
    const [item] = vToDocument(`Theorem t${NBSP} : ${NBSP}True.\nProof. exact I. Qed.`);
    expect(item).toMatchObject({ kind: 'proof', name: `t${NBSP}`, statement: `${NBSP}True` });
  });
});
