import { cp, mkdir, mkdtemp } from 'node:fs/promises';
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
