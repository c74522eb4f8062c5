import type { CompressionCodec, KeyValue } from 'hyparquet';
import type { Compress } from './codecs.js';
import type { ColumnBatch, ParquetColumn } from './column-batch.js';

/** A Parquet file being written, one row group at a time. */
export interface ParquetFileWriter {
  /** Encodes the batch's rows as one row group and hands its bytes on; the batch may be reused after. */
  writeRowGroup(batch: ColumnBatch): Promise<void>;
  /** Writes the footer (schema, row groups, key/value metadata). */
  finish(): Promise<void>;
}

/** What a file writer is given: its columns, time semantics, codec, metadata and where the bytes go. */
export interface FileOptions {
  columns: readonly ParquetColumn[];
  /** Times are instants (TIMESTAMP adjusted to UTC), else wall-clock times. */
  utc: boolean;
  codec: CompressionCodec;
  compress: Compress;
  keyValues: KeyValue[];
  createdBy: string;
  /** Takes the bytes of a row group (or of the footer); settles when more may come (backpressure). */
  send(bytes: Buffer): Promise<void>;
}
