import { plainFallbacks } from '../../model/fallbacks.js';
import type { ParquetCompression } from '../../model/formats.js';
import { CODEC_NAMES, type Compress, gzipCompress, zstdCompressor } from './codecs.js';
import type { FileOptions, ParquetFileWriter } from './parquet-file-writer.js';
import { loadWriterInternals } from './writer-internals.js';

/** What opening a file writer takes; `path` picks the public API, for its test (default: the fast path). */
export interface ParquetOpenOptions extends Omit<FileOptions, 'codec' | 'compress'> {
  compression: ParquetCompression;
  path?: 'fast' | 'public';
}

/**
 * A Parquet writer on hyparquet-writer, loaded here on first use: the fast path on its encoders
 * (writer-internals.ts), else its public ParquetWriter. Writes the leading magic at once.
 */
export async function openParquetWriter(options: ParquetOpenOptions): Promise<ParquetFileWriter> {
  const codec = CODEC_NAMES[options.compression];
  const internals = options.path === 'public' || plainFallbacks() ? undefined : await loadWriterInternals();
  const compress = await compressorFor(options.compression, internals?.snappyCompress);
  if (internals) {
    const { FastParquetWriter } = await import('./fast-writer.js');
    const writer = new FastParquetWriter(internals, { ...options, codec, compress });
    return writer;
  }
  const { PublicParquetWriter } = await import('./public-writer.js');
  return PublicParquetWriter.open({ ...options, codec, compress });
}

async function compressorFor(
  compression: ParquetCompression,
  snappy: Compress | undefined,
): Promise<Compress> {
  switch (compression) {
    case 'zstd':
      return zstdCompressor();
    case 'gzip':
      return gzipCompress;
    case 'snappy':
      // the public path compresses snappy itself
      return snappy ?? ((bytes) => bytes);
    case 'none':
      return (bytes) => bytes;
  }
}
