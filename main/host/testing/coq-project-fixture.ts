import { execFile } from 'node:child_process';
import { cp, mkdir, mkdtemp } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
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
  for (const f of ['theories/Defs.v', 'theories/Lemmas.v']) await run('coqc', ['-Q', 'theories', 'MyLib', f], { cwd: root, timeout: 120_000 });
  return root;
}
