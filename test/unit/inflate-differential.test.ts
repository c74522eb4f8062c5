import { Readable, type Transform, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { deflateSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { copyChunk, releaseChunk } from '../../src/core/buffers/chunk-pool.js';
import { inflater } from '../../src/core/http/inflate.js';
import { StreamInflate } from '../../src/core/http/inflate-plain.js';
import { random, randomBody, randomPieces } from '../helpers/random-body.js';

/**
 * The pooled gzip decoder (the fast path, on zlib's native handle) against its plain fallback (Node's zlib
 * stream): the same bytes, or the same zlib error, for random bodies compressed as one gzip member or
 * several, or as deflate, fed in random pieces of pooled chunks as the HTTP layer feeds them (a piece may
 * end inside a gzip header, a CR LF or a UTF-8 sequence), whole or cut short.
 */
const ITERATIONS = Number(process.env.DIFF_ITERATIONS ?? 100);
const SEED = Number(process.env.DIFF_SEED ?? 1);

type Encoding = 'gzip' | 'deflate';

const TRAILERS = ['junk', '\0\0\0\0', '\x1f', '\x1f\x8b'];

/** What `decoder` makes of `pieces`: the bytes, or the error code it failed with. */
async function decode(decoder: Transform, pieces: readonly Buffer[]): Promise<string> {
  const copies: Buffer[] = [];
  try {
    await pipeline(
      Readable.from(pieces.map((piece) => copyChunk(piece))),
      decoder,
      new Writable({
        write(chunk: Buffer, _encoding, callback) {
          copies.push(Buffer.from(chunk));
          releaseChunk(chunk);
          callback();
        },
      }),
    );
  } catch (error) {
    return `error ${(error as NodeJS.ErrnoException).code}`;
  }
  return Buffer.concat(copies).toString('latin1');
}

/** `body` as one gzip member or several (at random levels), or as deflate. */
function compress(body: Buffer, next: () => number): { encoding: Encoding; bytes: Buffer } {
  if (next() < 0.2) return { encoding: 'deflate', bytes: deflateSync(body) };
  const members: Buffer[] = [];
  let at = 0;
  for (let left = Math.floor(next() * 3); left > 0 && at < body.length; left--) {
    const cut = at + Math.floor(next() * (body.length - at));
    members.push(gzipSync(body.subarray(at, cut), { level: Math.floor(next() * 10) }));
    at = cut;
  }
  members.push(gzipSync(body.subarray(at), { level: Math.floor(next() * 10) }));
  return { encoding: 'gzip', bytes: Buffer.concat(members) };
}

describe('the gzip decoder: pooled against the plain fallback', () => {
  it(`gives the same bytes or the same error on ${ITERATIONS} random bodies in random pieces`, async () => {
    const next = random(SEED);
    for (let round = 0; round < ITERATIONS; round++) {
      const body = randomBody(next, 400);
      const { encoding, bytes } = compress(body, next);
      // now and then cut short, inside the data or the trailer, or followed by bytes that are no member
      const odd = next();
      const sent =
        odd < 0.1
          ? bytes.subarray(0, Math.floor(next() * bytes.length))
          : odd < 0.15
            ? Buffer.concat([bytes, Buffer.from(TRAILERS[Math.floor(next() * TRAILERS.length)]!, 'latin1')])
            : bytes;
      const pieces = randomPieces(sent, next, [16, 1000, 70_000]);
      const pooled = await decode(inflater(encoding), pieces);
      const plain = await decode(new StreamInflate(encoding), pieces);
      if (pooled !== plain) expect(plain, `seed ${SEED} round ${round}`).toBe(pooled);
      if (sent === bytes) expect(pooled === body.toString('latin1'), `round ${round}`).toBe(true);
    }
  });

  it('large bodies of many chunks: the same bytes', async () => {
    const next = random(SEED + 1);
    const body = Buffer.concat(Array.from({ length: 40 }, () => randomBody(next, 2000)));
    const bytes = Buffer.concat([gzipSync(body.subarray(0, 100_000)), gzipSync(body.subarray(100_000))]);
    for (const means of [[1000], [70_000], [1 << 20]]) {
      const pieces = randomPieces(bytes, next, means);
      const pooled = await decode(inflater('gzip'), pieces);
      expect(await decode(new StreamInflate('gzip'), pieces)).toBe(pooled);
      expect(pooled === body.toString('latin1')).toBe(true);
    }
  });
});
