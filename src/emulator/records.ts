/**
 * Record sequences and the `maxrecords`/`order` rules of wire-formats §1.6. Generators hand over
 * blocks (lines of one minute or one day, chronological), forwards or backwards, so a limit or a
 * descending order never needs the whole response in memory.
 */

/** Lines in chronological order, without line ends. */
export type Block = string[];

/** A body written straight as bytes (the tick fast path), line ends and final newline included. */
export interface ByteBody {
  bytes(eol: string, finalNewline: boolean): Iterable<Buffer>;
}

/** What a CSV endpoint answers: blocks of lines, or bytes. */
export type Records = Iterable<Block> | ByteBody;

/** The body chunks of a CSV answer. */
export function renderRecords(
  records: Records,
  eol: string,
  finalNewline: boolean,
): Iterable<string | Buffer> {
  return 'bytes' in records ? records.bytes(eol, finalNewline) : joinLines(records, eol, finalNewline);
}

/** A chronological record sequence that can be walked from either end. */
export interface Series {
  forward(): Iterable<Block>;
  /** Blocks from the newest; each block is still in chronological order. */
  backward(): Iterable<Block>;
}

/** How many records and in which order (§1.6). */
export interface Selection {
  maxRecords: number | undefined;
  descending: boolean;
  /** `end` + `maxrecords` without `start`: the last N before `end`, walking back. */
  tail: boolean;
}

/** A series held in memory (EOD, events: small). */
export function arraySeries(lines: readonly string[]): Series {
  return {
    *forward() {
      if (lines.length) yield [...lines];
    },
    *backward() {
      if (lines.length) yield [...lines];
    },
  };
}

function* takeFirst(blocks: Iterable<Block>, limit: number, fromEnd: boolean): Generator<Block> {
  let left = limit;
  for (const block of blocks) {
    if (left <= 0) return;
    const ordered = fromEnd ? block.reverse() : block;
    if (ordered.length > left) {
      yield ordered.slice(0, left);
      return;
    }
    left -= ordered.length;
    yield ordered;
  }
}

/** The blocks to send, in the requested order, after the §1.6 cut. */
export function* selectRecords(series: Series, selection: Selection): Generator<Block> {
  const { maxRecords, descending, tail } = selection;
  if (maxRecords === undefined) {
    if (!descending) {
      yield* series.forward();
      return;
    }
    for (const block of series.backward()) yield block.reverse();
    return;
  }
  if (descending) {
    yield* takeFirst(series.backward(), maxRecords, true);
    return;
  }
  if (!tail) {
    yield* takeFirst(series.forward(), maxRecords, false);
    return;
  }
  const newestFirst = [...takeFirst(series.backward(), maxRecords, true)];
  for (let i = newestFirst.length - 1; i >= 0; i--) yield (newestFirst[i] ?? []).reverse();
}

/** Keeps blocks of lines for which `keep` holds. */
export function* filterBlocks(blocks: Iterable<Block>, keep: (line: string) => boolean): Generator<Block> {
  for (const block of blocks) {
    const kept = block.filter(keep);
    if (kept.length) yield kept;
  }
}

const CHUNK_CHARS = 128 * 1024;

/**
 * Joins lines into text chunks of about 128 KiB, the line end between lines and after the last one
 * when `finalNewline` (wire-formats §1.3): large writes keep 500 MB responses fast.
 */
export function* joinLines(blocks: Iterable<Block>, eol: string, finalNewline: boolean): Generator<string> {
  let chunk = '';
  let first = true;
  for (const block of blocks) {
    for (const line of block) {
      if (first) {
        chunk = line;
        first = false;
      } else {
        chunk += eol + line;
      }
    }
    if (chunk.length >= CHUNK_CHARS) {
      yield chunk;
      chunk = '';
    }
  }
  if (first) return;
  if (finalNewline) chunk += eol;
  if (chunk) yield chunk;
}
