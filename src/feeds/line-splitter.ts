/** Longest NMEA line kept (a tag block plus an 82-character sentence plus a USCG trailer fits easily). */
export const MAX_LINE_BYTES = 1024;

/**
 * Splits a byte stream into lines. Accepts `\n`, `\r\n` and lone `\r` terminators and chunks that
 * end mid-line; blank lines are skipped. A line longer than `maxLineBytes` is dropped whole and
 * counted, so one runaway sender cannot grow memory.
 */
export class LineSplitter {
  private carry = '';
  private discarding = false;
  /** Lines dropped for exceeding the cap. */
  overlong = 0;

  constructor(private readonly maxLineBytes = MAX_LINE_BYTES) {}

  /** Lines completed by `chunk`, in order. */
  push(chunk: Buffer | string): string[] {
    // latin1 maps bytes 1:1, so a multi-byte character split across chunks cannot corrupt a line.
    const text = typeof chunk === 'string' ? chunk : chunk.toString('latin1');
    const lines: string[] = [];
    let start = 0;
    for (let i = 0; i < text.length; i++) {
      const code = text.charCodeAt(i);
      if (code !== 10 && code !== 13) continue;
      this.complete(this.carry.length > 0 ? this.carry + text.slice(start, i) : text.slice(start, i), lines);
      this.carry = '';
      start = i + 1;
    }
    if (start < text.length) {
      if (this.discarding) return lines;
      this.carry += text.slice(start);
      if (this.carry.length > this.maxLineBytes) {
        this.carry = '';
        this.discarding = true;
        this.overlong++;
      }
    }
    return lines;
  }

  /** End of stream: the unterminated last line, if any. */
  end(): string[] {
    const lines: string[] = [];
    if (!this.discarding && this.carry.length > 0) this.complete(this.carry, lines);
    this.carry = '';
    this.discarding = false;
    return lines;
  }

  /** Forget a partial line (a connection dropped mid-line). */
  reset(): void {
    this.carry = '';
    this.discarding = false;
  }

  private complete(line: string, lines: string[]): void {
    if (this.discarding) {
      this.discarding = false;
      return;
    }
    if (line.length === 0) return;
    if (line.length > this.maxLineBytes) {
      this.overlong++;
      return;
    }
    lines.push(line);
  }
}
