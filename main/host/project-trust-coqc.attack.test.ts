import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBatchCommand } from '../batch/batch-command.ts';
import { runFidelityCommand } from '../fidelity/fidelity-command.ts';
import { readCoqProject } from './coq-project.ts';
import { Workspace } from './workspace.ts';
import { trustedProjectArgs, WorkspaceTrust } from './workspace-trust.ts';

/**
 * Hostile workspaces against the one grant (written from the categories, by someone attacking it): load
 * paths that leave the workspace by any route, options past the allow-list, files that carry trust written
 * through `files.write`, and command lines that would use an untrusted project. Each is refused with a
 * reason a person can act on. Broke before: a sibling folder or a symlink to Coq's own library was bound
 * into every prover; files in a load-path folder (a `.vo` a trusted `Require` loads) could be written by any
 * API client; coqc runs had no route to a project at all.
 */
const TMP = fileURLToPath(new URL('../../.tmp/', import.meta.url));
const COQLIB = '/usr/lib/ocaml/coq/theories';
let base: string;
let root: string;
let userDir: string;

beforeAll(async () => {
  await mkdir(TMP, { recursive: true });
  base = await mkdtemp(join(TMP, 'atk-project-'));
  root = join(base, 'work');
  userDir = join(base, 'user');
  await mkdir(join(root, 'theories'), { recursive: true });
  await mkdir(join(base, 'sibling'));
  await symlink(join(base, 'sibling'), join(root, 'to-sibling'));
  await symlink(COQLIB, join(root, 'to-coqlib'));
});
afterAll(() => rm(base, { recursive: true, force: true }));

const ignoredFor = async (line: string): Promise<{ bound: readonly string[]; ignored: string }> => {
  await writeFile(join(root, '_CoqProject'), `${line}\n`);
  const s = await readCoqProject(root);
  return { bound: s?.args.readOnly ?? [], ignored: s?.status.ignored.join('\n') ?? '' };
};

describe('a _CoqProject cannot bind anything outside the workspace, and says why', () => {
  for (const [name, line, reason] of [
    ['a sibling folder', '-Q ../sibling Lib', /outside the workspace/],
    ['/', '-R / Lib', /holds the workspace itself|home directory or holds it/],
    ['Coq\'s library folder', `-Q ${COQLIB} Lib`, /outside the workspace/],
    ['a symlink to Coq\'s library', '-Q to-coqlib Lib', /outside the workspace/],
    ['a symlink to a sibling', '-R to-sibling Lib', /outside the workspace/],
    ['the Coq prefix', '-Q theories Coq', /the prefix Coq is the standard library/],
    ['a prefix under Coq', '-R theories Coq.Init', /the prefix Coq is the standard library/],
    ['an empty prefix with -R', '-R theories ""', /empty prefix/],
    // -Q is recursive in Coq 8.16 too: with `-Q theories ""`, theories/Coq/Reals/Reals.vo is `Coq.Reals.Reals`, and a
    // document's `Require Import Coq.Reals.Reals.` loaded the project's file (its `+` as Nat.mul) while the clean
    // reading loaded the library's: `zero_word + 2 + 2 = zero_word` finished as plainly proved.
    ['an empty prefix with -Q', '-Q theories ""', /empty prefix/],
    // `-Q theories Hammer` with theories/Tactics.vo: Arbor's own prelude (`From Hammer Require Import Tactics`)
    // loaded the project's file, whose notations then held in every document with no declaration to show them.
    ['the Hammer prefix', '-Q theories Hammer', /installed library/],
    ['a prefix under Ltac2', '-R theories Ltac2.Init', /installed library/],
    ['a missing folder', '-Q nowhere Lib', /no such directory/],
  ] as const) {
    it(`refused: ${name}`, async () => {
      const { bound, ignored } = await ignoredFor(line);
      expect(bound).toEqual([]);
      expect(ignored).toMatch(reason);
    });
  }

  for (const opt of ['-load-vernac-source x.v', '-require Evil', '-type-in-type', '-impredicative-set', '-noinit', '-I plugins', '-set \'Hammer PredictPath=/bin/sh\'', '-l x.v', '-native-compiler yes', '-boot']) {
    it(`-arg ${opt}: not passed, and said`, async () => {
      await writeFile(join(root, '_CoqProject'), `-Q theories Lib\n-arg "${opt}"\n`);
      const s = await readCoqProject(root);
      expect(s?.args.args).toEqual(['-Q', expect.stringContaining('theories'), 'Lib']);
      expect(s?.status.ignored.join('\n')).toMatch(/not on the allow-list/);
    });
  }
});

describe('files.write cannot change what the grant covers', () => {
  it('refuses project files reached through a symlink and non-Arbor files in load-path folders; allows documents', async () => {
    await writeFile(join(root, '_CoqProject'), '-Q theories MyLib\n');
    await writeFile(join(root, 'real-project.json'), JSON.stringify({ backend: 'coq', prelude: 'Axiom a : 1 = 1.' }));
    await symlink('real-project.json', join(root, 'arbor.project.json'));
    const trust = new WorkspaceTrust({ root, userDir });
    await trust.load();
    const ws = new Workspace({ root, userDir, writeRefusal: (p) => trust.writeRefusal(p) });
    for (const path of ['real-project.json', 'theories/Defs.v', 'theories/Defs.vo', 'theories/Defs.glob', 'theories/sub.arbor.v']) {
      await expect(ws.write(path, 'Axiom evil : False.'), path).rejects.toThrow(/not allowed: .*(project file|load path)/);
    }
    expect(await readFile(join(root, 'real-project.json'), 'utf8')).toMatch(/Axiom a/);
    await expect(ws.write('theories/proof.arbor', 'GOAL "True"\n')).resolves.toMatchObject({ path: expect.stringContaining('proof.arbor') });
    await expect(ws.write('notes.v', '(* outside the load path *)')).resolves.toBeDefined();
    await rm(join(root, 'arbor.project.json'));
  });
});

describe('command lines use only a granted project, and never grant', () => {
  const io = () => {
    const err: string[] = [];
    return { err, io: { out: () => undefined, err: (s: string) => { err.push(s); } } };
  };
  const trusted = (dir: string) => trustedProjectArgs(dir, userDir);

  it('untrusted: arbor fidelity and arbor batch --workspace refuse with the reason', async () => {
    await writeFile(join(root, '_CoqProject'), '-Q theories MyLib\n');
    const f = io();
    expect(await runFidelityCommand(['--canonical', 'True', '--candidate', 'True', '--workspace', root], f.io, trusted)).toBe(2);
    expect(f.err.join('')).toMatch(/not trusted .*trust the workspace in the workbench/);
    const b = io();
    await mkdir(join(base, 'docs'), { recursive: true });
    expect(await runBatchCommand(['check', join(base, 'docs'), '--workspace', root], b.io, trusted)).toBe(2);
    expect(b.err.join('')).toMatch(/not trusted/);
    await expect(trustedProjectArgs(join(base, 'sibling'), userDir)).rejects.toThrow(/no _CoqProject/);
  });

  it('granted, then changed: the command line refuses again until the user trusts the new text', async () => {
    const printed: string[] = [];
    const t = new WorkspaceTrust({ root, userDir, printCode: (l) => printed.push(l) });
    await t.load();
    await t.request();
    await t.grant(/code in the page: (\d{6})/.exec(printed.at(-1) ?? '')?.[1] ?? '');
    expect((await trusted(root))?.args).toEqual(['-Q', expect.stringContaining('theories'), 'MyLib']);
    await writeFile(join(root, '_CoqProject'), '-Q theories MyLib\n-Q theories Other\n');
    await expect(trusted(root)).rejects.toThrow(/not trusted/);
  });
});
