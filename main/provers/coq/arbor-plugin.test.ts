import { describe, expect, it } from 'vitest';
import { CoqSession } from './coq-session.ts';
import { notices } from './statement-reading.ts';
import { useRealClient } from './testing/real-client.ts';
import { quoted, useRealShell } from './testing/real-shell.ts';

/** Arbor's Coq plugin (coq-plugin/, arbor-plugin.ts) in a real coqidetop: what `Arbor_references` answers. */
describe('Arbor_references (real coqidetop with the plugin)', () => {
  const client = useRealClient({ plugin: true });
  const references = async (sentences: string[], name: string): Promise<string[]> => {
    const c = client();
    const start = c.tip;
    try {
      for (const s of sentences) await c.addAndGoals(s);
      return notices(await c.query(`Arbor_references ${name}.`)).split('\n');
    } finally {
      await c.editAt(start);
    }
  };

  it('a proof by lia: the theorem first, then the globals of its kernel term, libraries included', async () => {
    const lines = await references(['Require Import Lia.', 'Lemma l (n m : nat) : n + m = m + n.', 'Proof.', 'lia.', 'Qed.'], 'l');
    expect(lines[0]).toBe('Constant Top.l');
    expect(lines).toEqual(expect.arrayContaining(['Constant Coq.micromega.ZMicromega.ZTautoChecker_sound', 'Constant Coq.ZArith.Znat.Nat2Z.inj_add', 'Inductive Coq.Init.Datatypes.nat', 'Constant Coq.Init.Nat.add']));
    expect(lines.every((l) => /^(Constant|Inductive|Constructor) [^ ]+$/.test(l))).toBe(true);
  }, 60_000);

  it('an axiom used in the proof, a bound variable named like a global: only the globals', async () => {
    const lines = await references(['Axiom ax : False.', 'Definition n := 0.', 'Lemma l : forall n : nat, n = n \\/ False.', 'Proof.', 'intros n; right; exact ax.', 'Qed.'], 'l');
    expect(lines).toContain('Constant Top.ax');
    // The bound `n` is no global: `Top.n` is not mentioned.
    expect(lines).not.toContain('Constant Top.n');
  }, 60_000);

  it('a match on an inductive named nowhere else, and a record projection: both listed', async () => {
    const lines = await references(['Inductive two := A | B.', 'Record R := mk { f : nat }.', 'Definition d (x : two) (r : R) : nat := match x with A => f r | B => 0 end.'], 'd');
    expect(lines).toEqual(expect.arrayContaining(['Constant Top.d', 'Inductive Top.two', 'Inductive Top.R', 'Constant Top.f']));
  }, 60_000);

  it('a section\'s variables and Let by name; what it cannot vouch for ends in Unreadable: a primitive integer, a non-constant', async () => {
    const inSection = await references(['Section S.', 'Variable v : nat.', 'Let w := 2.', "Variable v' : nat.", "Definition h := v + w + v'."], 'h');
    expect(inSection).toEqual(expect.arrayContaining(['Constant Top.S.h', 'Variable v', 'Variable w', "Variable v'"]));
    expect(inSection).not.toContain('Unreadable');
    const primitive = await references(['Require Import Coq.Numbers.Cyclic.Int63.PrimInt63.', 'Definition i := 3%uint63.'], 'i');
    expect(primitive).toEqual(['Constant Top.i', 'Unreadable']);
    expect(await references([], 'nat')).toEqual(['Inductive Coq.Init.Datatypes.nat', 'Unreadable']);
  }, 60_000);

  it('changes no state: the tip and the environment are as before', async () => {
    const c = client();
    const tip = c.tip;
    await c.query('Arbor_references plus_n_O.');
    expect(c.tip).toBe(tip);
    expect(notices(await c.query('Print Libraries.'))).not.toMatch(/arbor/i);
  }, 60_000);
});

/** `Arbor_statement NAME.`: the type as stored, printed as `Set Printing All` prints it, and what its printed names locate to. */
describe('Arbor_locate (real coqidetop with the plugin)', () => {
  const client = useRealClient({ plugin: true });
  it("resolves a name a notation made a keyword, as Locate Term would; anything else is Unreadable; no state changes", async () => {
    const c = client();
    const start = c.tip;
    try {
      await c.addAndGoals('From Coq Require Import Uint63.');
      // `Locate Term land.` is a syntax error here: `land` is a keyword of Uint63's notations.
      await expect(c.query('Locate Term land.')).rejects.toThrow();
      const tip = c.tip;
      const locate = async (s: string): Promise<string> => notices(await c.query(`Arbor_locate ${JSON.stringify(s)}.`));
      expect(await locate('land')).toBe('Constant Coq.Numbers.Cyclic.Int63.PrimInt63.land');
      expect(await locate('Nat.add')).toBe('Constant Coq.Init.Nat.add');
      for (const junk of ['', 'no_such_name', 'a b', 'x.', '(land)']) expect(await locate(junk), junk).toBe('Unreadable');
      expect(c.tip).toBe(tip);
    } finally {
      await c.editAt(start);
    }
  });
});

describe('Arbor_assumptions, Arbor_sort, Arbor_let_types (real coqidetop with the plugin)', () => {
  const client = useRealClient({ plugin: true });
  it('Arbor_assumptions is Print Assumptions of a name given as a string; Arbor_sort its type\'s sort; no state changes', async () => {
    const c = client();
    const start = c.tip;
    try {
      for (const s of ['Require Uint63.', 'Section S.', 'Variable landx : 0 = 1.', 'Variable land : 0 = 1.', 'Variable T : Set.', 'Import Uint63.']) await c.addAndGoals(s);
      const tip = c.tip;
      // The same text as Coq's own command, where Coq can parse the name.
      expect(notices(await c.query('Arbor_assumptions "landx".'))).toBe(notices(await c.query('Print Assumptions landx.')));
      await expect(c.query('Print Assumptions land.')).rejects.toThrow();
      expect(notices(await c.query('Arbor_assumptions "land".'))).toBe('Section Variables:\nland\n: 0 = 1');
      for (const junk of ['no_such_name', 'a b', '(land)']) await expect(c.query(`Arbor_assumptions ${JSON.stringify(junk)}.`), junk).rejects.toThrow();
      expect(notices(await c.query('Arbor_sort "land".'))).toBe('Prop');
      expect(notices(await c.query('Arbor_sort "T".'))).toBe('Type');
      expect(notices(await c.query('Arbor_sort "Nat.add".'))).toBe('Set');
      expect(c.tip).toBe(tip);
    } finally {
      await c.editAt(start);
    }
  });

  it('Arbor_let_types: each let-bound hypothesis\' type by goal id, as the goal prints it', async () => {
    const c = client();
    const start = c.tip;
    try {
      await expect(c.query('Arbor_let_types.')).rejects.toThrow();
      await c.addAndGoals('Goal True /\\ True.');
      await c.addAndGoals('pose (x := fun n : nat => @eq_refl nat n); pose (y := x); pose (z := (1, 2)).');
      const r = await c.addAndGoals('split.');
      const goals = r.goals ?? [];
      expect(goals[0]?.hyps).toEqual(['x := fun n : nat => eq_refl : forall n : nat, n = n', 'y := x : forall n : nat, n = n', 'z := (1, 2) : nat * nat']);
      const said = (await c.query('Arbor_let_types.')).filter((m) => m.level === 'notice').map((m) => m.text);
      expect(said).toHaveLength(6);
      for (const g of goals) expect(said.filter((t) => t.startsWith(`${g.id}\n`)).map((t) => t.split('\n').slice(1).join(' '))).toEqual(['x forall n : nat, n = n', 'y forall n : nat, n = n', 'z nat * nat']);
    } finally {
      await c.editAt(start);
    }
  });
});

describe('Arbor_statement (real coqidetop with the plugin)', () => {
  const client = useRealClient({ plugin: true });
  const statement = async (sentences: string[], name: string): Promise<{ printed: string; names: [string, string][]; locate: string[]; kernel: string }> => {
    const c = client();
    const start = c.tip;
    try {
      for (const s of sentences) await c.addAndGoals(s);
      const said = (await c.query(`Arbor_statement ${name}.`)).filter((m) => m.level === 'notice').map((m) => m.text);
      expect(said).toHaveLength(3);
      expect(said[2]).toMatch(/^Kernel\n/);
      const [head, ...lines] = (said[1] as string).split('\n');
      expect(head).toBe('Names');
      const names = lines.map((l) => l.split(' ')).map(([shown, kind, path]) => [shown as string, `${kind} ${path}`] as [string, string]);
      // Each printed name's line is `Locate Term`'s own first answer for that name, here.
      const locate = await Promise.all(names.map(async ([shown]) => notices(await c.query(`Locate Term ${shown}.`)).split('\n')[0] as string));
      return { printed: said[0] as string, names, locate, kernel: (said[2] as string).replace(/^Kernel\n/, '') };
    } finally {
      await c.editAt(start);
    }
  };

  it('implicit binders and a redex as stored (Check inserts an existential and reduces); names as Locate gives them', async () => {
    const r = await statement(['Theorem t : forall {A : Type} (x : A), (fun P : Prop => P) (x = x).', 'Proof.', 'reflexivity.', 'Qed.'], 't');
    expect(r.printed).toBe('forall (A : Type) (x : A), (fun P : Prop => P) (@eq A x x)');
    expect(r.names).toEqual([['eq', 'Inductive Coq.Init.Logic.eq']]);
    expect(r.locate).toEqual(['Inductive Coq.Init.Logic.eq']);
    // The term itself: binder names left out, universe levels numbered, bound variables by index, globals by kernel name.
    expect(r.kernel).toBe('(pi (type 0+0) (pi #1 (app (lam Prop #1) (app (ind "Coq.Init.Logic.eq" 0) #2 #1 #1))))');
  }, 60_000);

  it('the kernel term tells apart what prints alike, and names the object an alias stands for', async () => {
    const a = await statement(['Definition and\u00a0P (Q : Prop) := True.', 'Theorem t : forall P : Prop, and\u00a0P P.', 'Proof.', 'Admitted.'], 't');
    // Names as OCaml string literals: the no-break space is its two UTF-8 bytes, escaped.
    expect(a.kernel).toBe('(pi Prop (app (const "Top.and\\194\\160P") #1))');
    const b = await statement(['Module M := Coq.Init.Datatypes.', 'Theorem t : M.negb true = false.', 'Proof.', 'Admitted.'], 't');
    expect(b.kernel).toContain('(const "Coq.Init.Datatypes.negb")');
  }, 60_000);

  it('a document name shadowing a library one, a bound variable named like a global, a match: the printed names resolve as Locate does', async () => {
    const r = await statement(['Definition negb (b : bool) := b.', 'Theorem t : forall (b : bool) (orb : nat), negb (Datatypes.negb b) = Datatypes.negb b /\\ orb = orb /\\ match b with true => True | false => True end.', 'Proof.', 'Admitted.'], 't');
    expect(r.printed).toMatch(/@eq bool \(negb \(Datatypes\.negb b\)\) \(Datatypes\.negb b\)/);
    expect(r.printed).toMatch(/@eq nat orb orb/);
    const names = Object.fromEntries(r.names);
    expect(names).toMatchObject({ negb: 'Constant Top.negb', 'Datatypes.negb': 'Constant Coq.Init.Datatypes.negb', true: 'Constructor Coq.Init.Datatypes.true', false: 'Constructor Coq.Init.Datatypes.false' });
    // The bound `orb` is no global: never listed.
    expect(names.orb).toBeUndefined();
    expect(r.locate).toEqual(r.names.map(([, line]) => line));
  }, 60_000);

  it('refuses what is no constant; changes no state', async () => {
    const c = client();
    const tip = c.tip;
    await expect(c.query('Arbor_statement nat.')).rejects.toThrow(/not a constant/);
    await expect(c.query('Arbor_statement arbor_no_such_name.')).rejects.toThrow(/arbor_no_such_name/);
    await c.query('Arbor_statement plus_n_O.');
    expect(c.tip).toBe(tip);
  }, 60_000);
});

describe('a channel judges END with the plugin (real coqidetop)', () => {
  it('three theorems, one using the one before: no fallback to Coq\'s whole walk', async () => {
    const session = await CoqSession.open({ timeoutMs: 20_000 });
    try {
      for (const [name, goal, tactic] of [['a1', 'forall n : nat, n + 0 = n', 'intros; lia'], ['a2', 'forall n : nat, 0 + n + 0 = n', 'intros; rewrite a1; reflexivity'], ['a3', 'True', 'exact I']] as const) {
        await session.start(goal, name);
        await session.step({ kind: 'apply', tactic });
        await session.finish();
      }
      expect(session.closedConstants.stats).toMatchObject({ judged: 3, fallbacks: 0 });
    } finally {
      await session.dispose();
    }
  }, 120_000);
});

describe('the plugin is no part of a document (real arbor-shell)', () => {
  const { session } = useRealShell(['--pool', '0']);
  it('SCRIPT does not load it; a DEFINE may not call it', async () => {
    const rs = await session([`GOAL ${quoted('1 = 1')}`, 'APPLY reflexivity', 'END', 'SCRIPT', `DEFINE ${quoted('Arbor_references plus_n_O.')}`, `DEFINE ${quoted('Arbor_statement plus_n_O.')}`, `DEFINE ${quoted('Arbor_locate "plus_n_O".')}`, `DEFINE ${quoted('Arbor_assumptions "plus_n_O".')}`, `DEFINE ${quoted('Arbor_sort "plus_n_O".')}`, `GOAL ${quoted('True')}`, `DEFINE ${quoted('Arbor_let_types.')}`]);
    expect(rs.slice(0, 4).map((r) => r.ERR)).toEqual(['', '', '', '']);
    expect(JSON.stringify(rs[3]?.RESPONSE)).not.toMatch(/arbor_plugin|Declare ML/);
    expect(rs[4]?.ERR).toMatch(/not allowed|refused|unsupported/);
    expect(rs[5]?.ERR).toMatch(/not allowed|refused|unsupported/);
    expect(rs[6]?.ERR).toMatch(/not allowed|refused|unsupported/);
    expect(rs[7]?.ERR).toMatch(/not allowed|refused|unsupported/);
    expect(rs[8]?.ERR).toMatch(/not allowed|refused|unsupported/);
    expect(rs[10]?.ERR).toMatch(/not allowed|refused|unsupported|open proof|inside a proof/);
  }, 120_000);
});
