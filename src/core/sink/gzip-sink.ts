import { once } from 'node:events';
import { Writable } from 'node:stream';
import { constants, createGzip } from 'node:zlib';
import { releaseChunk } from '../buffers/chunk-pool.js';
import type { Sink } from './atomic-file.js';

/**
 * A sink that gzips what it is given into another: `.gz` outputs stay atomic, since the file
 * sink below still renames only on commit. Level 4: ticks csv compresses ~7:1 there at several times
 * the speed of the default level 6, on a path that must keep up with the network.
 */
export function gzipSink(inner: Sink): Sink {
  const gzip = createGzip({ level: 4, chunkSize: 256 * 1024, flush: constants.Z_NO_FLUSH });
  gzip.pipe(inner.stream, { end: false });
  gzip.on('error', () => {}); // reported through the writes that fail and commit()
  // A chunk goes in once gzip has taken the one before: the write's callback says gzip is done with its
  // bytes, so a pooled chunk goes back to the pool (chunk-pool.ts) instead of waiting as garbage.
  const input = new Writable({
    highWaterMark: 256 * 1024,
    write(chunk: Buffer, _encoding, callback) {
      gzip.write(chunk, (error) => {
        if (!error) releaseChunk(chunk);
        callback(error ?? null);
      });
    },
    final(callback) {
      gzip.end();
      callback();
    },
  });
  input.on('error', () => {});
  return {
    stream: input,
    get closed() {
      return inner.closed;
    },
    written: () => inner.written?.(),
    async commit() {
      const ended = once(gzip, 'end');
      input.end();
      await ended;
      await inner.commit();
    },
    async abort() {
      input.destroy();
      gzip.destroy();
      await inner.abort();
    },
  };
}
