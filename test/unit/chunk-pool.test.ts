import { describe, expect, it } from 'vitest';
import {
  copyChunk,
  POISON_BYTE,
  releaseChunk,
  releaseChunks,
  SLAB_BYTES,
  takeChunk,
  trimChunk,
} from '../../src/core/buffers/chunk-pool.js';

// identities compared as booleans: a failed toBe on two 2 MiB ArrayBuffers takes minutes to print
const HALF = SLAB_BYTES / 2;

/** Two chunks that fill one slab: the first starts a slab, whatever earlier tests left. */
function fullSlab(): [Buffer, Buffer] {
  let first = takeChunk(HALF);
  while (first.byteOffset !== 0) {
    releaseChunk(first);
    first = takeChunk(HALF);
  }
  return [first, takeChunk(HALF)];
}

describe('chunk pool', () => {
  it('reuses a slab once every chunk cut from it was released, and not before', () => {
    const [a, b] = fullSlab();
    expect(a.buffer === b.buffer).toBe(true);
    a.fill(1);
    b.fill(2);
    releaseChunk(a);
    const [c, d] = fullSlab(); // a's slab still has b out
    expect(c.buffer === a.buffer || d.buffer === a.buffer).toBe(false);
    expect(b.every((byte) => byte === 2)).toBe(true);
    releaseChunk(b);
    const [e] = fullSlab();
    expect(e.buffer === a.buffer).toBe(true);
    releaseChunks([c, d, e]);
  });

  it('counts only the chunks it handed out, each once: a second release or a subarray frees nothing', () => {
    const [a, b] = fullSlab();
    b.fill(7);
    releaseChunk(a);
    releaseChunk(a);
    releaseChunk(b.subarray(1));
    releaseChunk(Buffer.alloc(HALF));
    for (let i = 0; i < 6; i++) {
      const [c, d] = fullSlab();
      expect(c.buffer === b.buffer || d.buffer === b.buffer).toBe(false);
      c.fill(0);
      d.fill(0);
      releaseChunks([c, d]);
    }
    expect(b.every((byte) => byte === 7)).toBe(true);
  });

  it('trims a chunk: the rest goes back to its slab when nothing was taken after it', () => {
    const [a, b] = fullSlab();
    releaseChunk(b);
    const trimmed = trimChunk(a, 100);
    expect(trimmed.length).toBe(100);
    releaseChunk(a); // no longer the counted chunk
    const next = takeChunk(16);
    expect(next.buffer === trimmed.buffer && next.byteOffset === 100).toBe(false); // a's slab was full
    releaseChunks([trimmed, next]);
    const c = takeChunk(HALF);
    const short = trimChunk(c, 10);
    const d = takeChunk(16);
    expect(d.buffer === short.buffer && d.byteOffset === short.byteOffset + 10).toBe(true);
    const e = takeChunk(HALF);
    trimChunk(d, 1); // e was taken after d: d keeps its room
    expect(e.byteOffset).toBe(d.byteOffset + 16);
    releaseChunks([short, d, e]);
  });

  it('copies bytes into a chunk of the pool, which counts like any other', () => {
    const bytes = Buffer.from('ESM25,2025-03-13 09:30:00.000,5000.25,1\n');
    const copy = copyChunk(bytes);
    expect(copy.equals(bytes)).toBe(true);
    expect(copy.buffer === bytes.buffer).toBe(false);
    expect(copy.buffer.byteLength).toBe(SLAB_BYTES);
    releaseChunk(copy);
  });

  it('gives a chunk larger than a slab a buffer of its own', () => {
    const big = takeChunk(SLAB_BYTES + 1);
    expect(big.length).toBe(SLAB_BYTES + 1);
    expect(big.byteOffset).toBe(0);
    releaseChunk(big);
  });
});

describe('chunk pool: the debug poison', () => {
  it('fills a released chunk with the poison byte (on for the whole suite), and only chunks it handed out', () => {
    const chunk = copyChunk(Buffer.from('2025-03-13 17:00:00.021,14,G,5612.75,7\n'));
    const view = chunk.subarray(0);
    const foreign = Buffer.from('not from the pool');
    releaseChunk(chunk);
    releaseChunk(foreign);
    expect(view.every((byte) => byte === POISON_BYTE)).toBe(true);
    expect(foreign.toString()).toBe('not from the pool');
  });
});
