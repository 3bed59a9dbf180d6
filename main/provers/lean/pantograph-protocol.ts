import { z } from 'zod';

/**
 * Pantograph's REPL answers (its `Pantograph/Protocol.lean`), validated. Target version: Pantograph
 * v0.3.x (Lean v4.21, `leanprover/Pantograph`); accepted differences of older v0.2.x releases:
 *   - failures as `tacticErrors: string[]` (v0.2) instead of `messages: SerialMessage[]` (v0.3);
 *   - `isConversion` (v0.2) instead of `fragment`; `isInaccessible` optional;
 *   - no `timeout`/`automaticMode` options (v0.2: then Arbor's own deadline kills and replays);
 *   - `goal.print` without `goals` (v0.2: Arbor keeps the goals of the last tactic result);
 *   - `goal.continue` takes `target` in the code of v0.3 while its doc says `stateId`: Arbor never needs it
 *     (automatic mode keeps every goal in the state).
 * A variable's type is `type` (Lean's derived `ToJson` drops the `?` of `type?`); `t` is read as well.
 */
export const expressionSchema = z.object({ pp: z.string().optional(), sexp: z.string().optional() }).passthrough();

export const variableSchema = z.object({
  name: z.string().optional(),
  userName: z.string(),
  isInaccessible: z.boolean().optional(),
  type: expressionSchema.optional(),
  t: expressionSchema.optional(),
  value: expressionSchema.optional(),
}).passthrough();

export const goalSchema = z.object({
  name: z.string().optional(),
  userName: z.string().optional(),
  fragment: z.string().optional(),
  isConversion: z.boolean().optional(),
  target: expressionSchema,
  vars: z.array(variableSchema).optional(),
}).passthrough();
export type PantographGoal = z.infer<typeof goalSchema>;

export const errorSchema = z.object({ error: z.string(), desc: z.string() });
export type PantographError = z.infer<typeof errorSchema>;

export const messageSchema = z.object({ severity: z.string().optional(), data: z.string().optional() }).passthrough();

export const tacticResultSchema = z.object({
  nextStateId: z.number().optional(),
  goals: z.array(goalSchema).optional(),
  messages: z.array(messageSchema).nullable().optional(),
  tacticErrors: z.array(z.string()).optional(),
  parseError: z.string().optional(),
  hasSorry: z.boolean().optional(),
}).passthrough();
export type TacticResult = z.infer<typeof tacticResultSchema>;

export const goalStartResultSchema = z.object({ stateId: z.number(), root: z.string().optional() }).passthrough();
export const goalPrintResultSchema = z.object({ goals: z.array(goalSchema).optional() }).passthrough();

export function isPantographError(value: unknown): value is PantographError {
  return errorSchema.safeParse(value).success;
}

/** The error messages of a failed tactic, whichever version answered. */
export function failureMessages(result: TacticResult): string[] {
  if (result.tacticErrors) return result.tacticErrors;
  return (result.messages ?? []).filter((m) => m.severity === undefined || m.severity === 'error').map((m) => m.data ?? '');
}

/** Informational messages (e.g. `Try this: exact …` from `exact?`). */
export function infoMessages(result: TacticResult): string[] {
  return (result.messages ?? []).filter((m) => m.severity !== undefined && m.severity !== 'error').map((m) => m.data ?? '');
}
