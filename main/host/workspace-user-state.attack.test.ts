import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Workspace } from './workspace.ts';
import { WorkspaceTrust } from './workspace-trust.ts';

/**
 * The desktop app's workspace is the home directory, and `arbor web` run from `~` serves it too: the user's
 * own state (the trust grants in the user dir, the closed-constants cache) then lies inside the workspace.
 * Broke before: `files.write` of `<userDir>/trusted-workspaces.json` forged a grant (the fingerprint is a
 * SHA-256 of files the client can read), so a project the user never confirmed had its load paths bound;
 * the closed-constants cache could be written the same way (an axiom-using library constant "known closed").
 */
const TMP = fileURLToPath(new URL('../../.tmp/', import.meta.url));
let home: string;
let project: string;
let userDir: string;
let cacheDir: string;
const savedCache = process.env.ARBOR_CACHE_DIR;

beforeAll(async () => {
  await mkdir(TMP, { recursive: true });
  home = await mkdtemp(join(TMP, 'atk-home-'));
  project = join(home, 'proj');
  userDir = join(home, '.config', 'arbor');
  cacheDir = join(home, '.cache', 'arbor');
  await mkdir(join(project, 'theories'), { recursive: true });
  await mkdir(userDir, { recursive: true });
  await mkdir(cacheDir, { recursive: true });
  await writeFile(join(project, '_CoqProject'), '-Q theories Lib\n');
  process.env.ARBOR_CACHE_DIR = cacheDir;
});
afterAll(async () => {
  if (savedCache === undefined) delete process.env.ARBOR_CACHE_DIR;
  else process.env.ARBOR_CACHE_DIR = savedCache;
  await rm(home, { recursive: true, force: true });
});

describe('files.write never writes the user\'s own state, even when the workspace holds it', () => {
  it('a forged grant in the user dir is refused, and the project stays untrusted', async () => {
    const ws = new Workspace({ root: home, userDir });
    const text = await readFile(join(project, '_CoqProject'), 'utf8');
    const fingerprint = createHash('sha256').update(`${createHash('sha256').update(text).digest('hex')}\0`).digest('hex');
    await expect(ws.write(join(userDir, 'trusted-workspaces.json'), JSON.stringify({ [project]: fingerprint }))).rejects.toThrow(/Arbor's own|not allowed/);
    const trust = new WorkspaceTrust({ root: project, userDir });
    await trust.load();
    expect(trust.granted).toBe(false);
  });

  it('the closed-constants cache is refused', async () => {
    const ws = new Workspace({ root: home, userDir });
    await expect(ws.write(join(cacheDir, 'closed-constants-v2.json'), '{}')).rejects.toThrow(/Arbor's own|not allowed/);
  });

  it('an ordinary document beside them is still written', async () => {
    const ws = new Workspace({ root: home, userDir });
    await expect(ws.write(join(project, 'a.arbor'), 'GOAL "True"\n')).resolves.toEqual({ path: join(project, 'a.arbor') });
  });
});
