import type { ColumnChunk, Encoding, RowGroup, Statistics } from 'hyparquet';
import type { BatchColumn, ColumnBatch } from './column-batch.js';
import {
  bytesOf,
  deltaBinaryPacked,
  deltasFitInt32,
  int64Bytes,
  numberDictionary,
  plainStrings,
} from './encodings.js';
import type { FileOptions, ParquetFileWriter } from './parquet-file-writer.js';
import { schemaOf } from './schema.js';
import type { WriterInternals } from './writer-internals.js';

const MAGIC = 0x31524150; // PAR1

/** A data page's body before compression, with its encoding. */
interface Encoded {
  dictionary?: { bytes: Uint8Array; count: number };
  data: Uint8Array;
  encoding: Encoding;
  statistics?: Statistics;
}

/**
 * The fast path: one row group per batch, each column chunk a data page (v1) and, for few distinct
 * values, a dictionary page, encoded from the batch's typed arrays in bulk. Every column is OPTIONAL: an
 * empty csv field is a null. Bytes go to `send` after each row group, so memory holds one row group.
 */
export class FastParquetWriter implements ParquetFileWriter {
  private readonly writer;
  private readonly rowGroups: RowGroup[] = [];
  private numRows = 0n;
  private readonly schema;
  private codes = new Int32Array(0);
  private scratchInts = new Int32Array(0);
  private scratchDoubles = new Float64Array(0);

  constructor(
    private readonly lib: WriterInternals,
    private readonly options: FileOptions,
  ) {
    this.writer = new lib.ByteWriter(1 << 20);
    this.schema = schemaOf(options.columns, options.utc);
    this.writer.appendUint32(MAGIC);
  }

  async writeRowGroup(batch: ColumnBatch): Promise<void> {
    const n = batch.rows;
    if (n === 0) return;
    const w = this.writer;
    const start = w.offset;
    let raw = 0;
    const columns: ColumnChunk[] = batch.columns.map((column, i) => {
      const element = this.schema[i + 1]!;
      const chunkStart = w.offset;
      const encoded = this.encode(column, n);
      const levels = definitionLevels(this.lib, column, n);
      let dictionaryOffset: bigint | undefined;
      if (encoded.dictionary) {
        dictionaryOffset = BigInt(w.offset);
        raw += this.page(encoded.dictionary.bytes, encoded.dictionary.count, undefined);
      }
      const dataOffset = BigInt(w.offset);
      raw += this.page(concat(levels, encoded.data), n, encoded.encoding);
      const encodings: Encoding[] = encoded.dictionary
        ? ['PLAIN', 'RLE', 'RLE_DICTIONARY']
        : [...new Set<Encoding>([encoded.encoding, 'RLE'])];
      return {
        file_offset: BigInt(chunkStart),
        meta_data: {
          type: element.type!,
          encodings,
          path_in_schema: [element.name],
          codec: this.options.codec,
          num_values: BigInt(n),
          total_uncompressed_size: BigInt(raw),
          total_compressed_size: BigInt(w.offset - chunkStart),
          data_page_offset: dataOffset,
          ...(dictionaryOffset === undefined ? {} : { dictionary_page_offset: dictionaryOffset }),
          statistics: { ...encoded.statistics, null_count: BigInt(column.nulls) },
        },
      };
    });
    this.rowGroups.push({
      columns,
      num_rows: BigInt(n),
      total_byte_size: BigInt(raw),
      file_offset: BigInt(start),
      total_compressed_size: BigInt(w.offset - start),
    });
    this.numRows += BigInt(n);
    await this.flush();
  }

  async finish(): Promise<void> {
    this.lib.writeMetadata(this.writer, {
      version: 2,
      created_by: this.options.createdBy,
      schema: this.schema,
      num_rows: this.numRows,
      row_groups: this.rowGroups,
      key_value_metadata: this.options.keyValues,
    });
    this.writer.appendUint32(MAGIC);
    await this.flush();
  }

  /** The values of one column chunk: only the rows that have one (nulls are in the definition levels). */
  private encode(column: BatchColumn, n: number): Encoded {
    const count = n - column.nulls;
    if (this.codes.length < count) this.codes = new Int32Array(Math.max(count, 2 * this.codes.length));
    if (column.type === 'string') {
      const codes = column.nulls === 0 ? column.codes : this.compactInts(column.codes, column.present, n);
      const { dictionary } = column;
      if (dictionary.length <= Math.max(16, count >> 1)) {
        const page = new this.lib.ByteWriter(64 + dictionary.length * 16);
        plainStrings(page, dictionary);
        return this.dictionaryPages(page.getBytes(), dictionary.length, codes, count);
      }
      const page = new this.lib.ByteWriter(count * 16 + 64);
      plainStrings(
        page,
        (function* () {
          for (let i = 0; i < count; i++) yield dictionary[codes[i]!]!;
        })(),
      );
      return { data: page.getBytes(), encoding: 'PLAIN' };
    }
    if (column.values instanceof Int32Array) {
      const values = column.nulls === 0 ? column.values : this.compactInts(column.values, column.present, n);
      const statistics = column.type === 'date' ? range(values, count, Number) : undefined;
      const distinct = numberDictionary(values, count, this.codes);
      const encoded = distinct
        ? this.dictionaryPages(
            bytesOf(Int32Array.from(distinct), distinct.length),
            distinct.length,
            this.codes,
            count,
          )
        : { data: bytesOf(values, count), encoding: 'PLAIN' as const };
      return statistics ? { ...encoded, statistics } : encoded;
    }
    const values = column.nulls === 0 ? column.values : this.compactDoubles(column.values, column.present, n);
    if (column.type === 'timestamp') {
      const statistics = range(values, count, BigInt);
      if (deltasFitInt32(values, count)) {
        const page = new this.lib.ByteWriter(count * 2 + 1024);
        deltaBinaryPacked(page, values, count);
        return { data: page.getBytes(), encoding: 'DELTA_BINARY_PACKED', statistics };
      }
      return { data: int64Bytes(values, count), encoding: 'PLAIN', statistics };
    }
    const distinct = numberDictionary(values, count, this.codes);
    if (column.type === 'int64') {
      return distinct
        ? this.dictionaryPages(
            int64Bytes(Float64Array.from(distinct), distinct.length),
            distinct.length,
            this.codes,
            count,
          )
        : { data: int64Bytes(values, count), encoding: 'PLAIN' };
    }
    return distinct
      ? this.dictionaryPages(
          bytesOf(Float64Array.from(distinct), distinct.length),
          distinct.length,
          this.codes,
          count,
        )
      : { data: bytesOf(values, count), encoding: 'PLAIN' };
  }

  /** A dictionary page of `size` values and the codes' data page (bit width, then RLE/bit-packed). */
  private dictionaryPages(dictionary: Uint8Array, size: number, codes: Int32Array, count: number): Encoded {
    const bitWidth = Math.max(1, 32 - Math.clz32(Math.max(0, size - 1)));
    const page = new this.lib.ByteWriter(count + 64);
    page.appendUint8(bitWidth);
    this.lib.writeRleBitPackedHybrid(page, codes.subarray(0, count), bitWidth);
    return {
      dictionary: { bytes: dictionary, count: size },
      data: page.getBytes(),
      encoding: 'RLE_DICTIONARY',
    };
  }

  /** Writes one page (a dictionary page when `encoding` is undefined); returns its uncompressed size. */
  private page(body: Uint8Array, numValues: number, encoding: Encoding | undefined): number {
    const compressed = this.options.compress(body);
    const w = this.writer;
    const start = w.offset;
    this.lib.writePageHeader(
      w,
      encoding === undefined
        ? {
            type: 'DICTIONARY_PAGE',
            uncompressed_page_size: body.length,
            compressed_page_size: compressed.length,
            dictionary_page_header: { num_values: numValues, encoding: 'PLAIN' },
          }
        : {
            type: 'DATA_PAGE',
            uncompressed_page_size: body.length,
            compressed_page_size: compressed.length,
            data_page_header: {
              num_values: numValues,
              encoding,
              definition_level_encoding: 'RLE',
              repetition_level_encoding: 'RLE',
            },
          },
    );
    const header = w.offset - start;
    w.appendBytes(compressed);
    return header + body.length;
  }

  private compactInts(values: Int32Array, present: Uint8Array, n: number): Int32Array {
    if (this.scratchInts.length < n) this.scratchInts = new Int32Array(n);
    let k = 0;
    for (let i = 0; i < n; i++) if (present[i]) this.scratchInts[k++] = values[i]!;
    return this.scratchInts;
  }

  private compactDoubles(values: Float64Array, present: Uint8Array, n: number): Float64Array {
    if (this.scratchDoubles.length < n) this.scratchDoubles = new Float64Array(n);
    let k = 0;
    for (let i = 0; i < n; i++) if (present[i]) this.scratchDoubles[k++] = values[i]!;
    return this.scratchDoubles;
  }

  /** Hands the row group's bytes (a copy: the buffer is reused) to the output, waiting as it asks. */
  private flush(): Promise<void> {
    const bytes = Buffer.from(this.writer.buffer.slice(0, this.writer.index));
    this.writer.index = 0;
    return this.options.send(bytes);
  }
}

/** Min and max of `count` values for the chunk's statistics (readers skip row groups by time with them). */
function range<T>(values: ArrayLike<number>, count: number, as: (value: number) => T): Statistics {
  if (count === 0) return {};
  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  for (let i = 0; i < count; i++) {
    const value = values[i]!;
    if (value < min) min = value;
    if (value > max) max = value;
  }
  return { min_value: as(min) as Statistics['min_value'], max_value: as(max) as Statistics['max_value'] };
}

/** Definition levels of an OPTIONAL column (data page v1): their byte length, then RLE/bit-packed bits. */
function definitionLevels(lib: WriterInternals, column: BatchColumn, n: number): Uint8Array {
  const levels = new lib.ByteWriter(column.nulls === 0 ? 16 : (n >> 3) + 64);
  levels.appendUint32(0);
  if (column.nulls === 0) {
    // one run of n ones: (n << 1) as a varint, then the value in one byte
    levels.appendVarInt(n * 2);
    levels.appendUint8(1);
  } else lib.writeRleBitPackedHybrid(levels, column.present.subarray(0, n), 1);
  levels.view.setUint32(0, levels.index - 4, true);
  return levels.getBytes();
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}
