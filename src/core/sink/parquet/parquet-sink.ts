import { Writable } from 'node:stream';
import { finished } from 'node:stream/promises';
import type { KeyValue } from 'hyparquet';
import { releaseChunk } from '../../buffers/chunk-pool.js';
import type { ParquetCompression } from '../../model/formats.js';
import { type Sink, writeTo } from '../atomic-file.js';
import { ColumnBatch, type ParquetColumn } from './column-batch.js';
import { CsvColumnReader } from './csv-columns.js';
import { openParquetWriter } from './file-writer.js';

/**
 * Rows per row group, and input bytes: whichever comes first closes it. 128 Ki rows of ticks make a few MB
 * of columns, enough for the codecs to work well and little enough for memory to stay flat (docs/parquet.md).
 */
export const ROW_GROUP_ROWS = 128 * 1024;
const ROW_GROUP_BYTES = 32 * 1024 * 1024;

/** What a Parquet output is: its columns and their types, time semantics, codec and metadata. */
export interface ParquetSinkOptions {
  columns: readonly ParquetColumn[];
  /** Times are instants (--utc, --tz), else the service's wall clock. */
  utc: boolean;
  compression: ParquetCompression;
  keyValues: KeyValue[];
  createdBy: string;
  /** The writer's public API instead of its fast path (file-writer.ts), for the test of that path. */
  publicPath?: boolean;
}

/** Whether a batch makes a row group now. */
const isFull = (batch: ColumnBatch) => batch.rows >= ROW_GROUP_ROWS || batch.bytes >= ROW_GROUP_BYTES;

/**
 * A sink that takes mdget's csv lines (no header) and writes them as Parquet into another sink, one row
 * group at a time as the rows arrive. Atomicity stays the inner sink's: a file still appears only on commit,
 * and a failure (a value that does not fit its column included) leaves nothing behind.
 */
export async function parquetSink(inner: Sink, options: ParquetSinkOptions): Promise<Sink> {
  const writer = await openParquetWriter({
    columns: options.columns,
    utc: options.utc,
    compression: options.compression,
    keyValues: options.keyValues,
    createdBy: options.createdBy,
    ...(options.publicPath ? { path: 'public' as const } : {}),
    send: (bytes) => writeTo(inner.stream, bytes),
  });
  const batch = new ColumnBatch(options.columns);
  const reader = new CsvColumnReader(batch, isFull);
  let carry: Buffer | undefined;
  const writeGroup = async () => {
    await writer.writeRowGroup(batch);
    batch.clear();
    reader.cleared();
  };
  const take = async (chunk: Buffer) => {
    const bytes = carry ? Buffer.concat([carry, chunk]) : chunk;
    carry = undefined;
    for (let at = reader.take(bytes, 0); at >= 0; at = reader.take(bytes, at)) await writeGroup();
    const lastLine = bytes.lastIndexOf(10) + 1;
    // a copy: the chunk goes back to its pool
    if (lastLine < bytes.length) carry = Buffer.from(bytes.subarray(lastLine));
  };
  const stream = new Writable({
    highWaterMark: 1024 * 1024,
    write(chunk: Buffer, _encoding, callback) {
      take(chunk).then(
        () => {
          releaseChunk(chunk);
          callback();
        },
        (error: Error) => callback(error),
      );
    },
    final(callback) {
      (async () => {
        if (carry) await take(Buffer.from('\n'));
        if (batch.rows > 0) await writeGroup();
        await writer.finish();
      })().then(() => callback(), callback);
    },
  });
  stream.on('error', () => {}); // reported through the writes that fail and commit()
  return {
    stream,
    get closed() {
      return inner.closed;
    },
    written: () => inner.written?.(),
    async commit() {
      stream.end();
      await finished(stream);
      await inner.commit();
    },
    async abort() {
      stream.destroy();
      await inner.abort();
    },
  };
}
