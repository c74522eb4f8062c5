import { takeChunk } from '../buffers/chunk-pool.js';

const LF = 10;
const CR = 13;
const TAB = 9;
const SPACE = 32;
const EMPTY = Buffer.alloc(0);

/**
 * Where pushView() builds its lines, shared by every normalizer: the chunk's complete lines are copied to
 * its start, and the output is built after them with copyWithin (no object per line). What pushView
 * returns is a view of it, valid until the next call of any LineNormalizer. Made on first use, at least
 * 64 KiB, and grown when a chunk needs more.
 */
let scratch: Buffer = EMPTY;
const MIN_SCRATCH = 64 * 1024;

/** The longest line prefix: the WebAssembly normalizer keeps it in a fixed area of its memory. */
export const PREFIX_LIMIT = 256;

/**
 * The line normalizer's plain fallback (line-normalizer.ts has the interface and the choice): the same
 * bytes and counts as the WebAssembly loop, in standard JavaScript. The lines are found with
 * Buffer.indexOf (memchr) and copied a line at a time, or a whole chunk at once when nothing in it
 * changes. An unfinished last line is carried to the next chunk.
 */
export class PlainLineNormalizer {
  /** Complete lines written so far. */
  lines = 0;
  private carry: Buffer = EMPTY;
  private prefix: Buffer = EMPTY;

  constructor(prefix = '') {
    this.setPrefix(prefix);
  }

  /** The bytes every following line starts with (one response may differ from the next). */
  setPrefix(prefix: string): void {
    const bytes = Buffer.from(prefix);
    if (bytes.length > PREFIX_LIMIT) throw new RangeError('line prefix too long');
    this.prefix = bytes;
  }

  /** The complete, non-blank lines of `chunk` (after any carried partial line), each ending in LF. */
  push(chunk: Buffer): Buffer {
    const lines = this.pushView(chunk);
    if (lines.length === 0) return EMPTY;
    // a chunk of a reused slab, given back by the writer (chunk-pool.ts): never a view of the caller's chunk
    // or of the scratch buffer
    const copy = takeChunk(lines.length);
    copy.set(lines);
    return copy;
  }

  /**
   * push(), but the lines may be a view of `chunk` or of a scratch buffer shared by every normalizer,
   * valid only until the next call of any LineNormalizer: for a caller that reads them at once, as the
   * JSON converter does, which saves a copy of every byte into a buffer that dies right after.
   */
  pushView(chunk: Buffer): Buffer {
    // the complete lines end after the chunk's last line end (a carried partial line holds none)
    const last = Math.max(chunk.lastIndexOf(LF), chunk.lastIndexOf(CR)) + 1;
    const carried = this.carry;
    if (last === 0) {
      if (chunk.length > 0) this.carry = Buffer.concat([carried, chunk]);
      return EMPTY;
    }
    // a copy: the chunk goes back to the pool
    this.carry = last === chunk.length ? EMPTY : Buffer.from(chunk.subarray(last));
    // A CR LF split across chunks needs no care: its LF ends an empty line, which is dropped.
    const hasCr = chunk.indexOf(CR) !== -1;
    if (carried.length === 0 && !hasCr && this.prefix.length === 0 && this.countUnlessBlank(chunk, last))
      return chunk.subarray(0, last); // LF ends, nothing to insert, no blank line: the chunk's own bytes
    // The carried bytes and the chunk's lines are copied to the scratch buffer's start; the output is
    // built after them.
    const end = carried.length + last;
    const room = Math.ceil(end * 1.25) + this.prefix.length + 64;
    if (scratch.length < end + room)
      scratch = Buffer.allocUnsafeSlow(Math.max(end + room, 2 * scratch.length, MIN_SCRATCH));
    scratch.set(carried, 0);
    scratch.set(chunk.subarray(0, last), carried.length);
    return this.normalize(end, hasCr);
  }

  /** Bytes of the unfinished line held back so far. */
  get pendingBytes(): number {
    return this.carry.length;
  }

  /** The unterminated last line (prefixed, with an LF added) if it holds anything but blanks; '' otherwise. */
  end(): Buffer {
    const rest = this.carry;
    this.carry = EMPTY;
    if (rest.toString('latin1').trim() === '') return EMPTY;
    this.lines++;
    return Buffer.concat([this.prefix, rest, Buffer.from('\n')]);
  }

  /** Line ends in `bytes` (CR LF counted once within a chunk): the raw path's rows. */
  countLineEnds(bytes: Buffer): number {
    let count = 0;
    for (let at = bytes.indexOf(LF); at !== -1; at = bytes.indexOf(LF, at + 1)) count++;
    for (let at = bytes.indexOf(CR); at !== -1; at = bytes.indexOf(CR, at + 1)) {
      if (bytes[at + 1] !== LF) count++; // a CR LF was counted with its LF
    }
    return count;
  }

  /**
   * For `input`'s first `end` bytes, lines ending in LF only: counts them and returns true, unless one is
   * blank (then false, and nothing is counted).
   */
  private countUnlessBlank(input: Buffer, end: number): boolean {
    let lines = 0;
    for (let start = 0; start < end; ) {
      const stop = input.indexOf(LF, start);
      if (isBlank(input, start, stop)) return false;
      lines++;
      start = stop + 1;
    }
    this.lines += lines;
    return true;
  }

  /**
   * The lines of the scratch buffer's first `end` bytes (which end in a line end), normalized after them:
   * each line found with indexOf (LF, and CR only when there is one), copied with copyWithin.
   */
  private normalize(end: number, hasCr: boolean): Buffer {
    const prefix = this.prefix;
    const input = scratch.subarray(0, end);
    let out = scratch;
    // the output follows the input: [0, end) is read, [end, j) written
    let j = end;
    let lines = 0;
    let lf = input.indexOf(LF);
    let cr = hasCr ? input.indexOf(CR) : -1;
    if (lf === -1) lf = end;
    if (cr === -1) cr = end;
    for (let start = 0; start < end; ) {
      // the line [start, stop), and where the next one starts
      let stop: number;
      let next: number;
      if (lf < cr) {
        stop = lf;
        next = lf + 1;
      } else {
        stop = cr;
        next = cr + 1 < end && input[cr + 1] === LF ? cr + 2 : cr + 1;
        cr = input.indexOf(CR, next);
        if (cr === -1) cr = end;
      }
      if (lf < next) {
        lf = input.indexOf(LF, next);
        if (lf === -1) lf = end;
      }
      if (!isBlank(input, start, stop)) {
        const length = stop - start;
        if (j + prefix.length + length + 1 > out.length) out = grow(j, prefix.length + length + 1);
        for (let k = 0; k < prefix.length; k++) out[j + k] = prefix[k]!;
        j += prefix.length;
        out.copyWithin(j, start, stop);
        j += length;
        out[j++] = LF;
        lines++;
      }
      start = next;
    }
    this.lines += lines;
    return out.subarray(end, j);
  }
}

/** True when [start, stop) is empty or holds only spaces and tabs. */
function isBlank(bytes: Buffer, start: number, stop: number): boolean {
  for (let i = start; i < stop; i++) {
    const byte = bytes[i];
    if (byte !== SPACE && byte !== TAB) return false;
  }
  return true;
}

/** A scratch buffer with room for `more` bytes after its first `used`, which it keeps. */
function grow(used: number, more: number): Buffer {
  const bigger = Buffer.allocUnsafeSlow(Math.max(used + more, 2 * scratch.length));
  bigger.set(scratch.subarray(0, used));
  scratch = bigger;
  return bigger;
}
