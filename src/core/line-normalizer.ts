/**
 * Turns the service's line ends (CRLF, LF or bare CR, spec §1.3) into LF and drops blank lines, in one pass
 * over each chunk. This is the only per-byte work on the csv path, so it is a plain typed-array loop into a
 * preallocated buffer (no per-line calls, no strings): see shared/notes for why that matters.
 */
export class LineNormalizer {
  /** Complete lines written so far. */
  lines = 0;
  private carry: Buffer = Buffer.alloc(0);
  private afterCR = false;

  /** The complete, non-blank lines of `chunk` (after any carried partial line), each ending in LF. */
  push(chunk: Buffer): Buffer {
    const input = this.carry.length > 0 ? Buffer.concat([this.carry, chunk]) : chunk;
    const n = input.length;
    const out = Buffer.allocUnsafe(n);
    let j = 0;
    let lineStartOut = 0;
    let lineStartIn = 0;
    let content = false;
    let i = 0;
    if (this.afterCR && n > 0 && input[0] === 10) {
      i = 1;
      lineStartIn = 1;
    }
    this.afterCR = false;
    for (; i < n; i++) {
      const b = input[i]!;
      if (b === 10 || b === 13) {
        if (content) {
          out[j++] = 10;
          lineStartOut = j;
          this.lines++;
          content = false;
        } else {
          j = lineStartOut;
        }
        if (b === 13) {
          if (i + 1 < n) {
            if (input[i + 1] === 10) i++;
          } else {
            this.afterCR = true;
          }
        }
        lineStartIn = i + 1;
      } else {
        out[j++] = b;
        if (b !== 32 && b !== 9) content = true;
      }
    }
    this.carry = lineStartIn < n ? Buffer.from(input.subarray(lineStartIn)) : Buffer.alloc(0);
    return out.subarray(0, lineStartOut);
  }

  /** The unterminated last line (with an LF added) if it holds anything but blanks; '' otherwise. */
  end(): Buffer {
    const rest = this.carry;
    this.carry = Buffer.alloc(0);
    if (rest.toString('latin1').trim() === '') return Buffer.alloc(0);
    this.lines++;
    return Buffer.concat([rest, Buffer.from('\n')]);
  }
}
