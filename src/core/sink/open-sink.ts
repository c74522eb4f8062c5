import { atomicFileSink, type Sink } from './atomic-file.js';
import { stdoutSink } from './stdout.js';
import { directSink, writtenPath } from './targets.js';

/** How an output is opened: the process's stdout for `-`, and what the target was found to be. */
export interface SinkOptions {
  stdout: NodeJS.WritableStream;
  /** A device, FIFO or stream named by a path (targets.ts): written directly, never replaced. */
  special?: boolean;
  fsync?: boolean;
  /** --update: bytes of the existing file kept before the new bytes. */
  keepBytes?: number;
}

/**
 * The sink of one output (issue 10, cli.md -o): `-` is stdout; a special file is written directly; any
 * other target is a temporary file renamed over it (over a link's final target, so the link stays).
 */
export async function openSink(target: string, options: SinkOptions): Promise<Sink> {
  if (target === '-') return stdoutSink(options.stdout);
  if (options.special) return directSink(target);
  return atomicFileSink(await writtenPath(target), {
    ...(options.fsync === undefined ? {} : { fsync: options.fsync }),
    ...(options.keepBytes === undefined ? {} : { keepBytes: options.keepBytes }),
  });
}
