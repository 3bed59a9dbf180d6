import { parseRequest } from '../protocol/parse-request.ts';
import type { ParsedRequest } from '../protocol/shell-command.ts';
import { splitRequests } from '../protocol/split-requests.ts';

/** One request of an editor line: as written (without a channel number) and as parsed. */
export interface LineRequest {
  /** The request's text, trimmed, any channel number written before it left out (a document runs on its own channel). */
  text: string;
  parsed: ParsedRequest;
}

/** An editor line, split into requests and parsed once: what the host sends is these values, never the text again. */
export interface ParsedLine {
  text: string;
  requests: readonly LineRequest[];
}

export function parseLine(text: string): ParsedLine {
  const requests = splitRequests(text).map((raw): LineRequest => {
    const bare = raw.text.replace(/^[0-9]+\s+/, '');
    return { text: bare, parsed: raw.error ? { channel: 0, error: raw.error, text: raw.text } : parseRequest(raw.text) };
  });
  return { text, requests };
}

/**
 * The parsed lines of a new text of the document: a line whose text was in the previous version keeps its
 * parse (an edit parses only the lines it changed).
 */
export function parseLines(lines: readonly string[], previous: readonly ParsedLine[] = []): ParsedLine[] {
  const known = new Map<string, ParsedLine>();
  for (const p of previous) known.set(p.text, p);
  return lines.map((text) => known.get(text) ?? parseLine(text));
}
