/**
 * A body's chunks on their way, cut from a few reused slabs instead of a fresh buffer each: the socket's
 * reads joined in batches, the decoded bytes (inflate.ts) and the output. Fresh buffers that live only until
 * the next stage has read them are freed late by V8, so they set a download's peak memory, and fresh memory
 * costs page faults on every use (docs/internals.md#the-chunk-pool, bench/README.md#memory).
 *
 * Whoever reads a chunk last gives it back (releaseChunk): the decoder its input, the response transform
 * what it converted or copied, the writers what they wrote. A chunk that never comes back (another
 * writable, or one that keeps it) only keeps its slab out of reuse: the garbage collector frees it, at a
 * full collection (a slab is a WeakMap key). Only the very chunks takeChunk returned count, each once, so
 * a subarray of one or a second release can never free a slab still in use.
 */

/**
 * Four of the decoder's 256 KiB chunks, or one or two converted ones (an ndjson chunk is ~2.5x a 256 KiB
 * csv batch; a chunk larger than a slab gets a buffer of its own). Larger slabs are kept alive longer by
 * one chunk still out (bench/README.md#memory).
 */
export const SLAB_BYTES = 1024 * 1024;

interface Slab {
  readonly bytes: Buffer;
  used: number;
  /** Chunks taken from it and not released yet. */
  out: number;
}

/** The byte a released chunk is filled with in the debug mode (poisonReleasedChunks). */
export const POISON_BYTE = 0xa5;
let poison = false;

/**
 * Debug mode: every chunk is filled with POISON_BYTE as it is released, so a stage that reads a chunk
 * after giving it back writes visible garbage instead of silently correct-looking bytes. The test suite
 * runs with it on (docs/internals.md).
 */
export function poisonReleasedChunks(on: boolean): void {
  poison = on;
}

const slabOf = new WeakMap<ArrayBufferLike, Slab>();
const taken = new WeakSet<Buffer>();
const free: Slab[] = [];
let current: Slab | undefined;

/** `size` bytes to fill (not zeroed), to be released by the writer once written. */
export function takeChunk(size: number): Buffer {
  if (size > SLAB_BYTES) return Buffer.allocUnsafe(size);
  let slab = current;
  if (!slab || slab.used + size > SLAB_BYTES) {
    current = undefined;
    if (slab) recycle(slab);
    slab = free.pop() ?? newSlab();
    slab.used = 0;
    current = slab;
  }
  const chunk = slab.bytes.subarray(slab.used, slab.used + size);
  slab.used += size;
  slab.out++;
  taken.add(chunk);
  return chunk;
}

/**
 * The first `size` bytes of a chunk takeChunk returned, counted in its place; the rest goes back to the
 * slab when nothing was taken after it (a decoder takes room for its output before it knows how much).
 */
export function trimChunk(chunk: Buffer, size: number): Buffer {
  if (!taken.delete(chunk)) return chunk.subarray(0, size);
  const slab = slabOf.get(chunk.buffer);
  if (slab && slab === current && slab.used === chunk.byteOffset + chunk.length)
    slab.used -= chunk.length - size;
  const trimmed = chunk.subarray(0, size);
  taken.add(trimmed);
  return trimmed;
}

/** A copy of `bytes` in a chunk of the pool, to be released by the writer once written. */
export function copyChunk(bytes: Uint8Array): Buffer {
  const chunk = takeChunk(bytes.length);
  chunk.set(bytes);
  return chunk;
}

/** A chunk's bytes are no longer needed: its slab can be reused once all its chunks are back. */
export function releaseChunk(chunk: Buffer): void {
  if (!taken.delete(chunk)) return;
  if (poison) chunk.fill(POISON_BYTE);
  const slab = slabOf.get(chunk.buffer) as Slab;
  slab.out--;
  if (slab !== current) recycle(slab);
}

/** Releases every chunk of a batch that was written. */
export function releaseChunks(chunks: readonly Buffer[]): void {
  for (const chunk of chunks) releaseChunk(chunk);
}

/**
 * Every slab given back is kept for reuse: a new one is made only when none is free, so the pool never
 * holds more than the most that were out at once (a 1 GB day cycles through 4 or 5, four downloads at
 * once through ~20). A dropped slab waits for a full collection (a WeakMap key), so dropping any raises the
 * peak (bench/README.md#memory).
 */
function recycle(slab: Slab): void {
  if (slab.out === 0) free.push(slab);
}

function newSlab(): Slab {
  // allocUnsafeSlow: a buffer of its own, never a slice of Node's shared pool
  const slab: Slab = { bytes: Buffer.allocUnsafeSlow(SLAB_BYTES), used: 0, out: 0 };
  slabOf.set(slab.bytes.buffer, slab);
  return slab;
}
