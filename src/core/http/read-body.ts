import { pipeline as pipe, type Readable, Transform } from 'node:stream';
import { finished } from 'node:stream/promises';
import { isMdgetError } from '../model/errors.js';
import { bodyError } from './decode.js';
import { type BodyKind, refuseHtmlStart } from './html-page.js';
import type { BodySource } from './open-body.js';

/**
 * A body opened by openBody as one stream for a parser that iterates it (the reference commands), with the
 * first transport failure kept: a socket or gzip failure also breaks the JSON or XML read from it, and that
 * cause is what to report, not "malformed". A parser failing on good bytes destroys the stages with its own
 * error, which is no transport failure.
 */
export interface ReadBody {
  stream: Readable;
  /** Resolves once every stage has ended cleanly; rejects with the first failure. */
  settled(): Promise<void>;
  /** The error to report for a failed read: the transport failure if there was one, else `error`. */
  errorFor(error: unknown): unknown;
}

/**
 * The stages of `source`, `onBytes` told the bytes received so far, then the check that the decoded body
 * is no HTML page (html-page.ts), piped into one stream.
 */
export function readBody(
  source: BodySource,
  kind: BodyKind,
  url: URL,
  secrets: readonly (string | undefined)[] = [],
  onBytes?: (bytes: number) => void,
): ReadBody {
  let failure: unknown;
  const [raw, ...decoding] = source.stages as [Readable, ...Readable[]];
  // Counted as they arrive, before decoding: with a Content-Length the progress shows a share of it.
  const stages: Readable[] = [raw, ...(onBytes ? [countBytes(onBytes)] : []), ...decoding];
  stages.push(refuseHtmlStart(kind, url, secrets));
  // Every stage keeps a listener of its own: a decoder failing after its reader stopped (a gzip trailer
  // missing at the very end) must neither crash the process nor go unnoticed.
  for (const stage of stages) stage.on('error', (error) => (failure ??= error));
  const ignore = () => {};
  let stream = stages[0] as Readable;
  for (const stage of stages.slice(1)) stream = pipe(stream, stage as Transform, ignore);
  const last = stream;
  return {
    stream: last,
    settled: async () => {
      await finished(last).catch(() => {});
      if (failure !== undefined) throw failure;
    },
    errorFor: (error) => {
      const transport = failure === undefined ? undefined : bodyError(failure, url, secrets);
      return isMdgetError(transport) ? transport : bodyError(error, url, secrets);
    },
  };
}

/** The items a parser yields from `body`, with a failure reported as `body.errorFor` says. */
export async function* guarded<T>(items: AsyncIterable<T>, body: ReadBody): AsyncGenerator<T> {
  try {
    yield* items;
    // Before the writer's loop ends and it commits: a body cut after the last item is still truncated.
    await body.settled();
  } catch (error) {
    throw body.errorFor(error);
  }
}

function countBytes(onBytes: (bytes: number) => void): Transform {
  let bytes = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      bytes += chunk.length;
      onBytes(bytes);
      callback(null, chunk);
    },
  });
}
