import { releaseChunks, takeChunk } from '../buffers/chunk-pool.js';
import { plainFallbacks } from '../model/fallbacks.js';
import { isTextColumn } from '../model/records.js';
import { FRAMES, type JsonChunk, type JsonFraming, PlainJsonRows } from './json-rows-plain.js';
import { JSON_ROWS_WASM } from './wasm/json-rows-wasm.js';

export type { JsonChunk, JsonFraming } from './json-rows-plain.js';

/**
 * Normalized csv lines of one list of columns as JSON records, as output-state.ts recordToJson writes
 * them one line at a time. Two implementations give the same bytes: a WebAssembly loop (below) and plain
 * JavaScript (json-rows-plain.ts).
 */
export interface JsonRows {
  /** The records of `lines` (complete lines, each ending in LF), in the order of the lines. */
  convert(lines: Buffer, framing: JsonFraming, fallback: (line: string) => string): JsonChunk;
}

interface ConverterExports {
  memory: WebAssembly.Memory;
  convert(inPtr: number, length: number, outPtr: number, cap: number, columns: number): number;
  records: WebAssembly.Global;
  rest: WebAssembly.Global;
  stop: WebAssembly.Global;
}

const PAGE = 65_536;
const LF = 10;
/** Where the input goes in the wasm memory: the column table (json-rows.wat) comes first. */
const INPUT = 1024;
/** The wasm loop copies 16-byte blocks, which may run this far past its input and its output. */
const OVERRUN = 16;
const STOP_DONE = 0;
const STOP_FULL = 1;

let shared: ConverterExports | undefined;

/** One instance for the process: a call is synchronous and keeps nothing, so outputs can share it. */
function converter(): ConverterExports {
  shared ??= new WebAssembly.Instance(new WebAssembly.Module(Buffer.from(JSON_ROWS_WASM, 'base64')))
    .exports as unknown as ConverterExports;
  return shared;
}

/** json-rows.wat's table for `columns`: (pointer, length) of the record's end, then each column's key. */
function columnTable(columns: readonly string[], framing: JsonFraming): Buffer {
  const { open, close } = FRAMES[framing];
  const strings = [
    Buffer.from(`}${close}`),
    ...columns.map((name, i) => Buffer.from(`${i === 0 ? `${open}{` : ','}${JSON.stringify(name)}:`)),
  ];
  const table = Buffer.alloc(16 * strings.length);
  let at = table.length;
  strings.forEach((bytes, i) => {
    table.writeUInt32LE(at, 16 * i);
    table.writeUInt32LE(bytes.length, 16 * i + 4);
    if (i > 0) table.writeUInt32LE(isTextColumn(columns[i - 1]!) ? 1 : 0, 16 * i + 8);
    at += bytes.length;
  });
  const whole = Buffer.concat([table, ...strings]);
  if (whole.length > INPUT) throw new RangeError('too many columns for the JSON converter');
  return whole;
}

/**
 * The fast path: a WebAssembly loop converts a whole chunk, and only the lines it cannot prove right
 * (another field count, bytes to escape, non-ASCII) go to `fallback`, which is recordToJson, far too slow
 * alone for a large day (bench/README.md#line-ends-and-json-rows).
 */
export class WasmJsonRows implements JsonRows {
  /** Without columns, keys depend on each line's field count: every line goes to the fallback. */
  private readonly tables: Record<JsonFraming, Buffer> | undefined;
  private readonly columnCount: number;

  constructor(columns: readonly string[] | undefined) {
    this.columnCount = columns?.length ?? 0;
    this.tables = columns?.length
      ? { ndjson: columnTable(columns, 'ndjson'), json: columnTable(columns, 'json') }
      : undefined;
  }

  /** The records of `lines` (complete lines, each ending in LF), in the order of the lines. */
  convert(lines: Buffer, framing: JsonFraming, fallback: (line: string) => string): JsonChunk {
    const { open, close } = FRAMES[framing];
    const n = lines.length;
    const outPtr = INPUT + n + OVERRUN;
    // JSON of ticks is ~2.5 times their csv; when it is longer, the loop calls again
    let cap = n * 3 + 4096;
    const table = this.tables?.[framing];
    const wasm = table && prepared(table, lines, outPtr + cap + OVERRUN);
    const pieces: Buffer[] = [];
    let slow = '';
    let records = 0;
    let offset = 0;
    while (offset < n) {
      if (wasm) {
        const written = wasm.convert(INPUT + offset, n - offset, outPtr, cap, this.columnCount);
        if (written > 0) {
          if (slow) pieces.push(Buffer.from(slow));
          slow = '';
          // a chunk of a reused slab, given back by the writer (chunk-pool.ts)
          const piece = takeChunk(written);
          piece.set(new Uint8Array(wasm.memory.buffer, outPtr, written));
          pieces.push(piece);
        }
        records += wasm.records.value as number;
        offset += wasm.rest.value as number;
        const stop = wasm.stop.value as number;
        if (stop === STOP_DONE) break;
        if (stop === STOP_FULL) {
          // not even one record fit: give it room (lines are capped upstream at 1 MiB)
          if (written === 0) {
            cap = cap * 2 + 4096;
            reserve(wasm, outPtr + cap + OVERRUN);
          }
          continue;
        }
      }
      const lf = lines.indexOf(LF, offset);
      const end = lf < 0 ? n : lf;
      const line = lines.toString('utf8', offset, end);
      offset = end + 1;
      // as before this converter: an empty line (the normalizer leaves none) gives no record
      if (line === '') continue;
      slow += `${open}${fallback(line)}${close}`;
      records++;
    }
    if (slow) pieces.push(Buffer.from(slow));
    if (pieces.length === 1) return { bytes: pieces[0]!, records };
    const bytes = Buffer.concat(pieces);
    releaseChunks(pieces);
    return { bytes, records };
  }
}

/** The shared instance with `table` and `lines` in place and at least `bytes` of memory. */
function prepared(table: Buffer, lines: Buffer, bytes: number): ConverterExports {
  const wasm = converter();
  reserve(wasm, bytes);
  const heap = new Uint8Array(wasm.memory.buffer);
  heap.set(table, 0);
  heap.set(lines, INPUT);
  return wasm;
}

function reserve(wasm: ConverterExports, bytes: number): void {
  const { memory } = wasm;
  if (memory.buffer.byteLength < bytes) memory.grow(Math.ceil((bytes - memory.buffer.byteLength) / PAGE));
}

const byColumns = new WeakMap<readonly string[], WasmJsonRows>();
const plainByColumns = new WeakMap<readonly string[], PlainJsonRows>();

/**
 * The converter for `columns`. The one place the implementation is chosen: the plain one when the switch
 * asks for it (fallbacks.ts) or where WebAssembly cannot run (no WebAssembly global, as under
 * `node --jitless`, or no SIMD), else WebAssembly, made once per column list (an output's columns are one
 * array).
 */
export function jsonRowsFor(columns: readonly string[] | undefined): JsonRows {
  const plain = plainFallbacks() || !wasmRuns();
  if (!columns) return plain ? new PlainJsonRows(undefined) : new WasmJsonRows(undefined);
  return plain ? made(plainByColumns, columns, PlainJsonRows) : made(byColumns, columns, WasmJsonRows);
}

/** The converter of `kind` for `columns`, made once per column list. */
function made<T>(
  cache: WeakMap<readonly string[], T>,
  columns: readonly string[],
  kind: new (c: readonly string[]) => T,
): T {
  let rows = cache.get(columns);
  if (!rows) {
    rows = new kind(columns);
    cache.set(columns, rows);
  }
  return rows;
}

let runs: boolean | undefined;

/** Whether the WebAssembly module instantiates here: tried once per process. */
function wasmRuns(): boolean {
  if (runs === undefined) {
    try {
      converter();
      runs = true;
    } catch {
      runs = false;
    }
  }
  return runs;
}
