import { createHash, type Hash } from 'node:crypto';
import { constants, fdatasync, writev } from 'node:fs';
import { copyFile, type FileHandle, open, rename, rm, truncate } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { Writable } from 'node:stream';
import { releaseChunks } from '../buffers/chunk-pool.js';
import { ioError, MdgetError } from '../model/errors.js';

/** Where a download goes: a writable plus the two ways it can end. */
export interface Sink {
  readonly stream: Writable;
  /** Makes the output final (file: sync, close, rename over the target). */
  commit(): Promise<void>;
  /** Drops the output (file: close, remove the temporary file); never touches the target. */
  abort(): Promise<void>;
  /** True when the reader went away (stdout EPIPE): stop quietly. */
  readonly closed: boolean;
  /**
   * After commit: the size and SHA-256 of the file, when the sink wrote every byte of it (not an --update
   * copy), so the file need not be read back to be remembered.
   */
  written?(): FileDigest | undefined;
}

/** A file's size and SHA-256 (hex). */
export interface FileDigest {
  bytes: number;
  sha256: string;
}

/** The error of a write stopped because its output was dropped. */
const abandonedError = (): Error =>
  Object.assign(new Error('output abandoned'), { code: 'ERR_STREAM_DESTROYED' });

/** Writes one piece to a writable and resolves once it was accepted (rejects with its write error). */
export function writeTo(out: NodeJS.WritableStream, data: string | Buffer): Promise<void> {
  return new Promise((resolve, reject) => {
    out.write(data, (error) => (error ? reject(error) : resolve()));
  });
}

/**
 * Resolves once `into` takes more; rejects when it broke, also before this wait: a write the file writer
 * had acknowledged may fail later (a full disk), and a broken stream sends no 'drain' again.
 */
export function drained(into: Writable): Promise<void> {
  return new Promise((resolve, reject) => {
    const broken = () => into.errored ?? new Error('the output was closed');
    if (into.destroyed) return reject(broken());
    const settle = (error?: Error) => {
      into.off('drain', onDrain);
      into.off('close', onClose);
      if (error) reject(error);
      else resolve();
    };
    const onDrain = () => settle();
    const onClose = () => settle(broken());
    into.on('drain', onDrain);
    into.on('close', onClose);
  });
}

// The global Web Crypto, not node:crypto: importing that loads all of Node's crypto modules on every
// start, `--help` included.
/** The temporary name beside the target, so the final rename stays on one file system and is atomic. */
export const tempPathFor = (target: string): string =>
  join(dirname(target), `.${basename(target)}.${crypto.randomUUID().slice(0, 8)}.part`);

/** Bytes gathered before one writev: large writes keep a file download near curl's speed. */
const COALESCE_BYTES = 1024 * 1024;

/**
 * A writable over a file descriptor that gathers chunks into writes of at least COALESCE_BYTES, through
 * fs's callback API (each FileHandle promise costs more than the write of a 64 KiB chunk). A write is
 * acknowledged at once until a batch is full, so at most a batch waits in memory.
 */
export function coalescingWriter(
  fd: number,
  target: string,
  onWritten?: (bytes: number) => void,
  hash?: Hash,
): Writable {
  let pending: Buffer[] = [];
  let size = 0;
  /** The writev under way: a destroy waits for it before the descriptor closes. */
  let writing: Promise<void> | undefined;
  const flush = (callback: (error?: Error | null) => void) => {
    const batch = pending;
    const bytes = size;
    pending = [];
    size = 0;
    if (bytes === 0) return callback();
    // hashed as it goes out, in file order: the pool takes the chunks back once written
    if (hash) for (const chunk of batch) hash.update(chunk);
    writing = new Promise((resolve) =>
      writeAll(
        fd,
        batch,
        () => stream.destroyed,
        (error) => {
          resolve();
          if (!error) {
            releaseChunks(batch);
            onWritten?.(bytes);
          }
          callback(error ? ioError(error, target) : null);
        },
      ),
    );
  };
  const stream = new Writable({
    highWaterMark: COALESCE_BYTES,
    write(chunk: Buffer, _encoding, callback) {
      pending.push(chunk);
      size += chunk.length;
      if (size < COALESCE_BYTES) return callback();
      flush(callback);
    },
    final(callback) {
      flush(callback);
    },
    destroy(error, callback) {
      // the descriptor's number may name another file once closed: no writev may still be on its way
      void (writing ?? Promise.resolve()).then(() => callback(error));
    },
  });
  return stream;
}

/**
 * Writes every byte of `buffers` to `fd` (a short writev is continued), then calls back; on a failure,
 * with the bytes not written yet. A writer stopped in the meantime (an aborted output, its descriptor
 * closed or about to be) gets no further writev: the descriptor's number may already name another file.
 */
export function writeAll(
  fd: number,
  buffers: Buffer[],
  stopped: () => boolean,
  callback: (error?: NodeJS.ErrnoException | null, rest?: Buffer[]) => void,
): void {
  writev(fd, buffers, (error, written) => {
    if (error) return callback(error, buffers);
    const rest = unwritten(buffers, written);
    if (rest.length === 0) callback();
    else if (stopped()) callback(abandonedError(), rest);
    else writeAll(fd, rest, stopped, callback);
  });
}

/** What a writev of `buffers` that wrote `written` bytes left to write. */
function unwritten(buffers: readonly Buffer[], written: number): Buffer[] {
  let left = written;
  const rest: Buffer[] = [];
  for (const buffer of buffers) {
    if (left >= buffer.length) left -= buffer.length;
    else {
      rest.push(buffer.subarray(left));
      left = 0;
    }
  }
  return rest;
}

/**
 * Bytes written between two fdatasync calls made while the download goes on: the disk works while the
 * network does, and commit's fsync finds little left (bench/README.md#writing-files).
 */
const SYNC_EVERY_BYTES = 8 * 1024 * 1024;

/** fdatasync in the background, one at a time, every SYNC_EVERY_BYTES written; the first failure kept. */
export class BackgroundSync {
  private unsynced = 0;
  private running: Promise<void> | undefined;
  private failure: Error | undefined;
  private stopped = false;

  constructor(private readonly fd: number) {}

  wrote(bytes: number): void {
    this.unsynced += bytes;
    if (this.stopped || this.unsynced < SYNC_EVERY_BYTES || this.running) return;
    this.unsynced = 0;
    this.running = new Promise((resolve) =>
      fdatasync(this.fd, (error) => {
        // An fsync failure may clear the error state (Linux): a later fsync succeeding proves nothing.
        if (error) this.failure ??= error;
        this.running = undefined;
        resolve();
      }),
    );
  }

  /**
   * Starts no sync from now on, then waits for the one in flight: the descriptor must stay open until then
   * (a write still finishing after an abort would otherwise start one on a closed, or reused, descriptor).
   * Throws the first failure.
   */
  async settle(): Promise<void> {
    this.stopped = true;
    await this.running;
    if (this.failure) throw this.failure;
  }
}

/**
 * A file written under a temporary name and renamed over `target` only on commit(), so a file under its final
 * name is always complete (docs/cli.md#guarantees), also across a power loss unless fsync is turned off.
 * Chunks queued while a write is in flight go out together through writev: large writes are what keeps a file
 * download near curl's speed (bench/README.md#writing-files).
 */
export async function atomicFileSink(
  target: string,
  options: { fsync?: boolean; keepBytes?: number } = {},
): Promise<Sink> {
  const fsync = options.fsync ?? true;
  const temp = tempPathFor(target);
  let handle: FileHandle;
  try {
    if (options.keepBytes === undefined) {
      handle = await open(temp, 'wx', 0o644);
    } else {
      // --update: the new rows follow the first bytes of the existing file, in a copy renamed over it.
      await copyFile(target, temp, constants.COPYFILE_EXCL);
      await truncate(temp, options.keepBytes);
      handle = await open(temp, 'a');
    }
  } catch (error) {
    await rm(temp, { force: true }).catch(() => {});
    throw ioError(error, target);
  }
  let done = false;
  const background = fsync ? new BackgroundSync(handle.fd) : undefined;
  // an --update copy holds bytes this sink never saw: its digest is read back from the file instead
  const hash = options.keepBytes === undefined ? createHash('sha256') : undefined;
  let bytes = 0;
  let digest: FileDigest | undefined;
  const stream = coalescingWriter(
    handle.fd,
    target,
    (n) => {
      bytes += n;
      background?.wrote(n);
    },
    hash,
  );
  // Write errors reach the writer through its callbacks; keep the first for commit() and never let an
  // 'error' event go unheard (that would crash the process).
  let failure: Error | undefined;
  stream.on('error', (error) => {
    failure ??= error;
  });
  const settled = () =>
    new Promise<void>((resolve, reject) => {
      if (failure || stream.destroyed) return reject(failure ?? ioError(new Error('closed early'), target));
      if (stream.writableFinished) return resolve();
      stream.once('finish', resolve);
      stream.once('error', reject);
      stream.end();
    });
  return {
    stream,
    closed: false,
    written: () => digest,
    async commit() {
      if (done) return;
      done = true;
      try {
        await settled();
        await background?.settle();
        // Without fsync a power loss right after the rename can leave a short file under the final name.
        if (fsync) await handle.sync();
        await handle.close();
        await rename(temp, target);
        if (hash) digest = { bytes, sha256: hash.digest('hex') };
      } catch (error) {
        await background?.settle().catch(() => {});
        await handle.close().catch(() => {});
        await rm(temp, { force: true });
        throw error instanceof MdgetError ? error : ioError(error, target);
      }
    },
    async abort() {
      if (done) return;
      done = true;
      // once closed, no write of the stream's is in flight on the descriptor
      if (!stream.closed) {
        await new Promise<void>((resolve) => {
          stream.once('close', () => resolve());
          stream.destroy();
        });
      }
      await background?.settle().catch(() => {});
      await handle.close().catch(() => {});
      await rm(temp, { force: true });
    },
  };
}
