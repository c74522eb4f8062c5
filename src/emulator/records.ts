/**
 * Record sequences and the `maxrecords`/`order` rules (docs/service.md#maxrecords-and-order). Generators hand
 * over blocks (lines of one minute or one day, chronological), forwards or backwards, so a limit or a
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

/** How many records and in which order. */
export interface Selection {
  maxRecords: number | undefined;
  descending: boolean;
  /** `end` + `maxrecords` without `start`: the last N before `end`, walking back. */
  tail: boolean;
  /**
   * When set, a cut keeps going past the limit while the lines have the same group as the last line
   * kept (ticks: its second); undefined = cut at exactly `maxRecords`.
   */
  groupOf?: (line: string) => string;
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

function* takeFirst(
  blocks: Iterable<Block>,
  limit: number,
  fromEnd: boolean,
  groupOf: ((line: string) => string) | undefined,
): Generator<Block> {
  let left = limit;
  // once the limit is reached with groupOf set: the group still being completed
  let group: string | undefined;
  for (const block of blocks) {
    const ordered = fromEnd ? block.reverse() : block;
    let take = Math.min(left, ordered.length);
    if (group !== undefined && groupOf) {
      while (take < ordered.length && groupOf(ordered[take] as string) === group) take++;
      if (take) yield take === ordered.length ? ordered : ordered.slice(0, take);
      if (take < ordered.length) return;
      continue;
    }
    left -= take;
    if (left > 0) {
      yield ordered;
      continue;
    }
    if (!groupOf) {
      yield take === ordered.length ? ordered : ordered.slice(0, take);
      return;
    }
    group = groupOf(ordered[take - 1] as string);
    while (take < ordered.length && groupOf(ordered[take] as string) === group) take++;
    yield take === ordered.length ? ordered : ordered.slice(0, take);
    if (take < ordered.length) return;
  }
}

/** The blocks to send, in the requested order, after the maxrecords cut. */
export function* selectRecords(series: Series, selection: Selection): Generator<Block> {
  const { maxRecords, descending, tail, groupOf } = selection;
  if (maxRecords === undefined) {
    if (!descending) {
      yield* series.forward();
      return;
    }
    for (const block of series.backward()) yield block.reverse();
    return;
  }
  if (descending) {
    yield* takeFirst(series.backward(), maxRecords, true, groupOf);
    return;
  }
  if (!tail) {
    yield* takeFirst(series.forward(), maxRecords, false, groupOf);
    return;
  }
  const newestFirst = [...takeFirst(series.backward(), maxRecords, true, groupOf)];
  for (let i = newestFirst.length - 1; i >= 0; i--) yield (newestFirst[i] ?? []).reverse();
}

const CHUNK_CHARS = 128 * 1024;

/**
 * Joins lines into text chunks of about 128 KiB, the line end between lines and after the last one
 * when `finalNewline`: large writes keep 500 MB responses fast.
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
