import { mkdtemp, rm, symlink, writeFile, mkdir } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readCoqProject } from './coq-project.ts';
import { Workspace } from './workspace.ts';
import { WorkspaceTrust } from './workspace-trust.ts';

/**
 * Workspace trust attacked by a client that holds the web token (an attached agent) but not the host's
 * terminal, and by a hostile `_CoqProject`. Broke before the fixes here: every `project.requestTrust`
 * printed a fresh code with five fresh tries (a six-digit code falls to ~200,000 requests), and load paths
 * of `/`, the workspace's parent or the home directory were bound into every prover's sandbox.
 */
const TMP = fileURLToPath(new URL('../../.tmp/', import.meta.url));

describe('WorkspaceTrust: the code cannot be had without the terminal', () => {
  let root: string;
  let userDir: string;
  beforeAll(async () => {
    await mkdir(TMP, { recursive: true });
    root = await mkdtemp(join(TMP, 'atk-trust-ws-'));
    userDir = await mkdtemp(join(TMP, 'atk-trust-user-'));
    await mkdir(join(root, 'theories'));
    await writeFile(join(root, '_CoqProject'), '-Q theories MyLib\n');
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
    await rm(userDir, { recursive: true, force: true });
  });
  const make = async (printed: string[]): Promise<WorkspaceTrust> => {
    const t = new WorkspaceTrust({ root, userDir, printCode: (l) => printed.push(l) });
    await t.load();
    return t;
  };
  const codeOf = (line: string | undefined): string => /code in the page: (\d{6})/.exec(line ?? '')?.[1] ?? '';

  it('asking again does not refresh the tries: brute force over many requests is cut off after five wrong codes', async () => {
    const printed: string[] = [];
    const t = await make(printed);
    let wrong = 0;
    let refusedAt = -1;
    for (let i = 0; i < 50 && refusedAt < 0; i++) {
      try {
        await t.request();
      } catch {
        refusedAt = i;
        break;
      }
      const real = codeOf(printed.at(-1));
      // The attacker never sees the terminal: it guesses a code that is surely wrong.
      const guess = String((Number(real) + 1) % 1_000_000).padStart(6, '0');
      await expect(t.grant(guess)).rejects.toThrow(/wrong code|no confirmation/);
      wrong++;
    }
    expect(t.granted).toBe(false);
    expect(refusedAt).toBeGreaterThan(0);
    expect(wrong).toBeLessThanOrEqual(5);
    // Even the right code no longer trusts once the question is closed.
    await expect(t.grant(codeOf(printed.at(-1)))).rejects.toThrow();
    expect(t.granted).toBe(false);
  });

  it('a second request while a code is live prints the same code (the user\'s code is not replaced)', async () => {
    const printed: string[] = [];
    const t = await make(printed);
    await t.request();
    await t.request();
    expect(codeOf(printed[0])).toMatch(/^\d{6}$/);
    expect(codeOf(printed[1])).toBe(codeOf(printed[0]));
    await t.grant(` ${codeOf(printed[0])} `);
    expect(t.granted).toBe(true);
  });

  it('replay: a used code does not trust again after the file changed', async () => {
    const printed: string[] = [];
    const t = await make(printed);
    await writeFile(join(root, '_CoqProject'), '-Q theories MyLib\n-Q theories Other\n');
    await t.load();
    expect(t.granted).toBe(false);
    await expect(t.grant(codeOf(printed[0] ?? ''))).rejects.toThrow(/no confirmation/);
    expect(t.granted).toBe(false);
  });

  it('a changed arbor.project.json loses the grant too', async () => {
    await writeFile(join(root, '_CoqProject'), '-Q theories MyLib\n');
    const printed: string[] = [];
    const t = await make(printed);
    if (!t.granted) {
      await t.request();
      await t.grant(codeOf(printed.at(-1)));
    }
    expect(t.granted).toBe(true);
    await writeFile(join(root, 'arbor.project.json'), '{"prelude": "Axiom a : False."}');
    await t.load();
    expect(t.granted).toBe(false);
    await rm(join(root, 'arbor.project.json'));
  });

  it('files.write cannot create or change project files, however the name is spelt', async () => {
    const ws = new Workspace({ root, userDir });
    for (const name of ['_CoqProject', '_coqproject', 'sub/../_CoqProject', 'theories/_CoqProject', '_CoqProject.', '_CoqProject ', 'ARBOR.project.JSON', './arbor.project.json', 'theories/../arbor.project.json']) {
      await expect(ws.write(name, '-Q / Coq\n'), name).rejects.toThrow();
    }
  });
});

describe('_CoqProject load paths cannot widen what a sandboxed prover reads', () => {
  let root: string;
  beforeAll(async () => {
    await mkdir(TMP, { recursive: true });
    root = await mkdtemp(join(TMP, 'atk-trust-lp-'));
    await mkdir(join(root, 'theories'));
    await symlink('/', join(root, 'rootlink'));
    await symlink('..', join(root, 'up'));
  });
  afterAll(() => rm(root, { recursive: true, force: true }));

  const bound = async (line: string): Promise<readonly string[]> => {
    await writeFile(join(root, '_CoqProject'), line);
    return (await readCoqProject(root))?.args.readOnly ?? [];
  };

  for (const [name, line] of [
    ['/', '-Q / Lib'],
    ['the workspace\'s parent', '-R .. Lib'],
    ['a grandparent through ../..', '-Q ../.. Lib'],
    ['a symlink to /', '-Q rootlink Lib'],
    ['a symlink to the parent', '-R up Lib'],
    ['the home directory', `-Q ${homedir()} Lib`],
    ['a quoted home directory', `-Q "${homedir()}/" Lib`],
    ['a folder above home', `-Q ${dirname(homedir())} Lib`],
  ] as const) {
    it(`refused: ${name}`, async () => {
      expect(await bound(`${line}\n`)).toEqual([]);
      const s = await readCoqProject(root);
      expect(s?.status.ignored.join('\n')).toMatch(/not bound/);
    });
  }

  it('allowed: the workspace itself and a folder inside it', async () => {
    expect(await bound('-R . Top\n-Q theories MyLib\n')).toHaveLength(2);
  });

  for (const [name, line] of [
    ['the standard library\'s prefix', '-Q theories Coq'],
    ['a prefix under Coq', '-R theories Coq.Logic'],
    ['-R with an empty prefix (a subdirectory Coq/ would be Coq.…)', '-R theories ""'],
  ] as const) {
    it(`refused: ${name}`, async () => {
      expect(await bound(`${line}\n`)).toEqual([]);
    });
  }

  it('-arg cannot smuggle an option past the allow-list', async () => {
    await writeFile(join(root, '_CoqProject'), `-arg "-w -load-vernac-source -arg x.v"\n-arg '-set "Hammer PredictPath=/bin/sh"'\n-arg -type-in-type\n-arg -w\n`);
    const s = await readCoqProject(root);
    const args = s?.args.args ?? [];
    // `-w` swallows exactly its value (coqidetop reads `-load-vernac-source` as a warning name); nothing else is passed.
    expect(args.length % 2).toBe(0);
    expect(args).not.toContain('-type-in-type');
    expect(args).not.toContain('-set');
    for (let i = 0; i < args.length; i += 2) expect(args[i]).toBe('-w');
  });
});
