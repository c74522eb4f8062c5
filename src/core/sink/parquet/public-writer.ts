import type { ParquetWriter } from 'hyparquet-writer';
import type { BatchColumn, ColumnBatch } from './column-batch.js';
import type { FileOptions, ParquetFileWriter } from './parquet-file-writer.js';
import { schemaOf } from './schema.js';

/**
 * The public path: hyparquet-writer's documented ParquetWriter, given each batch as arrays of JavaScript
 * values. Same schema, values and metadata as the fast path at about a third of its speed; used when
 * the fast path's encoders cannot be loaded (writer-internals.ts).
 */
export class PublicParquetWriter implements ParquetFileWriter {
  private constructor(private readonly writer: ParquetWriter) {}

  /** Loads hyparquet-writer (an ES module: import(), as the CLI's CommonJS bundle needs) and opens a file. */
  static async open(options: FileOptions): Promise<PublicParquetWriter> {
    const { ByteWriter, ParquetWriter } = await import('hyparquet-writer');
    const bytes = new ByteWriter(1 << 20);
    const send = () => {
      const chunk = Buffer.from(bytes.buffer.slice(0, bytes.index));
      bytes.index = 0;
      return options.send(chunk);
    };
    Object.assign(bytes, { flush: send, finish: send });
    const writer = new ParquetWriter({
      writer: bytes,
      schema: schemaOf(options.columns, options.utc),
      codec: options.codec,
      // snappy is built in; zstd and gzip are mdget's (codecs.ts)
      compressors:
        options.codec === 'ZSTD' || options.codec === 'GZIP' ? { [options.codec]: options.compress } : {},
      kvMetadata: options.keyValues,
      createdBy: options.createdBy,
    });
    return new PublicParquetWriter(writer);
  }

  async writeRowGroup(batch: ColumnBatch): Promise<void> {
    const n = batch.rows;
    if (n === 0) return;
    await this.writer.write({
      columnData: batch.columns.map((column, i) => ({
        name: batch.schema[i]!.name,
        data: valuesOf(column, n),
      })),
      rowGroupSize: n,
    });
  }

  async finish(): Promise<void> {
    await this.writer.finish();
  }
}

/** A column's values as the public API takes them: null for a missing one, BigInt for INT64. */
function valuesOf(column: BatchColumn, n: number): unknown[] {
  const out = new Array<unknown>(n);
  for (let i = 0; i < n; i++) {
    if (!column.present[i]) out[i] = null;
    else if (column.type === 'string') out[i] = column.dictionary[column.codes[i]!];
    else if (column.type === 'int64' || column.type === 'timestamp') out[i] = BigInt(column.values[i]!);
    else out[i] = column.values[i];
  }
  return out;
}
