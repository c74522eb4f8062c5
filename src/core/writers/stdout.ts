import { Writable } from 'node:stream';
import type { Sink } from './atomic-file.js';

/**
 * Standard output as a sink. A reader that goes away (`mdget … | head -1`: EPIPE) is a normal end: the
 * sink swallows the error, reports `closed`, and the run stops its requests and exits 0 without a word.
 * The process's stdout is never ended, so a later message or the next output still works.
 */
export function stdoutSink(stdout: NodeJS.WritableStream): Sink {
  const state = { closed: false };
  const onError = (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE' || error.code === 'ERR_STREAM_DESTROYED') state.closed = true;
  };
  stdout.on('error', onError);
  const stream = new Writable({
    highWaterMark: 1024 * 1024,
    write(chunk: Buffer, _encoding, callback) {
      if (state.closed) return callback(readerGone());
      const ok = stdout.write(chunk, (error) => {
        if (error) onError(error as NodeJS.ErrnoException);
      });
      if (state.closed) return callback(readerGone());
      if (ok) return callback();
      const resume = () => {
        stdout.off('drain', resume);
        stdout.off('error', resume);
        callback(state.closed ? readerGone() : undefined);
      };
      stdout.once('drain', resume);
      stdout.once('error', resume);
    },
  });
  return {
    stream,
    target: '-',
    get closed() {
      return state.closed;
    },
    async commit() {
      if (!stream.writableFinished) {
        await new Promise<void>((resolve) => stream.end(resolve));
      }
      stdout.off('error', onError);
    },
    async abort() {
      stream.destroy();
      stdout.off('error', onError);
    },
  };
}

/** The error that stops a pipeline once the reader of stdout is gone; the run ends quietly on it. */
function readerGone(): Error {
  return Object.assign(new Error('stdout closed by its reader'), { code: 'EPIPE' });
}
