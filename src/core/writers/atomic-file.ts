import { constants, fdatasync, writev } from 'node:fs';
import { copyFile, type FileHandle, open, rename, rm, truncate } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { Writable } from 'node:stream';
import { releaseChunk, releaseChunks } from '../chunk-pool.js';
import { ioError, MdgetError } from '../errors.js';
import {
  closeDirect,
  DIRECT_ALIGN,
  DirectBlocks,
  destroyedError,
  openDirect,
  releaseDirectSlot,
  takeDirectSlot,
} from './direct-writer.js';

/** Where a download goes: a writable plus the two ways it can end. */
export interface Sink {
  readonly stream: Writable;
  /** Makes the output final (file: sync, close, rename over the target). */
  commit(): Promise<void>;
  /** Drops the output (file: close, remove the temporary file); never touches the target. */
  abort(): Promise<void>;
  /** True when the reader went away (stdout EPIPE): stop quietly. */
  readonly closed: boolean;
  readonly target: string;
}

/** Writes one piece to a writable and resolves once it was accepted (rejects with its write error). */
export function writeTo(out: NodeJS.WritableStream, data: string | Buffer): Promise<void> {
  return new Promise((resolve, reject) => {
    out.write(data, (error) => (error ? reject(error) : resolve()));
  });
}

// The global Web Crypto, not node:crypto: importing that loads all of Node's crypto modules on every
// start, `--help` included (issue 12 measured ~5 ms of the single binary's start-up).
/** The temporary name beside the target, so the final rename stays on one file system and is atomic. */
export const tempPathFor = (target: string): string =>
  join(dirname(target), `.${basename(target)}.${crypto.randomUUID().slice(0, 8)}.part`);

/** Bytes gathered before one writev: large writes keep a file download near curl's speed (shared/notes). */
const COALESCE_BYTES = 1024 * 1024;

/**
 * Bytes of an output after which the rest goes past the page cache (direct-writer.ts). On this machine
 * class, cache pages the host has taken back cost the writer ~2 s of system time per GB: the 1 GB gzip
 * day's 2.9 GB of ndjson spent 5 s there (bench/README.md, "Direct writes"). Below this size the cache
 * is cheap enough and a later read finds the file there; a batch's small outputs keep one descriptor.
 */
export const DIRECT_FROM_BYTES = 128 * 1024 * 1024;

/**
 * A writable over a file descriptor that gathers chunks into writes of at least COALESCE_BYTES, through
 * fs's callback API (each FileHandle promise costs more than the write of a 64 KiB chunk; issue 9).
 * A write is acknowledged at once until a batch is full, so at most a batch waits in memory. Given
 * `directFrom` (the file's path and a size), an output past that size goes on through O_DIRECT where the
 * file system does that well (direct-writer.ts); `onWritten` hears only of bytes through the cache.
 */
export function coalescingWriter(
  fd: number,
  target: string,
  onWritten?: (bytes: number) => void,
  directFrom?: { path: string; fromBytes: number },
): Writable {
  let pending: Buffer[] = [];
  let size = 0;
  /** Bytes handed to writev so far: the file offset where the pending batch goes. */
  let position = 0;
  /** The direct path, once taken (it holds the direct descriptor and the process's direct slot). */
  let direct: DirectBlocks | undefined;
  /** The file system does not take direct writes: no second try. */
  let directUnavailable = directFrom === undefined;
  /** The writev under way: a destroy waits for it, as for direct writes, before the descriptor closes. */
  let writing: Promise<void> | undefined;
  const flush = (callback: (error?: Error | null) => void, batch = pending, bytes = size) => {
    if (batch === pending) {
      pending = [];
      size = 0;
    }
    if (bytes === 0) return callback();
    position += bytes;
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
  /**
   * With the direct slot taken: writes the pending batch up to an aligned offset, and the bytes after it
   * start the direct blocks. Resolves with whether the output went direct (else the slot is given back and
   * the output goes on as before).
   */
  const goDirect = async (): Promise<boolean> => {
    const directFd = await openDirect((directFrom as { path: string }).path);
    if (directFd === undefined) {
      directUnavailable = true;
      releaseDirectSlot();
      return false;
    }
    const end = position + size;
    const alignedEnd = end - (end % DIRECT_ALIGN);
    let blocks: DirectBlocks;
    try {
      // dropped meanwhile (abort): its descriptors are being closed, so nothing more is written
      if (stream.destroyed) throw destroyedError();
      blocks = new DirectBlocks(directFd, fd, alignedEnd, onWritten);
    } catch (error) {
      await closeDirect(directFd);
      releaseDirectSlot();
      // no memory for the blocks (a RangeError where address space is limited): the cache will do
      if (error instanceof RangeError) {
        directUnavailable = true;
        return false;
      }
      throw error;
    }
    // from here on destroy() closes the descriptor
    direct = blocks;
    const joined = Buffer.concat(pending);
    const head = joined.subarray(0, alignedEnd - position);
    releaseChunks(pending);
    pending = [];
    size = 0;
    await new Promise<void>((resolve, reject) =>
      flush((e) => (e ? reject(e) : resolve()), [head], head.length),
    );
    await blocks.take(joined.subarray(head.length));
    return true;
  };
  /** The switch under way, if any: a destroy waits for it, so it cannot leave a descriptor open. */
  let switching: Promise<boolean> | undefined;
  const settleDirect = async () => {
    await switching?.catch(() => {});
    const blocks = direct;
    direct = undefined;
    await blocks?.close();
  };
  const stream = new Writable({
    highWaterMark: COALESCE_BYTES,
    write(chunk: Buffer, _encoding, callback) {
      if (direct) {
        direct.take(chunk).then(
          () => {
            releaseChunk(chunk);
            callback();
          },
          (error: Error) => callback(ioError(error, target)),
        );
        return;
      }
      pending.push(chunk);
      size += chunk.length;
      if (size < COALESCE_BYTES) return callback();
      if (directUnavailable || position + size < (directFrom?.fromBytes ?? 0) || !takeDirectSlot())
        return flush(callback);
      switching = goDirect();
      switching.then(
        (went) => {
          if (went) callback();
          else if (stream.destroyed) callback(destroyedError());
          else flush(callback);
        },
        (error: Error) => callback(error instanceof MdgetError ? error : ioError(error, target)),
      );
    },
    final(callback) {
      if (!direct) return flush(callback);
      const blocks = direct;
      direct = undefined;
      blocks.finish().then(
        () => blocks.close().then(() => callback()),
        (error: Error) => blocks.close().then(() => callback(ioError(error, target))),
      );
    },
    destroy(error, callback) {
      Promise.all([writing, settleDirect()]).then(() => callback(error));
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
    else if (stopped()) callback(destroyedError(), rest);
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
 * Bytes written between two fdatasync calls made while the download goes on. Left to commit, the flush of
 * a 300 MiB file to disk took ~0.3 s here after the last byte had arrived; started along the way, the disk
 * works while the network does, and commit's fsync finds little left: 14-17% less time for a 300 MiB
 * download (bench/README.md, "Flushing"). 8 MiB did better than 32 MiB.
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
 * A file written under a temporary name and renamed over `target` only on commit(), so a file under its
 * final name is always complete (cli.md guarantees), also across a power loss unless fsync is turned off.
 * Chunks queued while a write is in flight go out together through writev: large writes are what keeps a
 * file download near curl's speed (shared/notes).
 */
export async function atomicFileSink(
  target: string,
  options: { fsync?: boolean; keepBytes?: number; directFromBytes?: number } = {},
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
  const stream = coalescingWriter(
    handle.fd,
    target,
    background && ((bytes) => background.wrote(bytes)),
    // --update appends to a copy: left to the page cache
    options.keepBytes === undefined
      ? { path: temp, fromBytes: options.directFromBytes ?? DIRECT_FROM_BYTES }
      : undefined,
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
    target,
    closed: false,
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
      // once closed, no write of the stream's is in flight (direct ones included) on the descriptors
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
