import { z } from 'zod';

/**
 * The schema the MCP SDK sees for a tool: it advertises exactly the real schema's JSON Schema (as
 * metadata), but accepts any object, so that the tool itself validates and can answer
 * `bad_argument: …` (the SDK's own validation error has no stable reason code).
 */
export function lenientSchema(real: z.ZodObject): z.ZodType {
  const { $schema: _dialect, ...json } = z.toJSONSchema(real, { io: 'input' }) as Record<string, unknown>;
  return z.looseObject({}).meta(json);
}
