import { z } from 'zod';

/**
 * Pantograph's REPL answers, validated against what its source says (`Pantograph/Protocol.lean`,
 * `Repl.lean`, `Main.lean` of `lenianiva/Pantograph` at tag v0.3.4, and the expectations of the newest
 * client, PyPantograph 0.3.15). Arbor speaks only to Pantograph ≥ 0.3.4 (see `pantograph-version.ts`),
 * so these are the v0.3.4 shapes; older labels (`tacticErrors`, `isConversion`, string `messages`) are
 * not accepted. Lean's derived `ToJson` drops a field's trailing `?` and leaves the field out when it is
 * `none` (`type?` → `type`, `userName?` → `userName`); plain `Bool` fields are always present.
 */
export const expressionSchema = z.object({ pp: z.string().optional(), sexp: z.string().optional() }).passthrough();
export type PantographExpression = z.infer<typeof expressionSchema>;

export const variableSchema = z.object({
  /** The free variable's internal name (`_uniq.10`), as it appears in `(:fv …)` of an s-expression. */
  name: z.string(),
  userName: z.string(),
  isInaccessible: z.boolean(),
  type: expressionSchema.optional(),
  value: expressionSchema.optional(),
}).passthrough();

/** `Protocol.Fragment` (v0.3.3+): the tactic mode a goal is in. Arbor only ever works in `tactic`. */
export const fragmentSchema = z.enum(['tactic', 'conv', 'calc']);

export const goalSchema = z.object({
  name: z.string(),
  userName: z.string().optional(),
  fragment: fragmentSchema,
  target: expressionSchema,
  vars: z.array(variableSchema),
}).passthrough();
export type PantographGoal = z.infer<typeof goalSchema>;

/** `Lean.SerialMessage` (v0.3.4: `messages` carry Lean's message objects, no longer strings). */
export const messageSchema = z.object({
  severity: z.enum(['information', 'warning', 'error']),
  data: z.string(),
  kind: z.string().optional(),
}).passthrough();
export type PantographMessage = z.infer<typeof messageSchema>;

/**
 * `goal.tactic`'s answer. Success: `nextStateId` and `goals` (empty: the goal is closed); failure:
 * `messages` only; a tactic that does not parse: `parseError`. `hasSorry`/`hasUnsafe` say whether the
 * step's proof term uses `sorryAx` or an unsafe constant (then it proves nothing).
 */
export const tacticResultSchema = z.object({
  nextStateId: z.number().int().nonnegative().optional(),
  goals: z.array(goalSchema).optional(),
  messages: z.array(messageSchema).optional(),
  parseError: z.string().optional(),
  hasSorry: z.boolean(),
  hasUnsafe: z.boolean(),
}).passthrough();
export type TacticResult = z.infer<typeof tacticResultSchema>;

export const goalStartResultSchema = z.object({ stateId: z.number().int().nonnegative(), root: z.string() }).passthrough();

export const goalPrintResultSchema = z.object({
  root: expressionSchema.optional(),
  goals: z.array(goalSchema),
  rootHasSorry: z.boolean(),
  rootHasUnsafe: z.boolean(),
  rootHasMVar: z.boolean(),
}).passthrough();

export const statResultSchema = z.object({ nGoals: z.number().int().nonnegative() }).passthrough();

/**
 * The `error` of `{error, desc}` answers, each from where Pantograph raises it (v0.3.4):
 * - `command`: unknown command or a payload that is not the command's JSON (`Repl.lean` `execute`, `Main.lean`);
 * - `index`: a state, goal or symbol that does not exist (`errorIndex`);
 * - `operation`: a `goal.tactic` without exactly one action, an unknown mode (`errorOperation`);
 * - `arguments`: `goal.start` without exactly one of expr/copyFrom, and similar;
 * - `parsing`: the term does not parse; `elab`: it does not elaborate (`Library.lean` `parseElabType`/`parseElabExpr`);
 * - `typing`: `expr.echo` could not infer a type; `expr`: `env.add` could not elaborate;
 * - `invalid`: an action the state does not allow (`TacticResult.invalidAction`);
 * - `structure`: `goal.continue` on unrelated states;
 * - `core`: a runtime limit (maxHeartbeats, maxRecDepth): Lean's `Core.tryCatch` re-throws those past
 *   the handler in `runCoreM` (`Repl.lean` line 76), so they are not `exception`s; `internal`: an internal exception, `desc` its name —
 *   `interrupt` when the `timeout` option cancelled the command (`Test/Integration.lean` `test_tactic_timeout`);
 * - `exception`: any other exception caught around a command (`runCoreM`);
 * - `io`: an IO error; `main`: an exception that reached the main loop.
 */
export const PANTOGRAPH_ERROR_KINDS = [
  'command', 'index', 'operation', 'arguments', 'parsing', 'elab', 'typing', 'expr', 'invalid', 'structure',
  'core', 'internal', 'exception', 'io', 'main',
] as const;
export type PantographErrorKind = (typeof PANTOGRAPH_ERROR_KINDS)[number];

export const errorSchema = z.object({ error: z.string(), desc: z.string() });
export type PantographError = z.infer<typeof errorSchema>;

export function isPantographError(value: unknown): value is PantographError {
  return errorSchema.safeParse(value).success;
}

/** The error kind, when it is one Pantograph's source raises (anything else is a protocol surprise). */
export function errorKind(error: PantographError): PantographErrorKind | undefined {
  return (PANTOGRAPH_ERROR_KINDS as readonly string[]).includes(error.error) ? (error.error as PantographErrorKind) : undefined;
}

/** The `timeout` option interrupted the command (Lean's `interrupt` internal exception). */
export function isInterrupt(error: PantographError): boolean {
  return error.error === 'internal' && error.desc === 'interrupt';
}

/** The error messages of a failed tactic (severity `error`). */
export function failureMessages(result: TacticResult): string[] {
  return (result.messages ?? []).filter((m) => m.severity === 'error').map((m) => m.data);
}

/** Informational messages (e.g. `Try this: exact …` from `exact?`). */
export function infoMessages(result: TacticResult): string[] {
  return (result.messages ?? []).filter((m) => m.severity !== 'error').map((m) => m.data);
}
