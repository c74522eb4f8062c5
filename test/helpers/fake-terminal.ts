import { Writable } from 'node:stream';

/**
 * A writable stream that acts as a small terminal: it keeps a screen of `rows` × `columns` cells and
 * applies what the progress display writes (cursor moves, erases, autowrap, scrolling; colours are
 * dropped), so a test can assert on what a user would see. Newlines act as CR LF, as a tty's output
 * processing makes them.
 */
export class FakeTerminal extends Writable {
  readonly isTTY = true;
  cursorVisible = true;
  /** Every byte written, escapes included. */
  raw = '';
  private screen: string[][];
  private scrolled: string[] = [];
  private x = 0;
  private y = 0;
  private pendingWrap = false;
  private saved = { x: 0, y: 0 };

  constructor(
    readonly columns = 80,
    readonly rows = 24,
  ) {
    super({ decodeStrings: false });
    this.screen = Array.from({ length: rows }, () => this.blank());
  }

  override _write(chunk: string | Buffer, _encoding: BufferEncoding, callback: () => void): void {
    const text = chunk.toString();
    this.raw += text;
    this.feed(text);
    callback();
  }

  /** The scrolled-off lines and the screen, right-trimmed, without the empty lines at the bottom. */
  text(): string {
    const lines = [...this.scrolled, ...this.screen.map((row) => row.join('').trimEnd())];
    while (lines.length > 0 && lines.at(-1) === '') lines.pop();
    return lines.join('\n');
  }

  private blank(): string[] {
    return Array.from({ length: this.columns }, () => ' ');
  }

  private lineFeed(): void {
    if (this.y < this.rows - 1) {
      this.y += 1;
      return;
    }
    this.scrolled.push(this.screen.shift()!.join('').trimEnd());
    this.screen.push(this.blank());
  }

  private feed(text: string): void {
    for (let i = 0; i < text.length; i++) {
      const ch = text[i]!;
      if (ch === '\x1b') {
        i = this.escape(text, i);
      } else if (ch === '\n') {
        this.x = 0;
        this.pendingWrap = false;
        this.lineFeed();
      } else if (ch === '\r') {
        this.x = 0;
        this.pendingWrap = false;
      } else if (ch >= ' ') {
        if (this.pendingWrap) {
          this.x = 0;
          this.pendingWrap = false;
          this.lineFeed();
        }
        this.screen[this.y]![this.x] = ch;
        if (this.x === this.columns - 1) this.pendingWrap = true;
        else this.x += 1;
      } else {
        throw new Error(`control character ${JSON.stringify(ch)} written to the terminal`);
      }
    }
  }

  /** Applies the escape sequence at `start`; returns the index of its last character. */
  private escape(text: string, start: number): number {
    const next = text[start + 1];
    if (next === '7' || next === '8') {
      if (next === '7') this.saved = { x: this.x, y: this.y };
      else ({ x: this.x, y: this.y } = this.saved);
      return start + 1;
    }
    if (next !== '[') throw new Error(`unknown escape ${JSON.stringify(text.slice(start, start + 4))}`);
    const match = /^\[(\??)([\d;]*)([A-Za-z])/.exec(text.slice(start + 1));
    if (!match) throw new Error(`bad escape ${JSON.stringify(text.slice(start, start + 8))}`);
    const [sequence, privateMark, params, final] = match;
    const numbers = params!.split(';').map((p) => (p === '' ? undefined : Number(p)));
    const n = numbers[0] ?? 1;
    this.pendingWrap = false;
    if (privateMark) {
      if (params === '25') this.cursorVisible = final === 'h';
    } else {
      switch (final) {
        case 'A':
          this.y = Math.max(0, this.y - n);
          break;
        case 'B':
          this.y = Math.min(this.rows - 1, this.y + n);
          break;
        case 'C':
          this.x = Math.min(this.columns - 1, this.x + n);
          break;
        case 'D':
          this.x = Math.max(0, this.x - n);
          break;
        case 'G':
          this.x = Math.min(this.columns - 1, n - 1);
          break;
        case 'H':
          this.y = Math.min(this.rows - 1, (numbers[0] ?? 1) - 1);
          this.x = Math.min(this.columns - 1, (numbers[1] ?? 1) - 1);
          break;
        case 'K':
          this.eraseInLine(numbers[0] ?? 0);
          break;
        case 'J':
          this.eraseInDisplay(numbers[0] ?? 0);
          break;
        case 'm':
          break;
        default:
          throw new Error(`unsupported escape ${JSON.stringify(sequence)}`);
      }
    }
    return start + sequence!.length;
  }

  private eraseInLine(mode: number): void {
    const row = this.screen[this.y]!;
    const [from, to] = mode === 0 ? [this.x, this.columns] : mode === 1 ? [0, this.x + 1] : [0, this.columns];
    for (let i = from; i < to; i++) row[i] = ' ';
  }

  private eraseInDisplay(mode: number): void {
    if (mode === 0) {
      this.eraseInLine(0);
      for (let r = this.y + 1; r < this.rows; r++) this.screen[r] = this.blank();
    } else if (mode === 1) {
      this.eraseInLine(1);
      for (let r = 0; r < this.y; r++) this.screen[r] = this.blank();
    } else {
      this.screen = Array.from({ length: this.rows }, () => this.blank());
    }
  }
}
