import { Readable } from 'node:stream';
import type { Dispatcher } from 'undici';
import { takeChunk } from '../buffers/chunk-pool.js';

/** A response as it starts: status, headers (lower-case names) and the body still arriving. */
export interface StartedResponse {
  statusCode: number;
  headers: Record<string, string | string[] | undefined>;
  body: Readable;
  /** Bytes of the body received so far, as sent (compressed for gzip): for progress. */
  received(): number;
}

/** Bytes queued before undici is paused; it resumes only once the queue is empty. */
const QUEUE_BYTES = 1024 * 1024;
/**
 * Queued chunks are handed on in batches of up to this many bytes, joined in a pooled chunk (chunk-pool.ts)
 * that its reader gives back: a gzip body arrives in pieces of ~16 KiB and a plain one in the socket's
 * 64 KiB reads, and each piece handed on alone costs every stage a call (with Node's zlib stream, a trip
 * to the thread pool: 20 % slower). A chunk larger than a batch goes on as it is.
 */
const BATCH_BYTES = 256 * 1024;

/**
 * GET `url` through undici's dispatch(): the body's chunks reach a queue as undici parses them, with no
 * stream of undici's in between. undici is paused when the queue holds QUEUE_BYTES and resumed only when it
 * is empty, so each resume parses a large batch. Resumed for every chunk read instead, llhttp re-read its
 * whole socket buffer for each small chunk of a gzip body: quadratic copying (bench/undici-backpressure.md,
 * docs/internals.md#the-undici-dispatch-handler). Destroying the body aborts the request, which frees the
 * socket.
 */
export function dispatchGet(
  url: URL,
  dispatcher: Dispatcher,
  options: { headers: Record<string, string>; signal?: AbortSignal },
): Promise<StartedResponse> {
  return new Promise((resolve, reject) => {
    let body: QueuedBody | undefined;
    let controller: Dispatcher.DispatchController | undefined;
    const { signal } = options;
    const onAbort = () => controller?.abort(signal?.reason ?? new Error('aborted'));
    const settle = () => signal?.removeEventListener('abort', onAbort);
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    signal?.addEventListener('abort', onAbort, { once: true });
    dispatcher.dispatch(
      { origin: url.origin, path: `${url.pathname}${url.search}`, method: 'GET', headers: options.headers },
      {
        onRequestStart(started) {
          controller = started;
          if (signal?.aborted) onAbort();
        },
        onResponseStart(started, statusCode, headers) {
          const queued = new QueuedBody(started);
          body = queued;
          resolve({
            statusCode,
            headers: headers as StartedResponse['headers'],
            body: queued,
            received: () => queued.received,
          });
        },
        onResponseData(_controller, chunk) {
          body?.feed(chunk);
        },
        onResponseEnd() {
          settle();
          body?.finish();
        },
        onResponseError(_controller, error) {
          settle();
          if (body) body.destroy(error);
          else reject(error);
        },
      },
    );
  });
}

/** The body: a Readable over the chunk queue, pausing and resuming undici with hysteresis. */
class QueuedBody extends Readable {
  private readonly queue: Buffer[] = [];
  private queued = 0;
  private paused = false;
  private wanted = false;
  private ended = false;
  /** Bytes fed so far. */
  received = 0;

  constructor(private readonly controller: Dispatcher.DispatchController) {
    super({ highWaterMark: 64 * 1024 });
  }

  /**
   * A chunk from undici, queued. A waiting reader is served on the next tick, never from inside undici's
   * callback: resumed in the middle of its parse loop, undici stays paused for good.
   */
  feed(chunk: Buffer): void {
    this.received += chunk.length;
    this.queue.push(chunk);
    this.queued += chunk.length;
    if (this.wanted) {
      this.wanted = false;
      process.nextTick(() => this._read());
    }
    if (this.queued >= QUEUE_BYTES && !this.paused) {
      this.paused = true;
      this.controller.pause();
    }
  }

  finish(): void {
    this.ended = true;
    if (this.wanted) {
      this.wanted = false;
      process.nextTick(() => this._read());
    }
  }

  override _read(): void {
    if (this.destroyed) return;
    const batch = this.nextBatch();
    if (batch) this.push(batch);
    else if (this.ended) {
      this.push(null);
      return;
    } else this.wanted = true;
    if (this.queue.length === 0 && this.paused) {
      this.paused = false;
      this.controller.resume();
    }
  }

  /** The next queued chunk, or several small ones joined into one batch. */
  private nextBatch(): Buffer | undefined {
    if (this.queue.length === 0) return undefined;
    let size = 0;
    let count = 0;
    while (count < this.queue.length && size + this.queue[count]!.length <= BATCH_BYTES) {
      size += this.queue[count]!.length;
      count++;
    }
    const batch = this.queue.splice(0, Math.max(count, 1));
    const bytes = batch.length === 1 ? batch[0]! : joined(batch, size);
    this.queued -= bytes.length;
    return bytes;
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    if (!this.ended) this.controller.abort(error ?? new Error('body closed before its end'));
    callback(error);
  }
}

/** `pieces` copied into one pooled chunk (chunk-pool.ts), which its reader gives back once read. */
function joined(pieces: readonly Buffer[], size: number): Buffer {
  const bytes = takeChunk(size);
  let at = 0;
  for (const piece of pieces) at += piece.copy(bytes, at);
  return bytes;
}
