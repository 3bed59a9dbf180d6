/**
 * Splits a character stream into lines on CR, LF and CRLF, even when a CRLF pair straddles two chunks.
 * A line longer than `maxLineLength` is not buffered whole: its excess is dropped and the line is
 * reported as overlong, so a 10 MB (or endless) line cannot exhaust memory.
 */
export interface SplitLine {
  text: string;
  /** The line's full length, when it was longer than the limit (its `text` is then truncated). */
  overlongLength?: number;
}

export class LineSplitter {
  private buffer = '';
  private droppedLength = 0;
  private lastWasCR = false;
  private readonly maxLineLength: number;

  constructor(maxLineLength = 1 << 20) {
    this.maxLineLength = maxLineLength;
  }

  /** Feed a chunk; returns the lines it completed. */
  push(chunk: string): SplitLine[] {
    const lines: SplitLine[] = [];
    let start = 0;
    for (let i = 0; i < chunk.length; i++) {
      const c = chunk.charCodeAt(i);
      if (c === 10 /* LF */) {
        if (this.lastWasCR && i === start && this.buffer === '' && this.droppedLength === 0) {
          // Second half of a CRLF whose CR ended the previous line.
          start = i + 1;
          this.lastWasCR = false;
          continue;
        }
        this.append(chunk, start, i);
        lines.push(this.take());
        start = i + 1;
        this.lastWasCR = false;
      } else if (c === 13 /* CR */) {
        this.append(chunk, start, i);
        lines.push(this.take());
        start = i + 1;
        this.lastWasCR = true;
      } else if (this.lastWasCR) {
        this.lastWasCR = false;
      }
    }
    this.append(chunk, start, chunk.length);
    return lines;
  }

  /** At end of input: the unterminated last line, if any. */
  end(): SplitLine[] {
    if (this.buffer === '' && this.droppedLength === 0) return [];
    return [this.take()];
  }

  private append(chunk: string, from: number, to: number): void {
    if (to <= from) return;
    const room = this.maxLineLength - this.buffer.length;
    const length = to - from;
    if (length <= room) {
      this.buffer += chunk.slice(from, to);
    } else {
      if (room > 0) this.buffer += chunk.slice(from, from + room);
      this.droppedLength += length - Math.max(room, 0);
    }
  }

  private take(): SplitLine {
    const line: SplitLine = { text: this.buffer };
    if (this.droppedLength > 0) line.overlongLength = this.buffer.length + this.droppedLength;
    this.buffer = '';
    this.droppedLength = 0;
    return line;
  }
}
