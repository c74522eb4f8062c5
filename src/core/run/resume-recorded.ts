import { createReadStream } from 'node:fs';
import { createGunzip } from 'node:zlib';
import type { Config } from '../model/config.js';
import { MdgetError } from '../model/errors.js';
import type { NameOf } from '../plan/names.js';
import { type Recipe, recipeDifference } from '../plan/recipe.js';
import { keyLength } from '../plan/series.js';
import { type FileMemory, fileDigest } from '../sink/file-memory.js';
import type { OutputGroup, OutputItem } from './run-state.js';
import { keyReader, type ResumeShape, resumeItems, wallKey } from './update.js';

/**
 * --update of a file whose memory was kept (docs/cli.md#outputs). The file must be what its
 * memory says (same size and SHA-256) and made the way this run would make it; then each symbol resumes
 * at the key of its own last rows. The new file is the old one's rows of each symbol before that key,
 * then that symbol's new rows, symbol after symbol: what one download of the whole range writes.
 */
export async function resumeRecorded(
  group: OutputGroup,
  path: string,
  memory: FileMemory | undefined,
  wanted: Recipe,
  shape: ResumeShape,
  names: NameOf,
  config: Config,
): Promise<void> {
  const over = `pass ${names('force')} to download it whole`;
  if (!memory)
    throw new MdgetError(
      'MDGET_IO',
      `${path} has no record of how mdget made it (made by hand or by an older mdget): ${over}`,
    );
  const difference = recipeDifference(memory.recipe, wanted, path, names);
  if (difference) throw new MdgetError('MDGET_IO', difference);
  const digest = await fileDigest(path);
  if (digest.bytes !== memory.bytes || digest.sha256 !== memory.sha256)
    throw new MdgetError(
      'MDGET_IO',
      `${path} changed since mdget wrote it (its size or SHA-256 differs from its record): ${over}`,
    );
  const points =
    shape.format === 'parquet'
      ? await parquetPoints(path, memory.ends, shape)
      : await scanSegments(path, memory.ends, shape);
  const bySymbol = new Map<string, OutputItem[]>();
  for (const item of group.items)
    bySymbol.set(item.plan.symbol, [...(bySymbol.get(item.plan.symbol) ?? []), item]);
  const items: OutputItem[] = [];
  const copies: OutputGroup['copies'] = [];
  wanted.symbols.forEach((symbol, i) => {
    const from = Math.max(memory.ends[i - 1] ?? 0, points.header);
    const point = points.groups[i];
    const own = bySymbol.get(symbol) ?? [];
    const resumed = point ? resumeItems(own, { key: point.key }, config) : own;
    // a symbol with nothing left to fetch keeps all its rows; one without rows is fetched whole
    const to = resumed.length === 0 ? (memory.ends[i] ?? from) : point ? point.start : from;
    copies.push({ symbol, ranges: i === 0 && points.header > 0 ? [[0, to]] : [[from, to]] });
    items.push(...resumed);
  });
  group.items = items;
  group.copies = copies;
  group.headerKept = points.header > 0;
}

interface Points {
  /** Bytes of the csv header at the file's start (0 for the other formats). */
  header: number;
  /** Per symbol, the service key of its last rows and where they start; undefined when it has none. */
  groups: ({ key: string; start: number } | undefined)[];
}

/** One pass over the file's (decompressed) lines: each symbol's last key group, and the header. */
async function scanSegments(path: string, ends: readonly number[], shape: ResumeShape): Promise<Points> {
  const keyOf = keyReader(shape);
  const length = keyLength(shape.resolution);
  const points: Points = { header: 0, groups: ends.map(() => undefined) };
  const rowKeys: (string | undefined)[] = [];
  let offset = 0;
  let segment = 0;
  let carry: Buffer = Buffer.alloc(0);
  const source = createReadStream(path);
  const lines = (shape.gzip ? source.pipe(createGunzip()) : source) as AsyncIterable<Buffer>;
  for await (const chunk of lines) {
    const bytes = carry.length > 0 ? Buffer.concat([carry, chunk]) : chunk;
    let start = 0;
    for (let end = bytes.indexOf(10); end >= 0; end = bytes.indexOf(10, start)) {
      const at = offset + start;
      while (segment < ends.length - 1 && at >= (ends[segment] ?? 0)) segment++;
      const key = keyOf(bytes, start, end);
      if (key === undefined && at === 0 && shape.format === 'csv') points.header = end + 1;
      if (key !== undefined && key !== rowKeys[segment]) {
        rowKeys[segment] = key;
        points.groups[segment] = { key: wallKey(key, length, shape.sourceZone), start: at };
      }
      start = end + 1;
    }
    offset += start;
    carry = Buffer.from(bytes.subarray(start));
  }
  return points;
}

/** Each symbol's last key group in a Parquet file, by its rows (a Parquet file has no header). */
async function parquetPoints(path: string, ends: readonly number[], shape: ResumeShape): Promise<Points> {
  const { readParquetResumePoint } = await import('./update-parquet.js');
  const groups: Points['groups'] = [];
  for (const [i, end] of ends.entries()) {
    const found = await readParquetResumePoint(
      path,
      shape.resolution,
      shape.sourceZone,
      ends[i - 1] ?? 0,
      end,
    );
    groups.push(found && { key: found.key, start: found.keepRows });
  }
  return { header: 0, groups };
}
