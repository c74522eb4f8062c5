import { Transform, type TransformCallback } from 'node:stream';
import { constants, createGunzip, createInflate, type Gunzip, type Inflate } from 'node:zlib';
import { releaseChunk, takeChunk, trimChunk } from '../buffers/chunk-pool.js';
import { plainFallbacks } from '../model/fallbacks.js';
import { DECODED_CHUNK, StreamInflate } from './inflate-plain.js';

export { DECODED_CHUNK } from './inflate-plain.js';

/**
 * What a zlib stream of Node's keeps for its own synchronous path (lib/zlib.js, processChunkSync, the same
 * in Node 20 to 24): the native handle, whose writeSync inflates into the output buffer it is given, and
 * the two counts it leaves (output room left, input left).
 */
interface ZlibInternals {
  _handle?: {
    writeSync(
      flush: number,
      input: Uint8Array,
      inputOffset: number,
      inputLength: number,
      output: Uint8Array,
      outputOffset: number,
      outputLength: number,
    ): void;
  };
  _writeState?: Uint32Array;
}

const EMPTY = Buffer.alloc(0);

/**
 * The body's decoder for gzip or deflate. The fast path inflates into chunks of the chunk pool
 * (chunk-pool.ts), on the main thread: Node's zlib stream allocates a fresh buffer for each 256 KiB of
 * output, and V8 frees dead buffers late, so that garbage set the download's peak memory
 * (docs/internals.md#the-pooled-gzip-decoder). Its native handle takes the output buffer from its caller,
 * as Node's own synchronous API uses it. The one place the decoder is chosen: Node's zlib stream
 * (inflate-plain.ts), which decodes the same bytes, when the switch asks for it (fallbacks.ts) or where a
 * Node version's zlib lacks that handle.
 */
export function inflater(encoding: 'gzip' | 'deflate', zlib?: Gunzip | Inflate): Transform {
  if (plainFallbacks()) {
    zlib?.close();
    return new StreamInflate(encoding);
  }
  const stream = zlib ?? (encoding === 'gzip' ? createGunzip() : createInflate());
  const internals = stream as unknown as ZlibInternals;
  if (typeof internals._handle?.writeSync !== 'function' || !(internals._writeState instanceof Uint32Array)) {
    stream.close();
    return new StreamInflate(encoding);
  }
  return new PooledInflate(stream, internals._handle, internals._writeState);
}

/**
 * Decoded output gathers in a pooled chunk until it is full (or the body ends), so a body that arrives in
 * 16 KiB pieces still goes on in 256 KiB chunks. The reader releases each chunk once it is done with it.
 * A piece whose output fills chunks faster than the reader takes them is inflated no further until the
 * reader asks (_read): one 256 KiB batch of deflate can decode to 256 MB.
 */
class PooledInflate extends Transform {
  private out: Buffer | undefined;
  private filled = 0;
  /** The input being inflated, and what to do once all of it is: set while the reader is behind. */
  private work: { input: Buffer; offset: number; flush: number; done: (error?: Error) => void } | undefined;
  private inflating = false;
  private wanted = false;

  constructor(
    private readonly zlib: Gunzip | Inflate,
    private readonly handle: NonNullable<ZlibInternals['_handle']>,
    private readonly state: Uint32Array,
  ) {
    super({ readableHighWaterMark: DECODED_CHUNK });
    // A failed write destroys the zlib stream with its error (Node's zlibOnError): read back from
    // `errored` right after the write; the 'error' it emits later has nobody else to reach.
    zlib.on('error', () => {});
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.start(chunk, constants.Z_NO_FLUSH, (error) => {
      if (!error) releaseChunk(chunk); // read whole: a pooled batch of the body goes back
      callback(error);
    });
  }

  override _flush(callback: TransformCallback): void {
    // Z_FINISH: a body cut inside the compressed stream fails here ("unexpected end of file")
    this.start(EMPTY, constants.Z_FINISH, (error) => {
      if (!error) {
        const rest = this.out;
        this.out = undefined;
        if (rest && this.filled > 0) this.push(trimChunk(rest, this.filled));
        else if (rest) releaseChunk(rest);
        this.zlib.close();
      }
      callback(error);
    });
  }

  override _read(size: number): void {
    if (this.inflating) {
      this.wanted = true; // asked from inside a push: answered once the loop is out
      return;
    }
    if (this.work) this.inflate();
    // Once the input is all taken, Transform's own _read lets the next one in: a read that ended the
    // input without a push (the last output fit in the chunk being filled) would wait for it forever.
    if (!this.work) super._read(size);
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    this.work = undefined;
    if (this.out) releaseChunk(this.out);
    this.out = undefined;
    this.zlib.close();
    callback(error);
  }

  private start(input: Buffer, flush: number, done: (error?: Error) => void): void {
    this.work = { input, offset: 0, flush, done };
    this.inflate();
  }

  /** Inflates the work's input until all of it is taken, or until the reader is a chunk behind. */
  private inflate(): void {
    const work = this.work as NonNullable<typeof this.work>;
    this.inflating = true;
    try {
      for (;;) {
        this.out ??= takeChunk(DECODED_CHUNK);
        const room = this.out.length - this.filled;
        const left = work.input.length - work.offset;
        this.handle.writeSync(work.flush, work.input, work.offset, left, this.out, this.filled, room);
        if (this.zlib.errored) throw this.zlib.errored;
        const [roomAfter, leftAfter] = this.state as unknown as [number, number];
        this.filled += room - roomAfter;
        work.offset += left - leftAfter;
        if (roomAfter !== 0) break; // all the input taken and no more output for now
        const full = this.out;
        this.out = undefined; // handed on: never given back from here, even if the reader throws
        this.filled = 0;
        if (!this.push(full)) {
          if (this.destroyed) return;
          // _read resumes; unless the reader already asked while push ran
          if (this.readableLength >= this.readableHighWaterMark) return;
        }
      }
    } catch (error) {
      this.work = undefined;
      work.done(error as Error);
      return;
    } finally {
      this.inflating = false;
      if (this.wanted) {
        this.wanted = false;
        process.nextTick(() => this._read(this.readableHighWaterMark));
      }
    }
    this.work = undefined;
    work.done();
  }
}
