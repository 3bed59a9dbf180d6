import { build } from 'esbuild';
import { join } from 'node:path';
import { REPO_ROOT, ensureRendererBuilt } from '../host/renderer-build.ts';

/**
 * Bundles the Electron main process (ESM) and the sandboxed preload (CommonJS, one file: a sandboxed
 * preload cannot load modules) into dist/, next to the renderer build. esbuild comes with tsx.
 */
export async function buildElectron(log: (line: string) => void = (l) => process.stderr.write(`${l}\n`)): Promise<void> {
  await ensureRendererBuilt(log);
  log('bundling the Electron main process and preload (esbuild)…');
  await build({
    entryPoints: [join(REPO_ROOT, 'main', 'app', 'electron-main.ts')],
    outfile: join(REPO_ROOT, 'dist', 'main', 'app', 'electron-main.js'),
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node22',
    // Dependencies stay in node_modules (electron-builder packs the production ones); vite is dev-only.
    packages: 'external',
    external: ['electron'],
    banner: { js: "import { createRequire as __arborCreateRequire } from 'node:module'; const require = __arborCreateRequire(import.meta.url);" },
    logLevel: 'warning',
  });
  // The equational search's worker thread: its own entry, found next to the main bundle.
  await build({
    entryPoints: [join(REPO_ROOT, 'main', 'provers', 'eq', 'own-search-worker.ts')],
    outfile: join(REPO_ROOT, 'dist', 'main', 'app', 'eq-search-worker.js'),
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node22',
    packages: 'external',
    logLevel: 'warning',
  });
  await build({
    entryPoints: [join(REPO_ROOT, 'preload', 'preload.ts')],
    outfile: join(REPO_ROOT, 'dist', 'preload', 'preload.cjs'),
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node22',
    external: ['electron'],
    logLevel: 'warning',
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await buildElectron();
}
