import type { ContextEntry, OpenGoal } from '../../../shared/proof-tree/proof-state.ts';
import type { PrintMode } from '../../shell/prover-session.ts';
import { CoqFailure, type CoqideTopClient } from './coqidetop-client.ts';
import type { RawGoal } from './xml-protocol.ts';
import { isLetBound, splitHyp, type LetTypes, type SplitHyp } from './coq-hyps.ts';
import { letTypesAt } from './arbor-plugin.ts';
import { guessKind, kindsFromCheck, looksLikeProp, sortQuery, type EntryKind } from './context-kind.ts';
import { globalNames, parseCoqTerm, toSexp } from './coq-sexp.ts';

/** Coq's blanks only: a printed path may hold a no-break space (`Constant Top.x `), part of its last name. */
const LOCATE_KINDS = /^(?!Notation|Ltac|Module|ModuleType|No object)[^ \t\r\n]+[ \t]+([^ \t\r\n]+)/;

/**
 * Coq's goals as Arbor shows them: each hypothesis line split into one entry per name, each entry a `var`
 * or a `hyp` (by shape, else asked of Coq once per type and proof), and in print mode 2 every term as an
 * s-expression of kernel names. Reads the session's current coqidetop, which a restart replaces.
 */
export class GoalPrinter {
  /** Per proof: a type's kind as Coq's `Check` said (null: Coq could not tell; guess by shape). */
  private readonly kinds = new Map<string, EntryKind | null>();
  private readonly splits = new Map<string, SplitHyp[]>();
  private readonly fullNames = new Map<string, string>();

  constructor(
    private readonly coq: () => CoqideTopClient,
    public mode: PrintMode,
  ) {}

  private get client(): CoqideTopClient {
    return this.coq();
  }

  /** A new proof: the kinds Coq told for the last one may not hold (a DEFINE may have changed a type). */
  newProof(): void {
    this.kinds.clear();
  }

  /** The goals at the client's tip: a let-bound hypothesis' type is Coq's (`Arbor_let_types`), asked once when there is one. */
  async render(goals: RawGoal[]): Promise<OpenGoal[]> {
    const letTypes = await letTypesAt(this.client, goals);
    const open = await this.classify(letTypes === undefined ? goals : goals.map((g) => ({ ...g, letTypes: letTypes.get(g.id) })));
    return this.mode === 2 ? this.asSexp(open) : open;
  }

  /** var/hyp for every entry: by shape, from the per-proof cache, else one `Check` for all new types. */
  async classify(goals: readonly (Pick<RawGoal, 'hyps' | 'goal'> & { letTypes?: LetTypes | undefined })[]): Promise<OpenGoal[]> {
    const split = goals.map((g) => ({ g, entries: g.hyps.flatMap((h) => this.splitCached(h, g.letTypes)) }));
    const unknown = [...new Set((split[0]?.entries ?? []).map((e) => e.type).filter((t) => !this.kinds.has(t) && !looksLikeProp(t)))];
    if (unknown.length > 0) {
      let kinds: EntryKind[] | undefined;
      try {
        const out = await this.client.query(sortQuery(unknown));
        kinds = kindsFromCheck(out.map((m) => m.text).join('\n'), unknown.length);
      } catch (e) {
        if (!(e instanceof CoqFailure)) throw e;
      }
      // null: Coq could not tell (remembered too, so a strange type costs one query, not one per step).
      unknown.forEach((t, i) => this.kinds.set(t, kinds?.[i] ?? null));
    }
    return split.map(({ g, entries }) => ({
      goal: g.goal,
      context: entries.map((e): ContextEntry => ({ kind: this.kindOf(e.name, e.type), name: e.name, text: e.type })),
    }));
  }

  private kindOf(name: string, type: string): EntryKind {
    const k = this.kinds.get(type);
    if (k) return k;
    if (k === undefined && looksLikeProp(type)) {
      this.kinds.set(type, 'hyp');
      return 'hyp';
    }
    return guessKind(name, type);
  }

  /** Hypothesis lines repeat from step to step; split each text once (a let-bound one with Coq's type: each time). */
  splitCached(hyp: string, letTypes?: LetTypes): SplitHyp[] {
    if (letTypes !== undefined && isLetBound(hyp)) return splitHyp(hyp, letTypes);
    let hit = this.splits.get(hyp);
    if (!hit) {
      if (this.splits.size > 10_000) this.splits.clear();
      hit = splitHyp(hyp);
      this.splits.set(hyp, hit);
    }
    return hit;
  }

  /** Print mode 2: the same goals printed under `Set Printing All`, then converted to s-expressions. */
  private async asSexp(open: OpenGoal[]): Promise<OpenGoal[]> {
    if (open.length === 0) return open;
    const tip = this.client.tip;
    await this.client.add('Set Printing All.');
    let all: RawGoal[];
    let allTypes: Map<string, Map<string, string>> | undefined;
    try {
      all = (await this.client.goals()).goals ?? [];
      // At the state printing all: the let-bound hypotheses' types as printed there.
      allTypes = await letTypesAt(this.client, all);
    } finally {
      await this.client.editAt(tip);
    }
    const parsed = all.map((g) => {
      const entries = g.hyps.flatMap((h) => splitHyp(h, allTypes?.get(g.id)));
      const locals = new Set(entries.map((e) => e.name));
      const terms = [g.goal, ...entries.map((e) => e.type)].map((t) => {
        try {
          return parseCoqTerm(t);
        } catch {
          return undefined;
        }
      });
      return { g, entries, locals, terms };
    });
    const wanted = new Set<string>();
    for (const p of parsed) for (const t of p.terms) if (t) for (const n of globalNames(t, p.locals)) if (!this.fullNames.has(n)) wanted.add(n);
    for (const n of wanted) {
      // `Locate Term`: a bare `Locate` refuses names that are words of its grammar (`Term`, `Module`, …).
      const out = await this.client.query(`Locate Term ${n}.`).catch(() => []);
      const line = out.flatMap((m) => m.text.split('\n')).find((l) => LOCATE_KINDS.test(l));
      this.fullNames.set(n, LOCATE_KINDS.exec(line ?? '')?.[1] ?? n);
    }
    const resolve = (n: string): string => this.fullNames.get(n) ?? n;
    return open.map((o, i) => {
      const p = parsed[i];
      if (!p) return o;
      const show = (j: number, fallback: string): string => {
        const t = p.terms[j];
        return t ? toSexp(t, p.locals, resolve) : fallback;
      };
      return {
        goal: show(0, p.g.goal),
        context: o.context.map((e, j) => ({ ...e, text: show(j + 1, p.entries[j]?.type ?? e.text) })),
      };
    });
  }
}
