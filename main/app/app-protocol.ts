import { net, protocol } from 'electron';
import { extname, join, normalize, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { SECURITY_HEADERS } from '../host/csp.ts';

export const APP_SCHEME = 'app';
export const APP_ORIGIN = `${APP_SCHEME}://arbor`;

/** Must run before `app.ready`: app:// is a standard, secure origin (workers, fetch of its own files). */
export function registerAppScheme(): void {
  protocol.registerSchemesAsPrivileged([{ scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } }]);
}

const TYPES: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.ttf': 'font/ttf', '.svg': 'image/svg+xml', '.png': 'image/png' };

/** Serves the renderer build from `root` with the same CSP and headers as the web host. */
export function serveRenderer(root: string): void {
  protocol.handle(APP_SCHEME, async (request) => {
    const url = new URL(request.url);
    if (url.host !== 'arbor') return new Response('not found', { status: 404 });
    const file = normalize(join(root, decodeURIComponent(url.pathname)));
    if (!file.startsWith(root + sep)) return new Response('not found', { status: 404 });
    const upstream = await net.fetch(pathToFileURL(file).toString()).catch(() => undefined);
    if (!upstream?.ok) return new Response('not found', { status: 404 });
    const headers = new Headers(SECURITY_HEADERS);
    headers.set('Content-Type', TYPES[extname(file)] ?? 'application/octet-stream');
    return new Response(upstream.body, { status: 200, headers });
  });
}
