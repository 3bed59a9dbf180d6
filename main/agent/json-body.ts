import type { IncomingMessage } from 'node:http';

/** The MCP SDK's own limit on a request body (4 MiB): the same refusal, whoever reads the body. */
export const MAX_JSON_BODY_BYTES = 4 * 1024 * 1024;
/** JSON-RPC messages are shallow; nothing Arbor's tools take comes near this. */
export const MAX_JSON_DEPTH = 256;

export type JsonBody = { ok: true; value: unknown } | { ok: false; status: number; code: number; message: string };

/** The deepest nesting of `[`/`{` in JSON text, stopping once past `limit` (strings skipped; linear, no recursion). */
export function jsonDepthOver(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > limit) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

/**
 * Reads and parses a JSON request body for the MCP transport, refusing what the SDK would choke on: JSON
 * nested deeper than `maxDepth` (a million nested arrays made the SDK's validation reset the connection
 * with no answer) gets a JSON-RPC error like any other bad body; over `maxBytes` is 413, as the SDK says it.
 */
export async function readJsonBody(req: IncomingMessage, maxBytes = MAX_JSON_BODY_BYTES, maxDepth = MAX_JSON_DEPTH): Promise<JsonBody> {
  const tooLarge: JsonBody = { ok: false, status: 413, code: -32000, message: `Payload Too Large: Request body must not exceed ${maxBytes} bytes` };
  if (Number(req.headers['content-length']) > maxBytes) {
    req.resume();
    return tooLarge;
  }
  // Listeners, not `for await`: leaving an async iterator early destroys the socket, and a client's next
  // request on the same kept-alive connection would be reset; past the limit the rest is drained unread.
  const chunks = await new Promise<Buffer[] | undefined>((resolve, reject) => {
    const got: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size <= maxBytes) return void got.push(chunk);
      req.off('data', onData);
      req.resume();
      resolve(undefined);
    };
    req.on('data', onData);
    req.on('end', () => resolve(got));
    req.on('error', reject);
  });
  if (chunks === undefined) return tooLarge;
  const text = Buffer.concat(chunks).toString('utf8');
  if (jsonDepthOver(text, maxDepth)) return { ok: false, status: 400, code: -32600, message: `Invalid Request: JSON nested deeper than ${maxDepth} levels` };
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false, status: 400, code: -32700, message: 'Parse error: Invalid JSON' };
  }
}
