import { mkdir, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

/** One measured figure, its target and whether it met it. */
export interface BenchRow {
  what: string;
  value: number;
  unit: string;
  target?: string;
  ok?: boolean;
  detail?: string;
}

export function printTable(title: string, rows: BenchRow[]): void {
  const cells = rows.map((r) => [r.what, `${format(r.value)} ${r.unit}`, r.target ?? '', r.ok === undefined ? '' : r.ok ? 'ok' : 'MISSED', r.detail ?? '']);
  const header = ['what', 'measured', 'target', '', 'detail'];
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => (c[i] as string).length)));
  const line = (c: string[]): string => c.map((x, i) => x.padEnd(widths[i] as number)).join('  ').trimEnd();
  process.stdout.write(`\n${title}\n${line(header)}\n${widths.map((w) => '-'.repeat(w)).join('  ')}\n${cells.map(line).join('\n')}\n`);
}

/**
 * Writes a bench's raw figures as JSON: by default to bench/results/ (not committed), named by the time of
 * the call; `to` names another folder (a URL of it) and `at` the time in the name (a long bench rewrites one file as it goes).
 */
export async function writeResults(name: string, data: unknown, to?: URL, at: Date = new Date()): Promise<string> {
  const dir = fileURLToPath(to ?? new URL('./results/', import.meta.url));
  await mkdir(dir, { recursive: true });
  const file = `${dir}${name}-${at.toISOString().replace(/[:.]/g, '-')}.json`;
  await writeFile(file, `${JSON.stringify(data, null, 2)}\n`);
  return file;
}

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length === 0 ? NaN : s.length % 2 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
}

function format(x: number): string {
  if (!Number.isFinite(x)) return String(x);
  if (Math.abs(x) >= 100) return x.toFixed(0);
  if (Math.abs(x) >= 10) return x.toFixed(1);
  return x.toFixed(3);
}
