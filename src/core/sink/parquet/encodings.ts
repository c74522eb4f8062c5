import type { ByteWriter } from 'hyparquet-writer';

/**
 * Value encodings of the fast path, from typed arrays in bulk (docs/parquet.md lists which column gets
 * which). Each writes into a ByteWriter or returns bytes; none knows about pages or files.
 */

/** The bytes of the first `n` values of a typed array, no copy. */
export const bytesOf = (values: Int32Array | Float64Array, n: number): Uint8Array =>
  new Uint8Array(values.buffer, values.byteOffset, n * values.BYTES_PER_ELEMENT);

/** int64 PLAIN of `n` integers held as doubles: two little-endian int32 halves each, no BigInt. */
export function int64Bytes(values: Float64Array, n: number): Uint8Array {
  const out = new Int32Array(n * 2);
  for (let i = 0; i < n; i++) {
    const value = values[i]!;
    const high = Math.floor(value / 4_294_967_296);
    out[2 * i] = value - high * 4_294_967_296;
    out[2 * i + 1] = high;
  }
  return new Uint8Array(out.buffer);
}

/**
 * Dictionary codes of `n` numbers into `codes`, and the distinct values in code order; undefined when there
 * are more than n/8 of them (PLAIN is smaller then, and the lookups were wasted).
 */
export function numberDictionary(
  values: ArrayLike<number>,
  n: number,
  codes: Int32Array,
): number[] | undefined {
  const codeOf = new Map<number, number>();
  const distinct: number[] = [];
  const limit = Math.min(65_536, n >> 3);
  for (let i = 0; i < n; i++) {
    const value = values[i]!;
    let code = codeOf.get(value);
    if (code === undefined) {
      if (distinct.length >= limit) return undefined;
      code = distinct.length;
      codeOf.set(value, code);
      distinct.push(value);
    }
    codes[i] = code;
  }
  return distinct;
}

const encoder = new TextEncoder();

/** BYTE_ARRAY PLAIN: each string's UTF-8 length (int32 LE) and bytes. */
export function plainStrings(writer: ByteWriter, strings: Iterable<string>): void {
  for (const text of strings) {
    const bytes = encoder.encode(text);
    writer.appendUint32(bytes.length);
    writer.appendBytes(bytes);
  }
}

/** Whether every step between consecutive values fits an int32, as DELTA_BINARY_PACKED needs here. */
export function deltasFitInt32(values: Float64Array, n: number): boolean {
  for (let i = 1; i < n; i++) {
    const delta = values[i]! - values[i - 1]!;
    if (delta > 2_147_483_647 || delta < -2_147_483_648) return false;
  }
  return true;
}

const BLOCK = 128;
const MINIBLOCKS = 4;
const PER_MINIBLOCK = BLOCK / MINIBLOCKS;

/**
 * DELTA_BINARY_PACKED of `n` integers held as doubles (steps checked by deltasFitInt32): times a few ms
 * apart pack into a few bits each, where PLAIN takes 64.
 */
export function deltaBinaryPacked(writer: ByteWriter, values: Float64Array, n: number): void {
  const varint = (value: number) => {
    let rest = value;
    while (rest >= 0x80) {
      writer.appendUint8((rest & 0x7f) | 0x80);
      rest = Math.floor(rest / 128);
    }
    writer.appendUint8(rest);
  };
  const zigzag = (value: number) => (value >= 0 ? 2 * value : -2 * value - 1);
  varint(BLOCK);
  varint(MINIBLOCKS);
  varint(n);
  varint(zigzag(n > 0 ? values[0]! : 0));
  const deltas = new Int32Array(BLOCK);
  const widths = new Uint8Array(MINIBLOCKS);
  for (let start = 1; start < n; start += BLOCK) {
    const count = Math.min(BLOCK, n - start);
    let min = Number.POSITIVE_INFINITY;
    for (let i = 0; i < count; i++) {
      const delta = values[start + i]! - values[start + i - 1]!;
      deltas[i] = delta;
      if (delta < min) min = delta;
    }
    varint(zigzag(min));
    for (let m = 0; m < MINIBLOCKS; m++) {
      let max = 0;
      const end = Math.min((m + 1) * PER_MINIBLOCK, count);
      for (let i = m * PER_MINIBLOCK; i < end; i++) max = Math.max(max, deltas[i]! - min);
      widths[m] = max === 0 ? 0 : 32 - Math.clz32(max);
      writer.appendUint8(widths[m]!);
    }
    // miniblocks past the last value are not written; a short last one is padded with zeros
    for (let m = 0; m < MINIBLOCKS && m * PER_MINIBLOCK < count; m++) {
      const width = widths[m]!;
      if (width === 0) continue;
      let acc = 0;
      let bits = 0;
      for (let i = m * PER_MINIBLOCK; i < (m + 1) * PER_MINIBLOCK; i++) {
        let value = i < count ? (deltas[i]! - min) >>> 0 : 0;
        for (let rest = width; rest > 0; ) {
          const take = Math.min(rest, 8 - bits);
          acc |= (value & ((1 << take) - 1)) << bits;
          value = take === 32 ? 0 : value >>> take;
          bits += take;
          rest -= take;
          if (bits === 8) {
            writer.appendUint8(acc);
            acc = 0;
            bits = 0;
          }
        }
      }
      if (bits > 0) writer.appendUint8(acc);
    }
  }
}
