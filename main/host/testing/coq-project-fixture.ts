import { cp, mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runProcess } from '../../process/process-manager.ts';
const FIXTURE = fileURLToPath(new URL('../../../fixtures/coq-project/', import.meta.url));
/** Under the repo's .tmp/: files a sandboxed prover reads (the sandbox has no /tmp of the host). */
const TMP = fileURLToPath(new URL('../../../.tmp/', import.meta.url));

/**
 * A fresh copy of `fixtures/coq-project` (a `_CoqProject` and the two-file library `MyLib`) under `.tmp/`,
 * compiled with the real `coqc` as its `_CoqProject` says (`-Q theories MyLib`). Returns the workspace root.
 */
export async function compiledCoqProject(prefix: string): Promise<string> {
  await mkdir(TMP, { recursive: true });
  const root = await mkdtemp(join(TMP, prefix));
  await cp(FIXTURE, root, { recursive: true });
  for (const f of ['theories/Defs.v', 'theories/Lemmas.v']) {
    // Sandboxed like every coqc run; it writes the .vo files next to the sources.
    const r = await runProcess({ program: 'coqc', args: ['-Q', 'theories', 'MyLib', f], cwd: root, timeoutMs: 120_000, sandbox: { writable: [root] } });
    if (r.exitCode !== 0) throw new Error(`coqc ${f}: ${r.stderr || r.stdout}`);
  }
  return root;
}

/**
 * A workspace under `.tmp/` with `files` (path under `theories/` → source), a `_CoqProject` mapping `theories` to
 * `logicalRoot`, each file compiled in the order given with the real `coqc`. Returns the workspace root.
 */
export async function writtenCoqProject(prefix: string, logicalRoot: string, files: Record<string, string>): Promise<string> {
  await mkdir(TMP, { recursive: true });
  const root = await mkdtemp(join(TMP, prefix));
  await mkdir(join(root, 'theories'));
  await writeFile(join(root, '_CoqProject'), `-Q theories ${logicalRoot}\n`);
  for (const [name, text] of Object.entries(files)) {
    await writeFile(join(root, 'theories', name), text);
    const r = await runProcess({ program: 'coqc', args: ['-Q', 'theories', logicalRoot, `theories/${name}`], cwd: root, timeoutMs: 120_000, sandbox: { writable: [root] } });
    if (r.exitCode !== 0) throw new Error(`coqc ${name}: ${r.stderr || r.stdout}`);
  }
  return root;
}
