import { afterAll, describe, expect, it } from 'vitest';
import type { ShellResponse } from '../../../shared/protocol/shell-command.ts';
import { CoqShells } from '../../batch/coq-shells.ts';
import { runHammerJob } from '../../batch/jobs/hammer-job.ts';
import { finished, quoted as q, useRealShell } from './testing/real-shell.ts';

/**
 * What dropping the notation guard opens (docs/notation-overrides.md): a DEFINE may now redefine a notation
 * in use, as coqc allows. Attacked through the real arbor-shell and coqidetop: every override that changes
 * what a statement means must finish (if at all) with a STATEMENT that says what it means; an honest
 * override (a lesson's own `and` behind `/\`) finishes too, its meaning shown, not refused.
 */
const errs = (rs: ShellResponse[]): string => JSON.stringify(rs.map((r) => r.ERR));

describe('notation overrides are allowed and shown by the statement judge', () => {
  const { session, shell } = useRealShell(['--timeout', '20']);

  const lies: { name: string; requests: string[]; elaborated: RegExp; finishes: boolean }[] = [
    {
      name: '`x = y` redefined as True in type_scope, before GOAL "forall n : nat, n = n + 1"',
      requests: [`DEFINE ${q('Notation "x = y" := True : type_scope.')}`, `GOAL ${q('forall n : nat, n = n + 1')}`, 'APPLY (intros; exact I)', 'END'],
      elaborated: /^forall.*nat.*Coq\.Init\.Logic\.True$/,
      finishes: true,
    },
    {
      // The right-hand side is read before the override: `x <> y` there is the library's `~ (x = y)`.
      name: '`x = y` redefined as `x <> y` in type_scope: `0 = 1` by discriminate',
      requests: [`DEFINE ${q('Notation "x = y" := (x <> y) : type_scope.')}`, `GOAL ${q('0 = 1')}`, 'APPLY discriminate', 'END'],
      elaborated: /^Coq\.Init\.Logic\.not \(Coq\.Init\.Logic\.eq Coq\.Init\.Datatypes\.nat /,
      finishes: true,
    },
    {
      // Unscoped, `x = y` does not override type_scope's (Coq keeps the library's meaning): the proof of True fails.
      name: 'unscoped `Notation "x = y" := True` before GOAL "forall n, n = n + 1"',
      requests: [`DEFINE ${q('Notation "x = y" := True.')}`, `GOAL ${q('forall n, n = n + 1')}`, 'APPLY (intros; exact I)', 'END'],
      elaborated: /True/,
      finishes: false,
    },
    {
      name: '`False` redefined in a scope opened by a later DEFINE',
      requests: [
        `DEFINE ${q('Declare Scope evil_scope. Notation "\'False\'" := True : evil_scope.')}`,
        `DEFINE ${q('Definition unrelated := 0.')}`,
        `DEFINE ${q('Open Scope evil_scope.')}`,
        `GOAL ${q('False')}`, 'APPLY (exact I)', 'END',
      ],
      elaborated: /^Coq\.Init\.Logic\.True$/,
      finishes: true,
    },
    {
      name: '`~` and `->` redefined in type_scope by a scope-opening DEFINE',
      requests: [
        `DEFINE ${q('Notation "~ x" := (x -> x) : type_scope.')}`,
        `DEFINE ${q('Declare Scope evil_scope. Notation "A -> B" := (and A B) : evil_scope. Open Scope evil_scope.')}`,
        `GOAL ${q('~ False')}`, 'APPLY (exact (fun h => h))', 'END',
      ],
      elaborated: /^forall \(_ : Coq\.Init\.Logic\.False\), Coq\.Init\.Logic\.False$/,
      finishes: true,
    },
    {
      name: '`/\\` made `\\/` in type_scope',
      requests: [`DEFINE ${q('Notation "A /\\ B" := (or A B) : type_scope.')}`, `GOAL ${q('True /\\ False')}`, 'APPLY (left; exact I)', 'END'],
      elaborated: /^Coq\.Init\.Logic\.or /,
      finishes: true,
    },
  ];
  for (const l of lies) {
    it(`STATEMENT shows it: ${l.name}`, async () => {
      const rs = await session(l.requests);
      const end = rs.at(-1);
      expect(finished(end), errs(rs)).toBe(l.finishes);
      if (finished(end)) {
        expect(end?.STATEMENT?.elaborated, JSON.stringify(end?.STATEMENT)).toMatch(l.elaborated);
        expect(end?.STATEMENT?.differences.join('\n')).toMatch(/clean reading has/);
      }
    }, 180_000);
  }

  it('a notation override hidden in one client\'s DEFINE of a shared channel shows in another client\'s END', async () => {
    // Two clients of one channel are two request streams on it: the first DEFINEs something that looks
    // harmless and hides an override in a module it imports; the second states False and proves it with I.
    const raw = shell();
    const ch = ((await raw.request('NEW_CHANNEL', 0)).RESPONSE as { ID: number }).ID;
    try {
      const define = await raw.request(`${ch} DEFINE ${q('Definition helper := 1. Module Helpers. Notation "\'False\'" := True : type_scope. End Helpers. Import Helpers.')}`, ch);
      expect(define.ERR).toBe('');
      const rs = [];
      for (const line of [`GOAL ${q('False')}`, 'APPLY (exact I)', 'END']) rs.push(await raw.request(`${ch} ${line}`, ch));
      const end = rs.at(-1);
      expect(finished(end), errs(rs)).toBe(true);
      expect(end?.STATEMENT?.elaborated).toMatch(/^Coq\.Init\.Logic\.True$/);
      expect(end?.STATEMENT?.differences.join('\n')).toMatch(/clean reading has `Coq\.Init\.Logic\.False`/);
    } finally {
      await raw.request(`${ch} RELEASE_CHANNEL`, ch);
    }
  }, 180_000);

  it('an honest override (a lesson\'s own `and` behind `/\\`) is accepted, its meaning shown', async () => {
    const rs = await session([
      `DEFINE ${q('#[local] Set Warnings "-notation-overridden". Inductive and (P Q : Prop) : Prop := conj : P -> Q -> and P Q. Notation "A /\\ B" := (and A B) : type_scope.')}`,
      `GOAL ${q('forall P Q : Prop, P /\\ Q -> Q /\\ P')}`,
      'APPLY (intros P Q [p q]; exact (conj Q P q p))',
      'END',
    ]);
    expect(rs[0]?.ERR).toBe('');
    const end = rs.at(-1);
    expect(finished(end), errs(rs)).toBe(true);
    expect(end?.STATEMENT?.elaborated).toMatch(/Top\.and Q P/);
    expect(end?.STATEMENT?.differences.join('\n')).toMatch(/`and` is the document's own `Top\.and`, not `Coq\.Init\.Logic\.and`/);
  }, 180_000);
});

describe('arbor batch hammer after an override the old guard refused', () => {
  const shells = new CoqShells();
  afterAll(() => shells.dispose());

  it('`+` redefined as multiplication in nat_scope itself: proved-different-meaning, never proved', async () => {
    const context = '#[local] Set Warnings "-notation-overridden". Notation "x + y" := (Nat.mul x y) : nat_scope.';
    const r = await runHammerJob({ kind: 'hammer', id: 'nat-mul', statement: 'forall n : nat, n + 1 = n', context, seconds: 10 }, shells);
    expect(r.outcome, JSON.stringify(r.evidence)).toBe('proved-different-meaning');
    const statement = (r.evidence as { statement?: { elaborated: string; differences: string[] } }).statement;
    expect(statement?.elaborated).toMatch(/Nat\.mul n/);
    expect(statement?.differences.join('\n')).toMatch(/clean reading has `Coq\.Init\.Nat\.add/);
  }, 180_000);
});
