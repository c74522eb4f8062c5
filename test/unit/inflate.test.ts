import { Readable, type Transform, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip, deflateSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { copyChunk, POISON_BYTE, releaseChunk, takeChunk } from '../../src/core/buffers/chunk-pool.js';
import { DECODED_CHUNK, inflater } from '../../src/core/http/inflate.js';
import { StreamInflate } from '../../src/core/http/inflate-plain.js';
import { usePlainFallbacks } from '../../src/core/model/fallbacks.js';

type Encoding = 'gzip' | 'deflate';

/** The fast path (on zlib's native handle) and the plain fallback (Node's zlib stream). */
const DECODERS: [string, (encoding: Encoding) => Transform][] = [
  ['pooled', (encoding) => inflater(encoding)],
  ['plain', (encoding) => new StreamInflate(encoding)],
];

// compressible, like a day of ticks, but not a single repeated byte
const text = Buffer.from(
  Array.from(
    { length: 150_000 },
    (_, i) => `ESM25,2025-03-13 09:30:${i % 60},${5000 + (i % 97) / 4},${i % 9}\r\n`,
  ).join(''),
);

/** A writable that hands each chunk to `onChunk` as it comes (an async iterator would join buffered ones). */
const reader = (onChunk: (chunk: Buffer) => void) =>
  new Writable({
    write(chunk: Buffer, _encoding, callback) {
      onChunk(chunk);
      callback();
    },
  });

/** `body` fed to a fresh decoder in pieces of `piece` bytes; the chunks it hands on, each released after. */
async function decode(
  encoding: Encoding,
  body: Buffer,
  piece: number,
  make: (encoding: Encoding) => Transform = inflater,
) {
  const pieces: Buffer[] = [];
  for (let at = 0; at < body.length; at += piece) pieces.push(body.subarray(at, at + piece));
  const copies: Buffer[] = [];
  const sizes: number[] = [];
  await pipeline(
    Readable.from(pieces),
    make(encoding),
    reader((chunk) => {
      copies.push(Buffer.from(chunk));
      sizes.push(chunk.length);
      releaseChunk(chunk); // as the reader does: the next chunk may reuse its memory
    }),
  );
  return { bytes: Buffer.concat(copies), sizes };
}

describe.each(DECODERS)('decoder, %s', (name, make) => {
  it.each([
    ['gzip', 1],
    ['gzip', 16_384],
    ['gzip', 1 << 20],
    ['deflate', 7],
    ['deflate', 65_536],
  ] as const)('decodes %s fed in pieces of %i bytes to the same bytes as zlib', async (encoding, piece) => {
    const body = encoding === 'gzip' ? gzipSync(text) : deflateSync(text);
    // Node's zlib stream goes to the thread pool for every write: a byte at a time would take 20 s
    const { bytes, sizes } = await decode(
      encoding,
      body,
      name === 'plain' ? Math.max(piece, 61) : piece,
      make,
    );
    expect(bytes.equals(text)).toBe(true);
    expect(sizes.every((size) => size <= DECODED_CHUNK)).toBe(true);
    // the pooled decoder fills every chunk but the last: a body in small pieces goes on in large chunks
    if (name === 'pooled') {
      expect(sizes.slice(0, -1).every((size) => size === DECODED_CHUNK)).toBe(true);
      expect(sizes.length).toBe(Math.ceil(text.length / DECODED_CHUNK));
    }
  });

  it('decodes gzip members one after another, as a whole', async () => {
    const half = text.length / 2;
    const body = Buffer.concat([gzipSync(text.subarray(0, half)), gzipSync(text.subarray(half))]);
    const { bytes } = await decode('gzip', body, 10_000, make);
    expect(bytes.equals(text)).toBe(true);
  });

  it('gives each pooled batch of the body back once it has read all of it', async () => {
    const body = gzipSync(text);
    const batches: Buffer[] = [];
    for (let at = 0; at < body.length; at += 65_536) batches.push(copyChunk(body.subarray(at, at + 65_536)));
    await pipeline(Readable.from(batches), make('gzip'), reader(releaseChunk));
    // the suite runs with the debug poison: a released chunk is filled with it
    for (const batch of batches) expect(batch.every((byte) => byte === POISON_BYTE)).toBe(true);
  });

  it.each([
    ['a body cut before its end', (b: Buffer) => b.subarray(0, b.length - 20), /unexpected end of file/],
    [
      'a damaged body',
      (b: Buffer) => Buffer.concat([b.subarray(0, 200), Buffer.alloc(200, 0xff), b.subarray(400)]),
      /./,
    ],
  ])('fails on %s with zlib’s error code', async (_name, damage, message) => {
    const body = damage(gzipSync(text));
    const failure = await decode('gzip', body, 4096, make).then(
      () => undefined,
      (error: NodeJS.ErrnoException) => error,
    );
    expect(failure?.message).toMatch(message);
    expect(failure?.code).toMatch(/^Z_/);
  });

  it('inflates no further than its reader takes: a small body of 64 MiB of zeros waits for a slow reader', async () => {
    const bomb = deflateSync(Buffer.alloc(64 * 1024 * 1024));
    expect(bomb.length).toBeLessThan(100_000);
    const decoder = make('deflate');
    let most = 0;
    let total = 0;
    const slow = new Writable({
      highWaterMark: DECODED_CHUNK,
      write(chunk: Buffer, _encoding, callback) {
        most = Math.max(most, decoder.readableLength);
        total += chunk.length;
        releaseChunk(chunk);
        setImmediate(callback);
      },
    });
    await pipeline(Readable.from([bomb]), decoder, slow);
    expect(total).toBe(64 * 1024 * 1024);
    // Node's zlib stream held about this much too; decoding the whole batch at once held all 64 MiB
    expect(most).toBeLessThanOrEqual(2 * DECODED_CHUNK);
  });

  it('a slow reader of a large body gets all of it: an input ended without a push lets the next one in', {
    timeout: 20_000,
  }, async () => {
    const body = gzipSync(Buffer.concat(Array.from({ length: 8 }, () => text)));
    const pieces: Buffer[] = [];
    for (let at = 0; at < body.length; at += 256 * 1024) pieces.push(body.subarray(at, at + 256 * 1024));
    let total = 0;
    const slow = new Writable({
      highWaterMark: 1024 * 1024,
      write(chunk: Buffer, _encoding, callback) {
        total += chunk.length;
        releaseChunk(chunk);
        setImmediate(callback);
      },
    });
    await pipeline(Readable.from(pieces), make('gzip'), slow);
    expect(total).toBe(8 * text.length);
  });
});

describe('inflater: the pooled decoder', () => {
  it('hands on chunks of the pool: a released chunk is reused, not a fresh buffer', async () => {
    const body = gzipSync(text);
    const pieces: Buffer[] = [];
    for (let at = 0; at < body.length; at += 4096) pieces.push(body.subarray(at, at + 4096));
    const buffers = new Set<ArrayBufferLike>();
    await pipeline(
      Readable.from(pieces),
      inflater('gzip'),
      reader((chunk) => {
        buffers.add(chunk.buffer);
        releaseChunk(chunk);
      }),
    );
    // 5.7 MB decoded in 1 MiB slabs: without reuse it would take six
    expect(text.length).toBeGreaterThan(5 * 1024 * 1024);
    expect(buffers.size).toBeLessThanOrEqual(2);
  });

  it('gives its pending chunk back when destroyed', async () => {
    const decoder: Transform = inflater('gzip');
    decoder.write(gzipSync(text).subarray(0, 1000));
    decoder.destroy();
    // the chunk it was filling is free: the next take may be cut where it was
    const next = takeChunk(16);
    expect(next.length).toBe(16);
    releaseChunk(next);
  });
});

describe('inflater: the one place the decoder is chosen', () => {
  it('takes Node’s zlib stream where a Node version lacks the handle it uses', async () => {
    const bare = Object.assign(createGunzip(), { _handle: undefined });
    const decoder = inflater('gzip', bare);
    expect(decoder).toBeInstanceOf(StreamInflate);
    const copies: Buffer[] = [];
    await pipeline(
      Readable.from([gzipSync(text)]),
      decoder,
      reader((chunk) => copies.push(Buffer.from(chunk))),
    );
    expect(Buffer.concat(copies).equals(text)).toBe(true);
  });

  it('takes it when the switch asks for the plain fallbacks, and the pooled one otherwise', () => {
    expect(inflater('gzip')).not.toBeInstanceOf(StreamInflate);
    usePlainFallbacks(true);
    try {
      expect(inflater('gzip')).toBeInstanceOf(StreamInflate);
      expect(inflater('deflate')).toBeInstanceOf(StreamInflate);
    } finally {
      usePlainFallbacks(false);
    }
  });
});
