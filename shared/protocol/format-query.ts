import { quoteArgument as quote } from './quote-argument.ts';
import type { QueryCommand } from './shell-command.ts';

/** The kinds of look-up, as clients (the editor, MCP tools) name them. */
export type QueryKind = 'search' | 'check' | 'about' | 'print' | 'locate';

/** A look-up as a command value; `text` is a pattern, a term or a name by kind. */
export function queryCommand(kind: QueryKind, text: string): QueryCommand {
  const t = text.trim();
  switch (kind) {
    case 'search': return { name: 'SEARCH', pattern: t };
    case 'check': return { name: 'CHECK', term: t };
    case 'about': return { name: 'ABOUT', ident: t };
    case 'print': return { name: 'PRINT', ident: t };
    case 'locate': return { name: 'LOCATE', ident: t };
  }
}

/**
 * One look-up as a protocol request (without a channel). Patterns and terms go in quotes, so the shell
 * reads them back exactly (`parseRequest`); names are sent as they are and the shell refuses bad ones.
 */
export function formatQuery(q: QueryCommand): string {
  switch (q.name) {
    case 'SEARCH': return `SEARCH ${quote(q.pattern)}`;
    case 'CHECK': return `CHECK ${quote(q.term)}`;
    case 'ABOUT':
    case 'PRINT':
    case 'LOCATE': return `${q.name} ${/^"[^"]*"$/.test(q.ident) ? q.ident : q.ident.replace(/\s/g, '')}`;
  }
}
