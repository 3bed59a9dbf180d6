import { layoutTree } from '../shared/tree-layout/layout-tree.ts';
import { syntheticTree } from '../shared/tree-layout/synthetic-tree.ts';
import type { BenchRow } from './bench-table.ts';
import { median, printTable, writeResults } from './bench-table.ts';

/**
 * Tree layout in Node (BRIEF §4: 10,000 nodes ≤ 50 ms). Reports the first (cold, JIT not warm) run and
 * the median of warm runs, wall and CPU time: on a loaded machine CPU time shows the layout's own cost.
 */
export async function runTreeLayoutBench(log: (s: string) => void = () => undefined): Promise<{ rows: BenchRow[]; raw: unknown }> {
  const rows: BenchRow[] = [];
  const raw: Record<string, unknown> = {};
  for (const size of [1_000, 10_000, 50_000]) {
    const tree = syntheticTree(size, 42);
    const wall: number[] = [];
    const cpu: number[] = [];
    let nodes = 0;
    for (let i = 0; i < 12; i++) {
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      nodes = layoutTree(tree).nodes.length;
      wall.push(performance.now() - t0);
      const c = process.cpuUsage(c0);
      cpu.push((c.user + c.system) / 1000);
    }
    const warmWall = median(wall.slice(2));
    const warmCpu = median(cpu.slice(2));
    log(`layout ${size}: cold ${wall[0]?.toFixed(1)} ms, warm median ${warmWall.toFixed(1)} ms`);
    const target = size === 10_000 ? { target: '≤ 50 ms', ok: warmWall <= 50 } : {};
    rows.push({ what: `layout ${nodes} nodes (warm median, wall)`, value: warmWall, unit: 'ms', ...target });
    rows.push({ what: `layout ${nodes} nodes (warm median, CPU)`, value: warmCpu, unit: 'ms' });
    rows.push({ what: `layout ${nodes} nodes (first run, cold JIT)`, value: wall[0] ?? NaN, unit: 'ms' });
    raw[String(size)] = { nodes, wall, cpu };
  }
  return { rows, raw };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { rows, raw } = await runTreeLayoutBench((s) => process.stderr.write(`bench: ${s}\n`));
  printTable('bundle-tree layout (Node, d3-hierarchy tidy tree, synthetic trees)', rows);
  process.stderr.write(`bench: results: ${await writeResults('tree-layout', { date: new Date().toISOString(), loadavg: (await import('node:os')).loadavg(), rows, raw })}\n`);
}
