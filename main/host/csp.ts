/**
 * The renderer's Content-Security-Policy, identical in the web host and in Electron (BRIEF §6).
 * Beyond the brief's list only restrictions are added (frame-ancestors, base-uri, form-action). Monaco
 * needs nothing more: its editor worker is a same-origin module file ('self'; blob: kept for workers
 * Monaco may spin up from blobs), its styles are a built CSS file plus inline style attributes
 * ('unsafe-inline' in style-src only), its codicon font is a built asset ('self').
 */
export const RENDERER_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "worker-src 'self' blob:",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self' ws://127.0.0.1:*",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

/** Headers sent with every renderer file. */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy': RENDERER_CSP,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
  'X-Frame-Options': 'DENY',
};
