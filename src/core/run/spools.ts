import { setMaxListeners } from 'node:events';
import { type FileHandle, open, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { BodySource } from '../http/open-body.js';
import { coalescingWriter } from '../sink/atomic-file.js';

/**
 * Bodies of one output fetched ahead of their turn, so its requests overlap on the network while their
 * bytes still reach the output in order (--concurrency). A spool file is created in `dir` (beside the
 * output, or --temp-dir: the system temp directory is RAM on many machines) and unlinked at once:
 * its bytes live only as long as its handle, so nothing is left behind whatever happens to the process.
 * Checks run when a spooled body is read, in its turn.
 */
export class Spools<T> {
  private readonly pending = new Map<T, Promise<FileHandle>>();
  /** Made with the first read-ahead: most outputs are one request and never read ahead. */
  private stopper: { controller: AbortController; signal: AbortSignal } | undefined;

  constructor(
    private readonly dir: string,
    private readonly ahead: number,
    private readonly open: (item: T, signal: AbortSignal) => Promise<BodySource>,
    private readonly onBytes: (item: T, bytes: number, source: BodySource) => void,
    private readonly parent: AbortSignal | undefined,
  ) {}

  /** Aborts with the run, or when the spools are disposed. */
  private get signal(): AbortSignal {
    if (!this.stopper) {
      const controller = new AbortController();
      const signal = this.parent ? AbortSignal.any([this.parent, controller.signal]) : controller.signal;
      // every request of the output waits on it, some in the rate limiter: more than Node's 10 is normal
      setMaxListeners(0, signal);
      this.stopper = { controller, signal };
    }
    return this.stopper.signal;
  }

  /** The spooled body of `item`, if it was read ahead. */
  bodyOf(item: T): Promise<BodySource> | undefined {
    const spooled = this.pending.get(item);
    return spooled?.then((handle) => ({ stages: [handle.createReadStream({ start: 0 })], wire: () => 0 }));
  }

  /** Starts reading ahead the items after `index` (after the request of `items[index]` went out). */
  readAhead(items: readonly T[], index: number): void {
    for (let next = index + 1; next <= index + this.ahead && next < items.length; next++)
      this.start(items[next]!);
  }

  /** Frees the spool of an item that was written (its reader closed itself at the end of the bytes). */
  async done(item: T): Promise<void> {
    const spooled = this.pending.get(item);
    if (!spooled) return;
    this.pending.delete(item);
    await (await spooled).close().catch(() => {});
  }

  /** Stops downloads still running and frees every spool. */
  async dispose(): Promise<void> {
    this.stopper?.controller.abort();
    const handles = await Promise.allSettled(this.pending.values());
    this.pending.clear();
    for (const handle of handles)
      if (handle.status === 'fulfilled') await handle.value.close().catch(() => {});
  }

  private start(item: T): void {
    if (this.pending.has(item)) return;
    const spooled = this.spool(item);
    spooled.catch(() => {}); // read when its turn comes; until then a failure must not go unhandled
    this.pending.set(item, spooled);
  }

  /**
   * Downloads one body into an unlinked file; resolves with a handle to read it from the start. The file
   * is made once the response has come, so a read-ahead waiting for a request slot holds no descriptor.
   */
  private async spool(item: T): Promise<FileHandle> {
    const source = await this.open(item, this.signal);
    const path = join(this.dir, `.mdget-spool-${crypto.randomUUID().slice(0, 8)}`);
    let writer: FileHandle | undefined;
    let reader: FileHandle | undefined;
    try {
      writer = await open(path, 'wx', 0o600);
      reader = await open(path, 'r');
      // Unlinked while open (POSIX): the space is freed when both handles close, even on kill -9.
      await rm(path, { force: true }).catch(() => {});
      let bytes = 0;
      const count = new PassThrough();
      count.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
        this.onBytes(item, bytes, source);
      });
      // The file writer gives the decoder's pooled chunks back once written (chunk-pool.ts).
      await pipeline([...source.stages, count, coalescingWriter(writer.fd, path)], { signal: this.signal });
      await writer.close();
      return reader;
    } catch (error) {
      // a body never read holds its request slot: let it go
      source.stages[0]?.destroy();
      await writer?.close().catch(() => {});
      await reader?.close().catch(() => {});
      await rm(path, { force: true }).catch(() => {});
      throw error;
    }
  }
}
