import { z } from 'zod';

/**
 * The schema the MCP SDK sees for a tool: it advertises exactly the real schema's JSON Schema, but
 * accepts anything, so that the tool itself validates and can answer `bad_argument: …` (the SDK's own
 * validation error has no stable reason code).
 */
export function lenientSchema(real: z.ZodObject): z.ZodType {
  const json = z.toJSONSchema(real, { io: 'input' }) as { properties?: Record<string, object>; required?: string[] };
  const required = new Set(json.required ?? []);
  const shape: Record<string, z.ZodType> = {};
  for (const [key, property] of Object.entries(json.properties ?? {})) {
    shape[key] = (required.has(key) ? z.unknown() : z.unknown().optional()).meta(property as Record<string, unknown>);
  }
  return z.looseObject(shape);
}
