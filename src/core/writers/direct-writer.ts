import { close, constants, open, statfs, write } from 'node:fs';
import { dirname } from 'node:path';

/** One direct write: a multiple of the alignment, from aligned memory, at an aligned offset. */
const BLOCK_BYTES = 1024 * 1024;
/**
 * Blocks in the ring: one filling, the others written meanwhile. A direct write returns once the disk
 * has the bytes (~1.4 ms a MiB here); with one in flight, ndjson (~600 MB/s) waited for the disk.
 */
const BLOCKS = 4;
/** What O_DIRECT asks of offsets, lengths and memory on the disks we know (blocks of 512 or 4096 bytes). */
export const DIRECT_ALIGN = 4096;
const WASM_PAGE = 65_536;
/**
 * File systems whose O_DIRECT writes are plain and fast: ext2/3/4 and XFS. Elsewhere (NFS writes through
 * to the server, tmpfs refuses, btrfs checksums) the page cache stays.
 */
const DIRECT_FILE_SYSTEMS = new Set([0xef53, 0x58465342]);

/**
 * Outputs writing directly at once, in the whole process. Each holds its ring of blocks (4 MiB, ~3 MiB of
 * peak): four 390 MB csv days at `--concurrency 4` peaked 11-12 MiB higher with a ring each. One at a
 * time keeps a batch's memory flat; the others stay in the page cache, and take the slot when it frees.
 */
const MAX_DIRECT_OUTPUTS = 1;
let directOutputs = 0;

/** Takes the process's direct slot if it is free. */
export function takeDirectSlot(): boolean {
  if (directOutputs >= MAX_DIRECT_OUTPUTS) return false;
  directOutputs++;
  return true;
}

export function releaseDirectSlot(): void {
  directOutputs--;
}

/** The failure of a write asked for after its output was dropped (as stream's own code). */
export const destroyedError = (): Error =>
  Object.assign(new Error('output abandoned'), { code: 'ERR_STREAM_DESTROYED' });

/** Writes all of `buffer` at `position`, continuing a short write. */
function writeAt(
  fd: number,
  buffer: Buffer,
  position: number,
  callback: (error: NodeJS.ErrnoException | null) => void,
): void {
  write(fd, buffer, 0, buffer.length, position, (error, written) => {
    if (error) return callback(error);
    if (written === buffer.length) return callback(null);
    writeAt(fd, buffer.subarray(written), position + written, callback);
  });
}

const writeAtAsync = (fd: number, buffer: Buffer, position: number) =>
  new Promise<void>((resolve, reject) => writeAt(fd, buffer, position, (e) => (e ? reject(e) : resolve())));

/** `path` opened again for writes past the page cache (O_DIRECT), on a file system known to do them well. */
export function openDirect(path: string): Promise<number | undefined> {
  const flag = constants.O_DIRECT;
  if (flag === undefined) return Promise.resolve(undefined);
  return new Promise((resolve) => {
    statfs(dirname(path), (error, stats) => {
      if (error || !DIRECT_FILE_SYSTEMS.has(Number(stats.type))) return resolve(undefined);
      open(path, constants.O_WRONLY | flag, (openError, fd) => resolve(openError ? undefined : fd));
    });
  });
}

export function closeDirect(fd: number): Promise<void> {
  return new Promise((resolve) => close(fd, () => resolve()));
}

/**
 * The bytes of a large output on their way past the page cache: copied into a ring of aligned blocks
 * (in WebAssembly memory, which is page-aligned where a Buffer is not), one filling while the others are
 * written through `directFd`. The tail that does not fill an aligned length goes through `bufferedFd`,
 * the same file opened without O_DIRECT. A disk that refuses a direct write (EINVAL) gets that block and
 * everything after it through `bufferedFd`, reported to `onBuffered` (the background fdatasync).
 */
export class DirectBlocks {
  private readonly blocks: Buffer[];
  private current = 0;
  private filled = 0;
  /** Each block's write, until the block is filled again. */
  private readonly inFlight: (Promise<void> | undefined)[] = [];
  private direct = true;
  private stopped = false;

  /**
   * `position`: the file offset of the first byte given, a multiple of DIRECT_ALIGN. The blocks own
   * `directFd` and the process's direct slot from here on: close() gives both back.
   */
  constructor(
    private readonly directFd: number,
    private readonly bufferedFd: number,
    private position: number,
    private readonly onBuffered?: (bytes: number) => void,
  ) {
    const memory = new WebAssembly.Memory({ initial: (BLOCKS * BLOCK_BYTES) / WASM_PAGE });
    this.blocks = Array.from({ length: BLOCKS }, (_, i) =>
      Buffer.from(memory.buffer, i * BLOCK_BYTES, BLOCK_BYTES),
    );
  }

  /** Copies `chunk` in; resolves once the blocks have room again (the caller may then reuse `chunk`). */
  async take(chunk: Buffer): Promise<void> {
    let offset = 0;
    while (offset < chunk.length) {
      const n = Math.min(BLOCK_BYTES - this.filled, chunk.length - offset);
      (this.blocks[this.current] as Buffer).set(chunk.subarray(offset, offset + n), this.filled);
      this.filled += n;
      offset += n;
      if (this.filled === BLOCK_BYTES) {
        const write = this.send(this.blocks[this.current] as Buffer, this.position);
        // its failure is thrown where it is awaited (below, or in finish): not an unhandled rejection meanwhile
        write.catch(() => {});
        this.inFlight[this.current] = write;
        this.position += BLOCK_BYTES;
        this.current = (this.current + 1) % BLOCKS;
        this.filled = 0;
        // the next block is refilled once its last write is done
        await this.inFlight[this.current];
      }
    }
  }

  /** Writes what is left and waits for every write. */
  async finish(): Promise<void> {
    // every write settled before a failure is thrown: the caller closes the descriptors next
    const failed = (await Promise.allSettled(this.inFlight)).find((r) => r.status === 'rejected');
    if (failed) throw failed.reason;
    const block = this.blocks[this.current] as Buffer;
    const aligned = this.filled - (this.filled % DIRECT_ALIGN);
    if (aligned > 0) await this.send(block.subarray(0, aligned), this.position);
    if (this.filled > aligned)
      await this.buffered(block.subarray(aligned, this.filled), this.position + aligned);
    this.filled = 0;
  }

  /**
   * Starts no write from now on and waits for those in flight, their failures ignored (the output is being
   * dropped): the descriptors must stay open until then, as in atomic-file.ts writeAll.
   */
  async settle(): Promise<void> {
    this.stopped = true;
    await Promise.allSettled(this.inFlight);
  }

  /** Waits for the writes in flight, closes the direct descriptor and gives the direct slot back. */
  async close(): Promise<void> {
    await this.settle();
    await closeDirect(this.directFd);
    releaseDirectSlot();
  }

  private async send(bytes: Buffer, at: number): Promise<void> {
    if (this.stopped) throw destroyedError();
    if (this.direct) {
      try {
        return await writeAtAsync(this.directFd, bytes, at);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EINVAL') throw error;
        this.direct = false;
      }
    }
    await this.buffered(bytes, at);
  }

  private async buffered(bytes: Buffer, at: number): Promise<void> {
    if (this.stopped) throw destroyedError();
    await writeAtAsync(this.bufferedFd, bytes, at);
    this.onBuffered?.(bytes.length);
  }
}
