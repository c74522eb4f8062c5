import { Writable } from 'node:stream';
import { ioError } from '../model/errors.js';
import { type Sink, writeTo } from './atomic-file.js';

const EMPTY = Buffer.alloc(0);

/**
 * Standard output as a sink. A reader that goes away (`mdget … | head -1`: EPIPE) is a normal end: the
 * sink swallows the error, reports `closed`, and the run stops its requests and exits 0 without a word.
 * Any other write error (a full disk behind `> file`) fails the output with MDGET_IO. The process's stdout
 * is never ended, so a later message or the next output still works.
 */
export function stdoutSink(stdout: NodeJS.WritableStream): Sink {
  const state: { closed: boolean; failed?: Error } = { closed: false };
  const onError = (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE' || error.code === 'ERR_STREAM_DESTROYED') state.closed = true;
    else state.failed ??= ioError(error, 'standard output');
  };
  const stopped = () => (state.closed ? readerGone() : state.failed);
  stdout.on('error', onError);
  const stream = new Writable({
    highWaterMark: 1024 * 1024,
    write(chunk: Buffer, _encoding, callback) {
      if (stopped()) return callback(stopped());
      const ok = stdout.write(chunk, (error) => {
        if (error) onError(error as NodeJS.ErrnoException);
      });
      if (stopped()) return callback(stopped());
      if (ok) return callback();
      const resume = () => {
        stdout.off('drain', resume);
        stdout.off('error', resume);
        callback(stopped());
      };
      stdout.once('drain', resume);
      stdout.once('error', resume);
    },
  });
  // Errors are reported through write callbacks and commit(); an unheard 'error' event would crash.
  stream.on('error', () => {});
  return {
    stream,
    get closed() {
      return state.closed;
    },
    async commit() {
      if (!stream.writableFinished && !stream.destroyed) {
        await new Promise<void>((resolve) => stream.end(resolve));
      }
      // stdout's write() returns while chunks may wait in its queue (writes of the descriptor, a pipe's
      // stream): the output is committed once they have left, as a last, empty write's callback tells.
      if (!stopped()) await writeTo(stdout, EMPTY).catch(onError);
      stdout.off('error', onError);
      if (state.failed) throw state.failed;
      // a reader gone before the last bytes left: the run ends quietly, as for a failed write (output-run.ts)
      if (state.closed) throw readerGone();
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
