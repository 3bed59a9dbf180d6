import { runProcess } from '../process/process-manager.ts';
import { mkdir, readdir, rm, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root (this file is main/host/renderer-build.ts). */
export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const RENDERER_DIST = join(REPO_ROOT, 'dist', 'renderer');
export const EXAMPLES_DIR = join(REPO_ROOT, 'resources', 'examples');

async function newest(dir: string): Promise<number> {
  let best = 0;
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  for (const e of entries) {
    const p = join(dir, e.name);
    if (e.isDirectory()) best = Math.max(best, await newest(p));
    else if (!e.name.endsWith('.test.ts')) best = Math.max(best, (await stat(p)).mtimeMs);
  }
  return best;
}

/** True when dist/renderer is missing or older than any renderer or shared source. */
export async function rendererIsStale(): Promise<boolean> {
  const built = await stat(join(RENDERER_DIST, 'index.html')).then((s) => s.mtimeMs, () => 0);
  if (built === 0) return true;
  const config = await stat(join(REPO_ROOT, 'vite.renderer.config.ts')).then((st) => st.mtimeMs, () => 0);
  const sources = Math.max(config, await newest(join(REPO_ROOT, 'renderer')), await newest(join(REPO_ROOT, 'shared')));
  return sources > built;
}

/**
 * Builds the renderer with vite when it is missing or stale, so `npm run web`, `npm start` and the e2e
 * tests work from a fresh clone. Vite is a dev dependency: a packaged app ships the build instead.
 */
export async function ensureRendererBuilt(log: (line: string) => void = () => undefined): Promise<void> {
  if (!(await rendererIsStale())) return;
  // Test workers and CLIs may start at once: one builds, the others wait for it (mkdir is atomic).
  const lock = join(REPO_ROOT, 'dist', '.renderer-build.lock');
  await mkdir(join(REPO_ROOT, 'dist'), { recursive: true });
  for (;;) {
    try {
      await mkdir(lock);
      break;
    } catch {
      const age = await stat(lock).then((st) => Date.now() - st.mtimeMs, () => 0);
      if (age > 5 * 60_000) await rm(lock, { recursive: true, force: true }); // left by a crashed build
      else await new Promise((r) => setTimeout(r, 250));
      if (!(await rendererIsStale())) return;
    }
  }
  try {
    if (await rendererIsStale()) await buildRenderer(log);
  } finally {
    await rm(lock, { recursive: true, force: true });
  }
}

async function buildRenderer(log: (line: string) => void): Promise<void> {
  log('building the renderer (vite)…');
  // A child process with NODE_ENV=production: inside vitest NODE_ENV is `test`, which would make the
  // React plugin and React itself pick their development builds.
  const viteBin = join(dirname(createRequire(import.meta.url).resolve('vite/package.json')), 'bin', 'vite.js');
  const r = await runProcess({
    program: process.execPath,
    args: [viteBin, 'build', '--config', join(REPO_ROOT, 'vite.renderer.config.ts'), '--logLevel', 'warn'],
    cwd: REPO_ROOT,
    env: { ...process.env, NODE_ENV: 'production' },
    timeoutMs: 600_000,
    sandbox: false, // Arbor's own build, no untrusted text
  });
  if (r.exitCode !== 0) throw new Error(`renderer build failed: ${r.stderr || (r.timedOut ? 'timed out' : `exit ${r.exitCode}`)}`);
}
