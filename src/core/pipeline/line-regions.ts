/**
 * Positions in a buffer of service lines (CRLF, LF or bare CR ends, blank lines allowed:
 * docs/service.md#response-lines). Only the few lines at the edges of a chunk are ever looked at here, so a
 * large body costs O(chunks), not O(lines): JavaScript per line would cost more than the download.
 */

const LF = 10;
const CR = 13;
const COMMA = 44;

const isEnd = (byte: number | undefined) => byte === LF || byte === CR;

/** The index just after the last line end of `bytes`, or 0 when it holds no complete line. */
export function completeLinesEnd(bytes: Buffer): number {
  return Math.max(bytes.lastIndexOf(LF), bytes.lastIndexOf(CR)) + 1;
}

/** The index just after the first line end at or after `from`, or -1. */
export function lineEndAfter(bytes: Buffer, from = 0): number {
  const lf = bytes.indexOf(LF, from);
  const cr = bytes.indexOf(CR, from);
  const end = lf < 0 ? cr : cr < 0 ? lf : Math.min(lf, cr);
  if (end < 0) return -1;
  return bytes[end] === CR && bytes[end + 1] === LF ? end + 2 : end + 1;
}

/**
 * The start of the last non-blank line that ends at or before `end`, with that line's end; undefined
 * when there is none. Blank lines and line-end bytes between are skipped.
 */
export function lastLineBefore(bytes: Buffer, end: number): { start: number; end: number } | undefined {
  let stop = end;
  while (stop > 0) {
    while (stop > 0 && isEnd(bytes[stop - 1])) stop--;
    if (stop === 0) return undefined;
    const start = Math.max(bytes.lastIndexOf(LF, stop - 1), bytes.lastIndexOf(CR, stop - 1)) + 1;
    if (!isBlank(bytes, start, stop)) return { start, end: stop };
    stop = start;
  }
  return undefined;
}

/**
 * True when [start, end) holds only what String.prototype.trim() removes from latin1 text (tab, vertical
 * tab, form feed, space, no-break space; line ends do not occur inside a line). Read byte by byte, not
 * through a string: it runs on a chunk's edge lines, ~10,000 times for a 300 MB day.
 */
function isBlank(bytes: Buffer, start: number, end: number): boolean {
  for (let i = start; i < end; i++) {
    const byte = bytes[i];
    if (byte !== 0x20 && byte !== 0x09 && byte !== 0x0b && byte !== 0x0c && byte !== 0xa0) return false;
  }
  return true;
}

/** The first `length` characters of field `index` of the line [start, end), or undefined when it has none. */
export function fieldKey(
  bytes: Buffer,
  start: number,
  end: number,
  index: number,
  length: number,
): string | undefined {
  let at = start;
  for (let i = 0; i < index; i++) {
    const comma = bytes.indexOf(COMMA, at);
    if (comma < 0 || comma >= end) return undefined;
    at = comma + 1;
  }
  if (at + length > end) return undefined;
  return bytes.toString('latin1', at, at + length);
}

/**
 * Where the trailing group of lines sharing the last line's key starts, within [0, end): the rows a cut
 * response may hold only part of. Returns `end` when the last line has no key, 0 when every line shares it.
 */
export function trailingGroupStart(
  bytes: Buffer,
  end: number,
  keyOf: (start: number, end: number) => string | undefined,
): number {
  const last = lastLineBefore(bytes, end);
  if (!last) return end;
  const key = keyOf(last.start, last.end);
  if (key === undefined) return end;
  let groupStart = last.start;
  for (;;) {
    const previous = lastLineBefore(bytes, groupStart);
    if (!previous) return 0;
    // the region kept ends with the previous line's line end, so raw output stays whole lines
    if (keyOf(previous.start, previous.end) !== key) return groupStart;
    groupStart = previous.start;
  }
}
