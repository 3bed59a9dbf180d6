import { readFile, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { splitRequests } from '../../shared/protocol/split-requests.ts';
import type { TreeView } from '../../shared/proof-tree/proof-tree.ts';
import { derivationToTreeView } from '../../shared/derivation/derivation-view.ts';
import { TacticEngine } from '../../main/shell/tactic-engine.ts';
import { engineCommand } from '../../main/shell/testing/engine-command.ts';
import { coqBackend } from '../../main/provers/coq/coq-backend.ts';

/**
 * Runs `.arbor` documents on real Coq and prints each proof's derivation size; with `--save NAME:ITEM`
 * writes that item's finished derivation (as the workbench receives it, `proof.derivation`'s tree) to
 * bench/derivations/NAME.json — the fit benchmark's real derivations.
 * Usage: tsx bench/derivations/record-derivations.ts FILE.arbor [--save NAME:ITEM]
 */
const [file, flag, spec] = process.argv.slice(2);
if (!file) throw new Error('usage: record-derivations FILE.arbor [--save NAME:ITEM]');
const engine = new TacticEngine({ backend: 'coq', timeoutMs: 60_000, openSession: () => coqBackend.open({ timeoutMs: 60_000 }) });
try {
  for (const line of (await readFile(file, 'utf8')).split('\n')) {
    for (const r of splitRequests(line)) {
      const res = await engine.execute(engineCommand(r.text));
      if (res.error) throw new Error(`${r.text}: ${res.error}`);
    }
  }
  const count = (t: TreeView): number => 1 + (t.children ?? []).reduce((a, c) => a + count(c), 0);
  const all = engine.derivation({});
  if ('unavailable' in all) throw new Error(all.unavailable);
  for (const item of all.items) {
    const d = engine.derivation({ item: item.index });
    const tree = 'root' in d && d.root ? derivationToTreeView(d.root, d.currentKey) : null;
    process.stdout.write(`${basename(file)} item ${item.index} ${item.name ?? item.kind}: ${tree ? count(tree) : 0} goals\n`);
    if (flag === '--save' && spec && tree && Number(spec.split(':')[1]) === item.index) {
      const out = join(import.meta.dirname, `${spec.split(':')[0]}.json`);
      await writeFile(out, `${JSON.stringify({ source: `resources/examples/${basename(file)}, item ${item.index} (${item.name ?? ''}), recorded on Coq by bench/derivations/record-derivations.ts`, tree }, null, 1)}\n`);
      process.stdout.write(`wrote ${out}\n`);
    }
  }
} finally {
  await engine.dispose();
}
