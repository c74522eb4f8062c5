import { Transform, type TransformCallback } from 'node:stream';
import { createGunzip, createInflate, type Gunzip, type Inflate } from 'node:zlib';
import { releaseChunk } from '../buffers/chunk-pool.js';

/** Decoded bytes per chunk handed on: a sixteenth of zlib's default chunk count through every stage. */
export const DECODED_CHUNK = 256 * 1024;

/**
 * The gzip decoder's plain fallback (inflate.ts has the choice): Node's zlib stream, public API only. It
 * decodes the same bytes as the pooled decoder, with fresh output buffers. Wrapped so that each pooled
 * batch of the body goes back to the pool once zlib has read all of it (its write callback), as the
 * pooled decoder gives it back: a batch never given back would keep its slab out of reuse until a full
 * collection. Backpressure is the stream's own: zlib is paused while this stage's reader is behind, and
 * zlib inflates no further while its own output is unread.
 */
export class StreamInflate extends Transform {
  private readonly zlib: Gunzip | Inflate;
  /** The callback of the _transform or _flush waiting on zlib. */
  private waiting: TransformCallback | undefined;
  private zlibEnded = false;
  private flushing = false;

  constructor(encoding: 'gzip' | 'deflate') {
    super({ readableHighWaterMark: DECODED_CHUNK });
    this.zlib =
      encoding === 'gzip'
        ? createGunzip({ chunkSize: DECODED_CHUNK })
        : createInflate({ chunkSize: DECODED_CHUNK });
    this.zlib.on('data', (chunk: Buffer) => {
      if (!this.push(chunk)) this.zlib.pause();
    });
    // zlib ends its output early where its input goes on past the compressed stream (trailing bytes)
    this.zlib.on('end', () => {
      this.zlibEnded = true;
      if (this.flushing) this.settle();
    });
    this.zlib.on('error', (error) => this.settle(error));
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.waiting = callback;
    this.zlib.write(chunk, (error) => {
      if (error) return; // settled by the 'error' listener
      releaseChunk(chunk); // read whole: a pooled batch of the body goes back
      this.settle();
    });
  }

  override _flush(callback: TransformCallback): void {
    this.waiting = callback;
    this.flushing = true;
    // Z_FINISH: a body cut inside the compressed stream fails here ("unexpected end of file")
    if (this.zlibEnded) this.settle();
    else this.zlib.end();
  }

  override _read(size: number): void {
    this.zlib.resume();
    super._read(size);
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    this.waiting = undefined;
    this.zlib.destroy();
    callback(error);
  }

  private settle(error?: Error): void {
    const callback = this.waiting;
    this.waiting = undefined;
    if (callback) callback(error);
    else if (error) this.destroy(error);
  }
}
