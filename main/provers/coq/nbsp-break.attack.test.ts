import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CoqideTopClient } from './coqidetop-client.ts';
import { runCoqText } from './coq-text-runner.ts';
import { quoted as q, useRealShell } from './testing/real-shell.ts';
import { SentencePolicy } from './vernacular-policy.ts';
import { markArborPlugin } from './arbor-plugin.ts';
import { pluginOptions } from './testing/real-client.ts';

/**
 * Attacks on the no-break-space reading (atk-nbsp). Each `it` here failed when written: a real break.
 *
 * Coq 8.16.1, measured with coqc: U+00A0 is a name character (Unicode.classify: Letter), so `with\u00a0Definition`
 * is ONE identifier, usable as a module type's name. Arbor's block reader (document-blocks.ts `constraints`) still
 * counts `with\s+Definition` with JavaScript's `\s`, which takes the no-break space: `Module Type N := with\u00a0Definition.`
 * (a module type defined at once: nothing opens in Coq) is read as a `Module Type … with Definition … :=` constraint,
 * so Arbor believes module type N is open. The policy then allows `Axiom` (inModuleType), which Coq runs at top level.
 */
const NBSP = '\u00a0';
const show = (r: unknown): string => JSON.stringify(r, (k, v: unknown) => (k === 'SCRIPT' ? undefined : v)).replace(/\u00a0/g, '<NBSP>').slice(0, 600);
const W = `with${NBSP}Definition`;

describe('the policy reads module blocks with Coq blanks (unit, the policy alone)', () => {
  it('`Module Type N := with<NBSP>Definition.` opens nothing: a following `Axiom` is refused in a DEFINE', () => {
    const policy = new SentencePolicy('define', [], true);
    expect(policy.judge(`Module Type ${W}.`, false)).toBeUndefined();
    expect(policy.judge(`End ${W}.`, false)).toBeUndefined();
    expect(policy.judge(`Module Type N := ${W}.`, false)).toBeUndefined();
    expect(policy.blocks, show(policy.blocks)).toEqual([]);
    expect(policy.judge('Axiom boom : False.', false)).toMatch(/not allowed/);
  });
});

describe('the policy reads module blocks with Coq blanks (real coqidetop, arbor-shell)', () => {
  const { session } = useRealShell(['--timeout', '30', '--pool', '0']);

  it('a DEFINE can never declare an Axiom behind `Module Type N := with<NBSP>Definition.`', { timeout: 240_000 }, async () => {
    const [define] = await session([
      `DEFINE ${q(`Module Type ${W}. End ${W}. Module Type N := ${W}. Axiom boom : False.`)}`,
    ]);
    // Measured: ERR "" and `declared: []` — Coq declared the axiom Top.boom at top level (coqc agrees: `Print Assumptions boom` lists it).
    expect(define?.ERR, show(define)).toMatch(/not allowed/);
  });
});

/**
 * The GOAL statement goes through coq-errors.ts `guard`, which returns `text.trim()`: JavaScript's trim takes a
 * no-break space at either end, which Coq reads as part of the first or last name. `GOAL t "⍽True"` (⍽ = U+00A0)
 * after `Definition ⍽True := False.` ran `Theorem t : (True).` in the session — proved by `exact I`, ASSUMPTIONS [],
 * no STATEMENT (both readings were made of the trimmed text) — while the SCRIPT keeps `Theorem t : (⍽True).`,
 * which coqc 8.16.1 rejects (`exact I` does not prove `⍽True`, i.e. False).
 */
describe('a GOAL statement is sent to Coq as written: no JavaScript trim of a no-break space at its ends', () => {
  const { session } = useRealShell(['--timeout', '30', '--pool', '0']);

  it('`GOAL t "<NBSP>True"` where `<NBSP>True` is the document\'s False is never proved by `exact I`', { timeout: 240_000 }, async () => {
    const [define, goal, , end] = await session([
      `DEFINE ${q(`Definition ${NBSP}True := False.`)}`,
      `GOAL t ${q(`${NBSP}True`)}`,
      'APPLY (exact I)',
      'END',
    ]);
    expect(define?.ERR, show(define)).toBe('');
    // Measured: goal "True", then END finished with ASSUMPTIONS [] and no STATEMENT.
    expect((goal?.RESPONSE as { goal: string }).goal, show(goal)).toBe(`${NBSP}True`);
    expect(end?.ASSUMPTIONS === undefined || end.STATEMENT !== undefined, show(end)).toBe(true);
  });

  it('`forall (x<NBSP> : nat) (x : nat), x = x<NBSP>` (false) is not proved by reflexivity', { timeout: 240_000 }, async () => {
    const [goal, , end] = await session([
      `GOAL t ${q(`forall (x${NBSP} : nat) (x : nat), x = x${NBSP}`)}`,
      'APPLY (intros; reflexivity)',
      'END',
    ]);
    // Measured: goal "nat -> forall x : nat, x = x" (the last x's no-break space trimmed), END finished, ASSUMPTIONS [].
    expect((goal?.RESPONSE as { goal: string }).goal, show(goal)).toBe(`forall x${NBSP} x : nat, x = x${NBSP}`);
    expect(end?.ASSUMPTIONS, show(end)).toBeUndefined();
  });
});

/**
 * The statement judge reads the document's elaborated statement with JavaScript's trim: a statement whose
 * `Set Printing All` print ENDS with a name ending in a no-break space (`@eq nat (S O) O⍽`) is read as ending in
 * another name (`O`, which `Locate Term` then resolves to Coq's constructor). `Notation O := O⍽.` with
 * `Definition O⍽ := 1.` makes `(1 = O)` — false in a clean environment — provable by reflexivity, and END answered
 * it proved with ASSUMPTIONS [] and NO STATEMENT (measured). The same with `Definition Oh := 1. Notation O := Oh.`
 * carries STATEMENT (`Top.Oh` stands where a clean reading has `Coq.Init.Datatypes.O`): only the no-break space hides it.
 */
describe('the statement judge never loses a no-break space at the end of the printed statement', () => {
  const { session } = useRealShell(['--timeout', '30', '--pool', '0']);

  it('`(1 = O)` proved through `Notation O := O<NBSP>` (O<NBSP> := 1) carries STATEMENT', { timeout: 240_000 }, async () => {
    const [define, , , end] = await session([
      `DEFINE ${q(`Definition O${NBSP} := 1. Notation O := O${NBSP}.`)}`,
      `GOAL t ${q('(1 = O)')}`,
      'APPLY (reflexivity)',
      'END',
    ]);
    expect(define?.ERR, show(define)).toBe('');
    expect(end?.ERR, show(end)).toBe('');
    expect(end?.STATEMENT, show(end)).toBeDefined();
  });

  it('`GOAL t "False"` proved by `exact I` through `Notation False := <NBSP>False` (<NBSP>False := True) carries STATEMENT', { timeout: 240_000 }, async () => {
    const [define, , , end] = await session([
      `DEFINE ${q(`Definition ${NBSP}False := True. Notation False := ${NBSP}False.`)}`,
      `GOAL t ${q('False')}`,
      'APPLY (exact I)',
      'END',
    ]);
    expect(define?.ERR, show(define)).toBe('');
    // Measured: END finished, ASSUMPTIONS [], no STATEMENT: "False" reported proved.
    expect(end?.ASSUMPTIONS === undefined || end.STATEMENT !== undefined, show(end)).toBe(true);
  });

  it('`(1 = x<NBSP>)` with the document\'s `x := 0` and `x<NBSP> := 1` is flagged as a name that may look like another, as `(1 = x<NBSP> + 0)` is', { timeout: 240_000 }, async () => {
    const [, , , end] = await session([
      `DEFINE ${q(`Definition x := 0. Definition x${NBSP} := 1.`)}`,
      `GOAL u ${q(`(1 = x${NBSP})`)}`,
      'APPLY (reflexivity)',
      'END',
    ]);
    // Measured: finished, ASSUMPTIONS [], no STATEMENT; `(1 = x<NBSP> + 0)` gets STATEMENT with "non-ASCII characters U+00A0".
    expect(JSON.stringify(end?.STATEMENT ?? null), show(end)).toMatch(/U\+00A0/);
  });
});

/**
 * The same block reader (document-blocks.ts) decides "nothing opened" when a `Module … : T with Definition x := …`
 * sentence holds more `:=` than constraints: a `let … :=` (or any `:=`) inside the constraint's body makes an honest
 * module look defined at once, and its `End M.` is then refused. coqc 8.16.1 accepts the text (measured).
 */
describe('an honest module with a `let` in its type constraint (real coqidetop)', () => {
  let client: CoqideTopClient;
  let start: number;
  beforeAll(async () => {
    // As a channel's coqidetop runs: with Arbor's plugin, which the policy asks where `Parameter p` stands.
    client = await CoqideTopClient.start(pluginOptions());
    markArborPlugin(client);
    start = client.tip;
  });
  afterAll(() => client.dispose());

  it('`Module M : T with Definition p := let y := 1 in y. Definition p := 1. End M.` is accepted as a DEFINE', { timeout: 240_000 }, async () => {
    const text = 'Module Type T. Parameter p : nat. End T. Module M : T with Definition p := let y := 1 in y. Definition p := 1. End M.';
    let refusal: string | undefined;
    try {
      await runCoqText(client, text, { purpose: 'define', timeoutMs: 20_000 });
    } catch (e) {
      refusal = (e as Error).message;
    } finally {
      if (client.tip !== start) await client.editAt(start);
    }
    // Measured: "parse error: declaration closes a section or module it did not open".
    expect(refusal).toBeUndefined();
  });
});

/**
 * PRINT_MODE 2 (s-expressions with full names): coq-goal-printer.ts resolves each name with `Locate Term` and reads the
 * answer with `LOCATE_KINDS = /^…\S+\s+(\S+)/` — `\S` stops at the no-break space, so `Constant Top.x<NBSP>` is read
 * as `Top.x`, another constant of the document (measured: the goal of `(x<NBSP> = 1)` showed `… Top.x …`).
 */
describe('PRINT_MODE 2 names the constant the goal holds', () => {
  const { session } = useRealShell(['--timeout', '30', '--pool', '0']);

  it('a goal over `x<NBSP>` shows `Top.x<NBSP>`, never the document\'s other constant `Top.x`', { timeout: 240_000 }, async () => {
    const [, , goal] = await session([
      `DEFINE ${q(`Definition x := 0. Definition x${NBSP} := 1.`)}`,
      'PRINT_MODE 2',
      `GOAL t ${q(`(x${NBSP} = 1)`)}`,
    ]);
    expect((goal?.RESPONSE as { goal: string }).goal, show(goal)).toBe(`(Coq.Init.Logic.eq Coq.Init.Datatypes.nat Top.x${NBSP} (Coq.Init.Datatypes.S Coq.Init.Datatypes.O))`);
  });
});

/** CHECK's answer is read by coq-queries.ts `parseCheck` with `text.trim()` and `\s`: a type ending in a no-break space loses it. */
describe('CHECK keeps a no-break space at the end of the type', () => {
  const { session } = useRealShell(['--timeout', '30', '--pool', '0']);

  it('`CHECK v` with `v : T<NBSP>` answers the type `T<NBSP>`, not `T`', { timeout: 240_000 }, async () => {
    const [, check] = await session([
      `DEFINE ${q(`Definition T${NBSP} := nat. Definition v : T${NBSP} := 1.`)}`,
      'CHECK v',
    ]);
    // Measured: {"term":"v","type":"T"} (while DEFINE's `declared` says `v : T<NBSP>`).
    expect(check?.RESPONSE, show(check)).toEqual({ term: 'v', type: `T${NBSP}` });
  });
});

/**
 * Coq's error messages are flattened by coq-errors.ts `flat` (`\s+` → ' ', `trim`): a no-break space in a name
 * becomes a plain space or is dropped, so the error names another reference than the one Coq did not find.
 */
describe('an error names the reference Coq named', () => {
  const { session } = useRealShell(['--timeout', '30', '--pool', '0']);

  it('`exact (h<NBSP>)` with only `h` in context says `h<NBSP>` was not found, not `h` (which is there)', { timeout: 240_000 }, async () => {
    const [, , apply] = await session([
      `GOAL t ${q('forall h : True, True')}`,
      'APPLY (intros h)',
      `APPLY (exact (h${NBSP}))`,
    ]);
    // Measured: "The reference h was not found in the current environment."
    expect(apply?.ERR, show(apply)).toContain(`h${NBSP} was not found`);
  });
});

/**
 * The user's own `--prelude` declares trusted axioms (docs/guarantees.md). assumptions.ts `declaredAssumptions` reads
 * the prelude's names with JavaScript's `\s` (`([^:.]+?)\s*:`, `split(/\s+/)`), so `Axiom ax<NBSP> : …` is read as
 * declaring `ax`: the axiom the user chose is then refused as `unsound` (measured; `Axiom axx` is trusted).
 */
describe('a prelude axiom named with a no-break space is the user\'s trusted axiom', () => {
  const dir = mkdtempSync(join(tmpdir(), 'atk-nbsp-'));
  const prelude = join(dir, 'prelude.v');
  writeFileSync(prelude, `Axiom ax${NBSP} : forall n : nat, n + 0 = n.\nAxiom ${NBSP}bx : forall n : nat, 0 + n = n.\n`);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const { session } = useRealShell(['--timeout', '30', '--pool', '0', '--prelude', prelude]);

  it('a proof by `ax<NBSP>` or `<NBSP>bx` finishes, listing the prelude axiom', { timeout: 240_000 }, async () => {
    const [, , end, , , end2] = await session([
      `GOAL t ${q('forall n : nat, n + 0 = n')}`,
      `APPLY (exact (ax${NBSP}))`,
      'END',
      `GOAL u ${q('forall n : nat, 0 + n = n')}`,
      `APPLY (exact (${NBSP}bx))`,
      'END',
    ]);
    // Measured: "unsound: depends on ax<NBSP> (Top.ax<NBSP>)" and "unsound: depends on <NBSP>bx (Top.<NBSP>bx)".
    expect(end?.ERR, show(end)).toBe('');
    expect(end2?.ERR, show(end2)).toBe('');
  });
});
