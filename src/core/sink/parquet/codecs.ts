import * as zlib from 'node:zlib';
import type { ParquetCompression } from '../../model/formats.js';

/** A page compressor: bytes in, compressed bytes out. */
export type Compress = (bytes: Uint8Array) => Uint8Array;

/** The codec names of the Parquet footer. */
export const CODEC_NAMES = {
  zstd: 'ZSTD',
  snappy: 'SNAPPY',
  gzip: 'GZIP',
  none: 'UNCOMPRESSED',
} as const satisfies Record<ParquetCompression, string>;

/** zstd's default level: level 3 wrote ticks 3.1x smaller than csv.gz at about gzip level 4's speed. */
const ZSTD_LEVEL = 3;

type ZlibWithZstd = typeof zlib & {
  zstdCompressSync?: (bytes: Uint8Array, options: { params: Record<number, number> }) => Buffer;
};

interface ZstdWasm {
  compress(bytes: Uint8Array, level: number): Uint8Array;
  decompress(bytes: Uint8Array): Uint8Array;
}

let wasm: Promise<ZstdWasm> | undefined;

/** The wasm zstd, loaded and initialised once per process (a second init() corrupted frames). */
function loadWasm(): Promise<ZstdWasm> {
  wasm ??= (async () => {
    const module = await import('@bokuweb/zstd-wasm');
    await module.init();
    return module;
  })();
  return wasm;
}

/**
 * zstd from node:zlib where Node has it (22.15 and later), else from @bokuweb/zstd-wasm, loaded only
 * then: Node 20's zlib has no zstd.
 */
export async function zstdCompressor(): Promise<Compress> {
  const native = (zlib as ZlibWithZstd).zstdCompressSync;
  if (native) {
    const level = (zlib.constants as unknown as Record<string, number>).ZSTD_c_compressionLevel!;
    const params = { [level]: ZSTD_LEVEL };
    return (bytes) => native(bytes, { params });
  }
  const loaded = await loadWasm();
  return (bytes) => loaded.compress(bytes, ZSTD_LEVEL);
}

/** gzip at level 4, as mdget's .gz outputs (gzip-sink.ts). */
export const gzipCompress: Compress = (bytes) => zlib.gzipSync(bytes, { level: 4 });

/** A page decompressor as hyparquet takes it. */
export type Decompress = (bytes: Uint8Array, outputLength: number) => Uint8Array;

/**
 * Decompressors for reading a Parquet file back (--update): zstd from node:zlib or the same wasm package,
 * gzip from node:zlib; hyparquet has snappy itself.
 */
export async function decompressors(): Promise<Record<'ZSTD' | 'GZIP', Decompress>> {
  const native = (zlib as typeof zlib & { zstdDecompressSync?: (bytes: Uint8Array) => Buffer })
    .zstdDecompressSync;
  let zstd: Decompress;
  if (native) zstd = (bytes) => native(bytes);
  else {
    const loaded = await loadWasm();
    zstd = (bytes) => loaded.decompress(bytes);
  }
  return { ZSTD: zstd, GZIP: (bytes) => zlib.gunzipSync(bytes) };
}
