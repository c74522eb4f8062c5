/**
 * The one module that reaches into hyparquet-writer beyond its documented API: its thrift writers for page
 * headers and the footer, its RLE/bit-packed encoder and its snappy. Encoding typed columns with them runs
 * several times faster than the public ParquetWriter, which turns every value into a JavaScript value on
 * the way (docs/parquet.md, "Writer"). Should a release move them, loadWriterInternals() says so and
 * the public path (public-writer.ts) is used instead.
 */
import type { FileMetaData, PageHeader } from 'hyparquet';
import type { ByteWriter } from 'hyparquet-writer';

type ByteWriterClass = typeof ByteWriter;

/** hyparquet-writer's encoders the fast path uses. */
export interface WriterInternals {
  ByteWriter: ByteWriterClass;
  writePageHeader(writer: ByteWriter, header: PageHeader): void;
  writeMetadata(writer: ByteWriter, metadata: Omit<FileMetaData, 'metadata_length'>): void;
  writeRleBitPackedHybrid(writer: ByteWriter, values: ArrayLike<number>, bitWidth: number): number;
  snappyCompress(input: Uint8Array): Uint8Array;
}

let loading: Promise<WriterInternals | undefined> | undefined;

/** The internals, loaded once; undefined when this version of hyparquet-writer does not have them. */
export function loadWriterInternals(): Promise<WriterInternals | undefined> {
  loading ??= (async () => {
    try {
      const [main, datapage, metadata, encoding, snappy] = await Promise.all([
        import('hyparquet-writer'),
        import('hyparquet-writer/src/datapage.js'),
        import('hyparquet-writer/src/metadata.js'),
        import('hyparquet-writer/src/encoding.js'),
        import('hyparquet-writer/src/snappy.js'),
      ]);
      const found = {
        ByteWriter: main.ByteWriter,
        writePageHeader: datapage.writePageHeader,
        writeMetadata: metadata.writeMetadata,
        writeRleBitPackedHybrid: encoding.writeRleBitPackedHybrid,
        snappyCompress: snappy.snappyCompress,
      };
      return Object.values(found).every((f) => typeof f === 'function')
        ? (found as unknown as WriterInternals)
        : undefined;
    } catch {
      return undefined;
    }
  })();
  return loading;
}
