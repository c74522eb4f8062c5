// Random bodies as the service might send them, for the differential tests of the pipeline's fast paths
// against their plain fallbacks: reproducible from a seed, with the edge cases mixed in.

/** xorshift32: a reproducible stream of numbers in [0, 1). */
export function random(seed: number): () => number {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    return x / 2 ** 32;
  };
}

const pick = <T>(next: () => number, items: readonly T[]): T => items[Math.floor(next() * items.length)]!;

// bytes a line may hold, and the bytes near the blank rule's edges: space and tab are blank; vertical tab,
// form feed, NUL, 0xA0 and bytes above 127 are not (though trim() drops some of them at a body's end)
const CONTENT = [...Buffer.from('0123456789-:., GabcESM')];
const ODD = [0x09, 0x20, 0x20, 0x0b, 0x0c, 0x00, 0x1f, 0xa0, 0x7f, 0x80, 0xc3, 0xa9, 0xff, 0x22, 0x5c];
const BOM = [0xef, 0xbb, 0xbf];

/** A tick as the service writes it, with or without its symbol, and now and then an empty field. */
function tick(next: () => number, symbol: boolean): string {
  const ms = String(Math.floor(next() * 1000)).padStart(3, '0');
  const price = (5600 + Math.floor(next() * 80) / 4).toString();
  const size = next() < 0.05 ? '' : String(1 + Math.floor(next() * 50));
  const code = next() < 0.05 ? '' : 'G';
  return `${symbol ? 'ESM25,' : ''}2025-03-13 17:00:${String(Math.floor(next() * 60)).padStart(2, '0')}.${ms},14,${code},${price},${size}`;
}

/**
 * A body of lines: ticks mostly, and blank lines (empty, spaces and tabs), near-blank ones, long ones
 * (across several chunks), `Error` lines, lines of odd bytes (not ASCII, not UTF-8, quotes, controls)
 * and of other field counts; ends CR LF, LF or a lone CR, mostly one kind per body; a BOM first now and
 * then, and an unterminated last line half the time.
 */
export function randomBody(next: () => number, maxLines = 60): Buffer {
  const bytes: number[] = [];
  if (next() < 0.1) bytes.push(...BOM);
  const symbol = next() < 0.5;
  const lines = Math.floor(next() * (next() < 0.1 ? 2000 : maxLines));
  const ending = Math.floor(next() * 4); // mostly CRLF, mostly LF, mostly CR, or anything
  for (let l = 0; l < lines; l++) {
    const kind = next();
    if (kind < 0.08) {
      for (let k = Math.floor(next() * 4); k > 0; k--) bytes.push(next() < 0.5 ? 0x20 : 0x09);
    } else if (kind < 0.12) {
      for (let k = 1 + Math.floor(next() * 3); k > 0; k--)
        bytes.push(pick(next, [0x20, 0x09, 0x0b, 0x0c, 0xa0, 0x00]));
    } else if (kind < 0.14) {
      for (let k = Math.floor(next() * 3000); k > 0; k--) bytes.push(pick(next, CONTENT));
    } else if (kind < 0.16) {
      bytes.push(
        ...Buffer.from(pick(next, ['Error: unknown symbol', 'Error: Invalid username or password', 'Error'])),
      );
    } else if (kind < 0.3) {
      for (let k = Math.floor(next() * 50); k > 0; k--)
        bytes.push(next() < 0.1 ? pick(next, ODD) : pick(next, CONTENT));
    } else if (kind < 0.35) {
      bytes.push(
        ...Buffer.from(`${tick(next, symbol)}${next() < 0.5 ? ',9' : ''}`).subarray(
          0,
          next() < 0.5 ? 20 : 200,
        ),
      );
    } else {
      bytes.push(...Buffer.from(tick(next, symbol)));
    }
    const end = ending === 3 || next() < 0.1 ? Math.floor(next() * 3) : ending;
    if (end === 0) bytes.push(13, 10);
    else if (end === 1) bytes.push(10);
    else bytes.push(13);
  }
  if (next() < 0.5) {
    for (let k = Math.floor(next() * 6); k > 0; k--)
      bytes.push(next() < 0.5 ? pick(next, ODD) : pick(next, CONTENT));
  }
  return Buffer.from(bytes);
}

/**
 * `input` cut at random points, into pieces of about `mean` bytes picked from `means`: empty pieces and
 * cuts inside a CR LF (or a UTF-8 sequence, a gzip header) included.
 */
export function randomPieces(input: Buffer, next: () => number, means: readonly number[]): Buffer[] {
  const pieces: Buffer[] = [];
  const mean = pick(next, means);
  let at = 0;
  while (at < input.length) {
    const size = next() < 0.05 ? 0 : Math.ceil(next() * 2 * mean);
    pieces.push(input.subarray(at, at + size));
    at += size;
  }
  if (next() < 0.2) pieces.push(input.subarray(input.length));
  return pieces;
}
