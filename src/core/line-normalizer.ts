import { LINE_NORMALIZER_WASM } from './wasm/line-normalizer-wasm.js';

interface NormalizerExports {
  memory: WebAssembly.Memory;
  normalize(inPtr: number, length: number, outPtr: number): number;
  lines: WebAssembly.Global;
  rest: WebAssembly.Global;
}

let compiled: WebAssembly.Module | undefined;

/** One instance (own memory) per normalizer, so concurrent outputs never share a buffer. */
function instantiate(): NormalizerExports {
  compiled ??= new WebAssembly.Module(Buffer.from(LINE_NORMALIZER_WASM, 'base64'));
  return new WebAssembly.Instance(compiled).exports as unknown as NormalizerExports;
}

const PAGE = 65_536;

/**
 * Turns the service's line ends (CRLF, LF or bare CR, spec §1.3) into LF and drops blank lines. This is
 * the only per-byte work on the csv path; a JavaScript loop managed ~300 MB/s here (shared/notes: per-byte
 * JS costs ~2 s/GiB), so the loop is WebAssembly with SIMD (wasm/line-normalizer.wat), ~3x faster.
 * An unfinished last line is carried to the next chunk.
 */
export class LineNormalizer {
  /** Complete lines written so far. */
  lines = 0;
  private carry: Buffer = Buffer.alloc(0);
  private afterCR = false;
  private readonly wasm = instantiate();

  /** The complete, non-blank lines of `chunk` (after any carried partial line), each ending in LF. */
  push(chunk: Buffer): Buffer {
    let input = chunk;
    // A CRLF split across chunks: the LF was already counted with its CR.
    if (this.afterCR && this.carry.length === 0 && input.length > 0 && input[0] === 10)
      input = input.subarray(1);
    this.afterCR = false;
    const n = this.carry.length + input.length;
    if (n === 0) return Buffer.alloc(0);
    const { memory, normalize } = this.wasm;
    const needed = 2 * n + 16;
    if (memory.buffer.byteLength < needed) memory.grow(Math.ceil((needed - memory.buffer.byteLength) / PAGE));
    const heap = new Uint8Array(memory.buffer);
    heap.set(this.carry, 0);
    heap.set(input, this.carry.length);
    const written = normalize(0, n, n);
    this.lines += this.wasm.lines.value as number;
    const rest = this.wasm.rest.value as number;
    this.afterCR = rest === n && heap[n - 1] === 13;
    this.carry = Buffer.from(heap.subarray(rest, n));
    return Buffer.from(heap.subarray(n, n + written));
  }

  /** Bytes of the unfinished line held back so far. */
  get pendingBytes(): number {
    return this.carry.length;
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
