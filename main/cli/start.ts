import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../host/renderer-build.ts';
import { runWeb } from './web.ts';

/**
 * The Electron binary, if it was downloaded. Deliberately not `require('electron')`: that tries to
 * download the binary when it is missing, and `npm start` must work offline.
 */
export function electronBinary(): string | undefined {
  if (process.env.ELECTRON_OVERRIDE_DIST_PATH) {
    const p = join(process.env.ELECTRON_OVERRIDE_DIST_PATH, process.platform === 'win32' ? 'electron.exe' : process.platform === 'darwin' ? 'Electron.app/Contents/MacOS/Electron' : 'electron');
    return existsSync(p) ? p : undefined;
  }
  const dir = join(REPO_ROOT, 'node_modules', 'electron');
  const pathFile = join(dir, 'path.txt');
  if (!existsSync(pathFile)) return undefined;
  const p = join(dir, 'dist', readFileSync(pathFile, 'utf8').trim());
  return existsSync(p) ? p : undefined;
}

/** `npm start`: the desktop app when Electron is installed, else the same workbench in the browser. */
export async function runStart(argv: string[]): Promise<number> {
  const electron = process.env.ARBOR_FORCE_WEB ? undefined : electronBinary();
  if (electron) {
    const { buildElectron } = await import('./build-electron.ts');
    await buildElectron();
    const child = spawn(electron, [REPO_ROOT, ...argv], { stdio: 'inherit' });
    // The desktop app goes when `npm start` is told to go.
    const forward = (signal: NodeJS.Signals): void => { child.kill(signal); };
    process.once('SIGINT', forward);
    process.once('SIGTERM', forward);
    return new Promise((resolve) => child.on('exit', (code) => resolve(code ?? 0)));
  }
  process.stdout.write([
    'Electron is not installed here (its binary was not downloaded), so Arbor runs in your browser instead.',
    'For the desktop app: `npx install-electron` (or reinstall with network access), then `npm start`;',
    'to build installers: `npm run dist` (AppImage/deb on Linux, dmg on macOS, NSIS on Windows).',
    '',
  ].join('\n'));
  return runWeb(argv);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  process.exitCode = await runStart(process.argv.slice(2));
}
