/** A one-line progress bar on stderr for batch runs (plain lines when stderr is not a terminal). */
export function createProgressBar(total: number, stream: NodeJS.WriteStream = process.stderr): { tick(label: string): void; done(): void } {
  let n = 0;
  const tty = Boolean(stream.isTTY);
  return {
    tick(label) {
      n++;
      const width = 30;
      const filled = total === 0 ? width : Math.round((n / total) * width);
      const line = `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${n}/${total} ${label}`;
      if (tty) stream.write(`\r\x1b[2K${line.slice(0, (stream.columns ?? 100) - 1)}`);
      else stream.write(`${line}\n`);
    },
    done() { if (tty) stream.write('\n'); },
  };
}
