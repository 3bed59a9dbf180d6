import { mkdir, mkdtemp, readdir, readFile, rm, symlink, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RECOVERY_LIMITS, Workspace } from './workspace.ts';

let base: string;
let root: string;
let outside: string;
let ws: Workspace;

beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), 'arbor-ws-'));
  root = join(base, 'project');
  outside = join(base, 'outside');
  await mkdir(root);
  await mkdir(outside);
  ws = new Workspace({ root, userDir: join(base, 'user') });
});
afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

const outsideFiles = () => readdir(outside);
const baseFiles = async () => (await readdir(base)).sort();

describe('workspace writes never leave the workspace', () => {
  it('writes a file inside, atomically, leaving no temp file', async () => {
    await ws.write('proof.arbor', 'GOAL "True"\n');
    expect(await readFile(join(root, 'proof.arbor'), 'utf8')).toBe('GOAL "True"\n');
    expect(await readdir(root)).toEqual(['proof.arbor']);
  });

  it('refuses the workspace itself, its parent and directories', async () => {
    for (const p of ['.', '', root, '..', join(root, '..'), '../outside/x', join(outside, 'x')]) {
      await expect(ws.write(p, 'x'), p).rejects.toThrow();
    }
    await mkdir(join(root, 'sub'));
    await expect(ws.write('sub', 'x')).rejects.toThrow(/not a file/);
    expect(await baseFiles()).toEqual(['outside', 'project', 'user'].filter((d) => d !== 'user'));
    expect(await outsideFiles()).toEqual([]);
  });

  it('a planted temp-file symlink cannot redirect the write', async () => {
    const target = join(outside, 'stolen');
    await symlink(target, join(root, '.proof.arbor.arbor-tmp'));
    await ws.write('proof.arbor', 'safe');
    expect(await outsideFiles()).toEqual([]);
    expect(await readFile(join(root, 'proof.arbor'), 'utf8')).toBe('safe');
  });

  it('a symlink inside pointing outside is neither read nor written through', async () => {
    await writeFile(join(outside, 'secret'), 'secret');
    await symlink(join(outside, 'secret'), join(root, 'link'));
    await symlink(outside, join(root, 'dirlink'));
    await expect(ws.read('link')).rejects.toThrow(/outside the workspace/);
    await expect(ws.write('link', 'overwritten')).rejects.toThrow(/outside the workspace/);
    await expect(ws.write('dirlink/new', 'x')).rejects.toThrow(/outside the workspace/);
    expect(await readFile(join(outside, 'secret'), 'utf8')).toBe('secret');
    expect(await outsideFiles()).toEqual(['secret']);
  });

  it('never creates or changes a project file (files.write is all a client of the API has)', async () => {
    await mkdir(join(root, 'sub'));
    for (const name of ['arbor.project.json', 'sub/arbor.project.json', 'ARBOR.PROJECT.JSON', '_CoqProject', 'sub/_coqproject']) {
      await expect(ws.write(name, '{"backend":"coq","prelude":"Axiom cheat : False."}')).rejects.toThrow(/project file/);
    }
    await writeFile(join(root, 'arbor.project.json'), '{"backend":"coq"}');
    await expect(ws.write('./sub/../arbor.project.json', '{"backend":"eq"}')).rejects.toThrow(/project file/);
    expect(await readFile(join(root, 'arbor.project.json'), 'utf8')).toBe('{"backend":"coq"}');
    expect((await readdir(root)).sort()).toEqual(['arbor.project.json', 'sub']);
    expect(await readdir(join(root, 'sub'))).toEqual([]);
  });

  it('never writes a project file through a name Windows maps onto it, nor through a symlink inside the workspace', async () => {
    for (const name of ['arbor.project.json.', 'arbor.project.json ', 'Arbor.Project.Json. .', 'arbor.project.json::$DATA', '_CoqProject:x']) {
      await expect(ws.write(name, '{"backend":"eq"}'), name).rejects.toThrow(/project file/);
    }
    // A downloaded workspace may hold a harmless-looking link to its project file.
    await writeFile(join(root, 'arbor.project.json'), '{"backend":"coq"}');
    await symlink('arbor.project.json', join(root, 'notes.json'));
    await expect(ws.write('notes.json', '{"backend":"eq"}')).rejects.toThrow(/project file/);
    expect(await readFile(join(root, 'arbor.project.json'), 'utf8')).toBe('{"backend":"coq"}');
    expect((await readdir(root)).sort()).toEqual(['arbor.project.json', 'notes.json']);
  });

  it('refuses paths with NUL bytes or that are far too long', async () => {
    await expect(ws.write('a\u0000b', 'x')).rejects.toThrow();
    await expect(ws.write('x'.repeat(5000), 'x')).rejects.toThrow();
    expect(await outsideFiles()).toEqual([]);
  });
});

describe('the recovery store is bounded', () => {
  it('keeps buffers, refuses one too large, and too many', async () => {
    await ws.saveRecovery({ uri: 'untitled:a', text: 'one' });
    expect((await ws.listRecovery()).map((e) => e.text)).toEqual(['one']);
    await expect(ws.saveRecovery({ uri: 'untitled:big', text: 'x'.repeat(RECOVERY_LIMITS.entryBytes) })).rejects.toThrow(/too large/);
    for (let i = 1; i < RECOVERY_LIMITS.entries; i++) await ws.saveRecovery({ uri: `untitled:${i}`, text: String(i) });
    await expect(ws.saveRecovery({ uri: 'untitled:one-too-many', text: 'x' })).rejects.toThrow(/limit/);
    // Updating a kept buffer still works at the limit.
    await ws.saveRecovery({ uri: 'untitled:a', text: 'two' });
    expect((await ws.listRecovery()).find((e) => e.uri === 'untitled:a')?.text).toBe('two');
  });

  it('forgets buffers past their age', async () => {
    await ws.saveRecovery({ uri: 'untitled:old', text: 'old' });
    const dir = join(base, 'user', 'recovery');
    const [file] = await readdir(dir);
    const long = (Date.now() - RECOVERY_LIMITS.maxAgeMs - 60_000) / 1000;
    await utimes(join(dir, file as string), long, long);
    expect(await ws.listRecovery()).toEqual([]);
    expect(await readdir(dir)).toEqual([]);
  });
});

describe('the recovery store keeps each window\'s buffers apart', () => {
  it('two windows with the same file keep two recoveries; a gone window\'s buffers go to one window only', async () => {
    const user = join(base, 'user-windows');
    const first = new Workspace({ root: join(base, 'work'), userDir: user });
    await first.saveRecovery({ uri: 'file:///p.arbor', text: 'from A', window: 'winA' });
    await first.saveRecovery({ uri: 'file:///p.arbor', text: 'from B', window: 'winB' });
    await first.saveRecovery({ uri: 'untitled:old-1', text: 'legacy' });
    // winA has its own copy of p.arbor: winB's stays for another window.
    expect((await first.listRecovery('winA')).map((e) => e.text).sort()).toEqual(['from A', 'legacy']);
    // A host restart: nothing is claimed. A reloaded window finds its own; the others go to the first that asks.
    const host = new Workspace({ root: join(base, 'work'), userDir: user });
    const [a, b] = await Promise.all([host.listRecovery('winA'), host.listRecovery('winC')]);
    expect([...a, ...b].map((e) => e.text).sort()).toEqual(['from A', 'from B', 'legacy']);
    expect(a.map((e) => e.text)).toContain('from A');
    expect(b.map((e) => e.text)).toContain('from B');
    // Once claimed they stay with their window: a later window gets none of them.
    expect(await host.listRecovery('winD')).toEqual([]);
    const again = await host.listRecovery('winA');
    expect(again.map((e) => e.text).sort()).toEqual(a.map((e) => e.text).sort());
    // A reload: the new page claims again before the old one lets go; the buffers stay with winA.
    host.releaseRecovery('winA');
    expect(await host.listRecovery('winD')).toEqual([]);
    // The window closed (every claim let go): its buffers go to the next window that asks, none is lost.
    host.releaseRecovery('winA');
    host.releaseRecovery('winA');
    expect((await host.listRecovery('winD')).map((e) => e.text).sort()).toEqual(a.map((e) => e.text).sort());
    await host.discardRecovery('file:///p.arbor', 'winD');
    expect((await host.listRecovery('winD')).map((e) => e.text)).not.toContain('from A');
  });
});
