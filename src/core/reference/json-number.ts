export const MINUS = 0x2d;
const DOT = 0x2e;
const ZERO = 0x30;
// Any two decimals of up to 15 significant digits are different doubles (2^-52 < 10^-15 / 2).
const SAFE_DIGITS = 15;
export const isDigit = (byte: number) => byte >= ZERO && byte <= 0x39;

/**
 * Scans a number inside a container: the index past it, and whether the value needs exact parsing, as it
 * does unless String() of the number's double gives back its text. Without an exponent that is decided from the digits alone: a
 * decimal of at most 15 significant digits is the shortest text of its double, which String() writes in
 * plain notation from 1e-6 on, so it round-trips unless it ends in a fractional zero or is `-0`.
 */
export function scanNumber(chunk: Buffer, start: number): { end: number; exact: boolean } {
  const length = chunk.length;
  let at = chunk[start] === MINUS ? start + 1 : start;
  const first = at;
  while (at < length && isDigit(chunk[at] as number)) at += 1;
  let significant = at - first;
  const zeroInteger = chunk[first] === ZERO;
  let roundTrips = !zeroInteger || first === start || chunk[at] === DOT;
  if (at < length && chunk[at] === DOT) {
    at += 1;
    const fraction = at;
    if (zeroInteger) {
      // 0.000001 prints as such, 0.0000001 as 1e-7; the zeros are not significant either way.
      while (at < length && chunk[at] === ZERO) at += 1;
      roundTrips &&= at - fraction <= 5;
      significant = 0;
    }
    const digits = at;
    while (at < length && isDigit(chunk[at] as number)) at += 1;
    significant += at - digits;
    roundTrips &&= chunk[at - 1] !== ZERO;
  }
  if (at >= length) {
    // Cut by the chunk's end: parseLossless judges it, which is right for any number.
    return { end: at, exact: true };
  }
  if (((chunk[at] as number) | 0x20) !== 0x65) {
    if (!roundTrips || significant > SAFE_DIGITS) return { end: at, exact: true };
  }
  while (at < length) {
    const byte = chunk[at] as number;
    if (!isDigit(byte) && (byte | 0x20) !== 0x65 && byte !== MINUS && byte !== 0x2b) break;
    at += 1;
  }
  if (at >= length) {
    return { end: at, exact: true };
  }
  const text = chunk.toString('latin1', start, at);
  return { end: at, exact: String(Number(text)) !== text };
}
