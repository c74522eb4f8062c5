import { Writable } from 'node:stream';

/**
 * A per-request writable in front of an output shared by several requests: the request's pipeline can end
 * and clean up its listeners without ending the output, and backpressure and write errors still pass.
 */
export function forwardTo(target: Writable): Writable {
  return new Writable({
    highWaterMark: 256 * 1024,
    write(chunk: Buffer, _encoding, callback) {
      if (target.destroyed) return callback(target.errored ?? new Error('output closed'));
      if (target.write(chunk)) return callback();
      const done = (error?: Error) => {
        target.off('drain', onDrain);
        target.off('error', done);
        target.off('close', onClose);
        callback(error);
      };
      const onDrain = () => done();
      const onClose = () => done(target.errored ?? new Error('output closed'));
      target.once('drain', onDrain);
      target.once('error', done);
      target.once('close', onClose);
    },
  });
}
