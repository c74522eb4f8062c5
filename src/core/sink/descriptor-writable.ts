import { Writable } from 'node:stream';
import { releaseChunks } from '../buffers/chunk-pool.js';
import { writeAll } from './atomic-file.js';

/**
 * Standard output written through its descriptor. Chunks queued while a write is in flight go out together
 * in one writev through the thread pool, so decoding goes on while the reader (`| cat`, `| gzip`) empties
 * the pipe. Node's process.stdout writes a pipe synchronously, one chunk at a time, and nothing
 * else runs while the reader empties the pipe (bench/README.md#writing-to-a-pipe). A descriptor that
 * would block (EAGAIN: a non-blocking pipe or socket, as a parent process may hand one down) is left to
 * `fallback()`, the process's own stream, from then on.
 */
export class DescriptorWritable extends Writable {
  private stream: NodeJS.WritableStream | undefined;

  constructor(
    private readonly fd: number,
    private readonly fallback: () => NodeJS.WritableStream,
  ) {
    super({ highWaterMark: 1024 * 1024 });
    // A sink hears a failure through its write callbacks and its own listener. Writes still queued when
    // a sink was aborted (Ctrl-C on `| cat`) may fail after it stopped listening: no crash for those.
    this.on('error', () => {});
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    this.send([chunk], callback);
  }

  override _writev(chunks: { chunk: Buffer }[], callback: (error?: Error | null) => void): void {
    this.send(
      chunks.map(({ chunk }) => chunk),
      callback,
    );
  }

  private send(buffers: Buffer[], callback: (error?: Error | null) => void): void {
    if (this.stream) {
      this.sendToStream(this.stream, buffers, callback);
      return;
    }
    writeAll(
      this.fd,
      buffers,
      () => this.destroyed,
      (error, rest) => {
        if (!error) releaseChunks(buffers);
        if (error?.code !== 'EAGAIN' || !rest) return callback(error);
        this.stream = this.fallback();
        this.sendToStream(this.stream, rest, callback);
      },
    );
  }

  /** Writes to the stream, calling back once its last write is done: the stream's own pace is kept. */
  private sendToStream(
    stream: NodeJS.WritableStream,
    buffers: Buffer[],
    callback: (error?: Error | null) => void,
  ): void {
    const last = buffers.length - 1;
    buffers.forEach((buffer, i) => {
      if (i < last) stream.write(buffer);
      else stream.write(buffer, (error) => callback(error ?? null));
    });
  }
}
