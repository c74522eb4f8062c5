import type { OutputRef } from '../plan/planned-request.js';
import { atomicFileSink, type Sink } from './atomic-file.js';
import { stdoutSink } from './stdout.js';
import { directSink, writtenPath } from './targets.js';

/** How an output is opened: the run's stream, and what the file was found to be. */
export interface SinkOptions {
  stdout: NodeJS.WritableStream;
  /** A device, FIFO or stream named by a path (targets.ts): written directly, never replaced. */
  special?: boolean;
  fsync?: boolean;
  /** --update: bytes of the existing file kept before the new bytes. */
  keepBytes?: number;
}

/**
 * The sink of one output: the run's stream; a special file written directly; any other file a temporary
 * file renamed over it (over a link's final target, so the link stays).
 */
export async function openSink(output: OutputRef, options: SinkOptions): Promise<Sink> {
  if (output.kind === 'stream') return stdoutSink(options.stdout);
  if (options.special) return directSink(output.path);
  return atomicFileSink(await writtenPath(output.path), {
    ...(options.fsync === undefined ? {} : { fsync: options.fsync }),
    ...(options.keepBytes === undefined ? {} : { keepBytes: options.keepBytes }),
  });
}
