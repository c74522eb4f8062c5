import { takeChunk } from '../buffers/chunk-pool.js';
import { plainFallbacks } from '../model/fallbacks.js';
import { PlainLineNormalizer, PREFIX_LIMIT } from './line-normalizer-plain.js';
import { LINE_NORMALIZER_WASM } from './wasm/line-normalizer-wasm.js';

/**
 * Turns the service's line ends (CRLF, LF or bare CR: docs/service.md#response-lines) into LF, drops blank
 * lines (empty, or spaces and tabs only) and starts every line with a fixed prefix (the csv's `symbol`
 * column); an unfinished last line is carried to the next chunk. Two implementations give the same bytes
 * and counts: WebAssembly with SIMD (below) and plain JavaScript (line-normalizer-plain.ts).
 */
export interface LineNormalizer {
  /** Complete lines written so far. */
  readonly lines: number;
  /** Bytes of the unfinished line held back so far. */
  readonly pendingBytes: number;
  /** The bytes every following line starts with (one response may differ from the next). */
  setPrefix(prefix: string): void;
  /** The complete, non-blank lines of `chunk` (after any carried partial line), each ending in LF. */
  push(chunk: Buffer): Buffer;
  /** push(), but the lines may be a view of scratch memory, valid only until the next call of any normalizer. */
  pushView(chunk: Buffer): Buffer;
  /** The unterminated last line (prefixed, with an LF added) if it holds anything but blanks; '' otherwise. */
  end(): Buffer;
  /** Line ends in `bytes` (CR LF counted once within a chunk): the raw path's rows. */
  countLineEnds(bytes: Buffer): number;
}

/**
 * A normalizer for one response. The one place the implementation is chosen: the plain one when the
 * switch asks for it (fallbacks.ts) or where WebAssembly cannot run (no WebAssembly global, as under
 * `node --jitless`, or no SIMD), else WebAssembly.
 */
export function newLineNormalizer(prefix = ''): LineNormalizer {
  return plainFallbacks() || !wasmRuns() ? new PlainLineNormalizer(prefix) : new WasmLineNormalizer(prefix);
}

let runs: boolean | undefined;

/** Whether the WebAssembly module instantiates here: tried once per process. */
function wasmRuns(): boolean {
  if (runs === undefined) {
    try {
      instance();
      runs = true;
    } catch {
      runs = false;
    }
  }
  return runs;
}

interface NormalizerExports {
  memory: WebAssembly.Memory;
  normalize(
    inPtr: number,
    length: number,
    outPtr: number,
    cap: number,
    prePtr: number,
    preLen: number,
  ): number;
  line_ends(inPtr: number, length: number): number;
  lines: WebAssembly.Global;
  rest: WebAssembly.Global;
  full: WebAssembly.Global;
}

let shared: NormalizerExports | undefined;

/**
 * One instance for the process: its memory is scratch space for the length of one synchronous call, and
 * every normalizer keeps its own state in JavaScript: an instance per response costs a compile and a
 * grown memory each, which hundreds of small requests would pay.
 */
function instance(): NormalizerExports {
  shared ??= new WebAssembly.Instance(new WebAssembly.Module(Buffer.from(LINE_NORMALIZER_WASM, 'base64')))
    .exports as unknown as NormalizerExports;
  return shared;
}

const PAGE = 65_536;
/** Room for the prefix at the start of the wasm memory. */
const PREFIX_AREA = PREFIX_LIMIT;

/**
 * The fast path: the only per-byte work on the csv path, as a WebAssembly loop with SIMD
 * (wasm/line-normalizer.wat, docs/internals.md#the-webassembly-loops) that copies runs of 16 bytes
 * without a line end at once.
 */
export class WasmLineNormalizer implements LineNormalizer {
  /** Complete lines written so far. */
  lines = 0;
  private carry: Buffer = Buffer.alloc(0);
  private afterCR = false;
  private readonly wasm = instance();
  private prefix: Buffer = Buffer.alloc(0);

  constructor(prefix = '') {
    this.setPrefix(prefix);
  }

  /** The bytes every following line starts with (one response may differ from the next). */
  setPrefix(prefix: string): void {
    const bytes = Buffer.from(prefix);
    if (bytes.length > PREFIX_LIMIT) throw new RangeError('line prefix too long');
    this.prefix = bytes;
  }

  private get prefixLength(): number {
    return this.prefix.length;
  }

  /** The complete, non-blank lines of `chunk` (after any carried partial line), each ending in LF. */
  push(chunk: Buffer): Buffer {
    const lines = this.pushView(chunk);
    if (lines.buffer !== this.wasm.memory.buffer) return lines;
    // a chunk of a reused slab, given back by the writer (chunk-pool.ts)
    const copy = takeChunk(lines.length);
    copy.set(lines);
    return copy;
  }

  /**
   * push(), but the lines may be a view of the WebAssembly memory, valid only until the next call of any
   * LineNormalizer (they share it): for a caller that reads them at once, as the JSON converter does,
   * which saves a copy of every byte into a buffer that dies right after.
   */
  pushView(chunk: Buffer): Buffer {
    let input = chunk;
    // A CRLF split across chunks: the LF was already counted with its CR.
    if (this.afterCR && this.carry.length === 0 && input.length > 0 && input[0] === 10)
      input = input.subarray(1);
    this.afterCR = false;
    const n = this.carry.length + input.length;
    if (n === 0) return Buffer.alloc(0);
    const inPtr = PREFIX_AREA;
    const outPtr = inPtr + n + 16;
    // Records are ~40 bytes, so a quarter more is room for most prefixes in one call; longer ones loop.
    let cap = Math.ceil(n * 1.25) + this.prefixLength + 64;
    this.reserve(outPtr + cap);
    let heap = new Uint8Array(this.wasm.memory.buffer);
    heap.set(this.prefix, 0);
    heap.set(this.carry, inPtr);
    heap.set(input, inPtr + this.carry.length);
    const pieces: Buffer[] = [];
    let last: Buffer | undefined;
    let offset = 0;
    for (;;) {
      // the next call writes where the last piece is: keep a copy of it
      if (last) pieces.push(Buffer.from(last));
      const written = this.wasm.normalize(inPtr + offset, n - offset, outPtr, cap, 0, this.prefixLength);
      const rest = this.wasm.rest.value as number;
      heap = new Uint8Array(this.wasm.memory.buffer);
      last = written > 0 ? Buffer.from(this.wasm.memory.buffer, outPtr, written) : undefined;
      this.lines += this.wasm.lines.value as number;
      offset += rest;
      if (!(this.wasm.full.value as number)) break;
      // One line longer than the room left: give it room (lines are capped upstream at 1 MiB).
      if (written === 0 && rest === 0) {
        cap = cap * 2 + n;
        this.reserve(outPtr + cap);
        heap = new Uint8Array(this.wasm.memory.buffer);
      }
    }
    this.afterCR = offset === n && heap[inPtr + n - 1] === 13;
    this.carry = Buffer.from(heap.subarray(inPtr + offset, inPtr + n));
    if (pieces.length === 0) return last ?? Buffer.alloc(0);
    if (last) pieces.push(last);
    return Buffer.concat(pieces);
  }

  /** Bytes of the unfinished line held back so far. */
  get pendingBytes(): number {
    return this.carry.length;
  }

  /** The unterminated last line (prefixed, with an LF added) if it holds anything but blanks; '' otherwise. */
  end(): Buffer {
    const rest = this.carry;
    this.carry = Buffer.alloc(0);
    if (rest.toString('latin1').trim() === '') return Buffer.alloc(0);
    this.lines++;
    return Buffer.concat([this.prefix, rest, Buffer.from('\n')]);
  }

  /** Line ends in `bytes` (CR LF counted once within a chunk), counted natively: the raw path's rows. */
  countLineEnds(bytes: Buffer): number {
    if (bytes.length === 0) return 0;
    this.reserve(PREFIX_AREA + bytes.length + 16);
    new Uint8Array(this.wasm.memory.buffer).set(bytes, PREFIX_AREA);
    return this.wasm.line_ends(PREFIX_AREA, bytes.length);
  }

  private reserve(bytes: number): void {
    const { memory } = this.wasm;
    if (memory.buffer.byteLength < bytes) memory.grow(Math.ceil((bytes - memory.buffer.byteLength) / PAGE));
  }
}
