import { usageError } from '../model/errors.js';
import { outputColumns } from '../model/record-shapes.js';
import type { PlannedRequest } from '../plan/planned-request.js';
import type { BatchOptions } from '../run/run-types.js';
import {
  createTimestampConverter,
  type TimestampConverter,
  type TimestampTarget,
} from '../time/time-zones.js';

/**
 * What the user asked to change in each row of csv, ndjson and json output (issue 13): timestamps as
 * ISO 8601 with an offset (--utc, --tz), and the columns kept and their order (--columns). Raw output is
 * never rewritten. This is per-line JavaScript, so it runs only when asked.
 */
export interface RowRewrite {
  /** Target of the timestamp conversion, and the zone the service wrote them in. */
  timeZone?: { target: TimestampTarget; source: string; order: 'asc' | 'desc' };
  /** Indices into the output's columns, in the order to write them. */
  pick?: readonly number[];
}

/**
 * The indices of `wanted` among `columns`; a name the output has not is MDGET_USAGE listing the names it
 * has, found before any request.
 */
export function pickColumns(wanted: readonly string[], columns: readonly string[]): number[] {
  return wanted.map((name) => {
    const index = columns.indexOf(name);
    if (index < 0)
      throw usageError(`--columns: no column '${name}' here; the columns are ${columns.join(',')}`);
    return index;
  });
}

/** Rewrites LF-terminated csv lines of `columns`; undefined when there is nothing to change. */
export function rowRewriter(
  rewrite: RowRewrite,
  columns: readonly string[] | undefined,
): ((lines: Buffer) => Buffer) | undefined {
  if (!columns) return undefined;
  const timeIndex = columns.indexOf('time');
  const convert: TimestampConverter | undefined =
    rewrite.timeZone && timeIndex >= 0
      ? createTimestampConverter({
          sourceZone: rewrite.timeZone.source,
          target: rewrite.timeZone.target,
          order: rewrite.timeZone.order,
        })
      : undefined;
  const { pick } = rewrite;
  if (!convert && !pick) return undefined;
  return (lines) => {
    const rows = lines.toString('utf8').split('\n');
    for (let i = 0; i < rows.length; i++) {
      const row = rows[i]!;
      if (row === '') continue;
      const fields = row.split(',');
      // rows of another shape than the columns (an undocumented one) go out as they came
      if (fields.length !== columns.length) continue;
      if (convert) fields[timeIndex] = convert(fields[timeIndex]!);
      rows[i] = (pick ? pick.map((index) => fields[index]) : fields).join(',');
    }
    return Buffer.from(rows.join('\n'));
  };
}

/**
 * --columns, --utc and --tz: refused for raw (the service's bytes), and unknown columns named (issue 13).
 * Pure and apart from the downloader, so --dry-run refuses what the run would.
 */
export function checkRewrites(
  plans: readonly PlannedRequest[],
  options: Pick<BatchOptions, 'format' | 'columns' | 'timeZone'>,
): void {
  if (options.format === 'raw' && (options.columns || options.timeZone)) {
    throw usageError(
      "--columns, --utc and --tz apply to csv, ndjson and json: --format raw is the service's bytes, unchanged",
    );
  }
  if (!options.columns) return;
  const first = plans[0];
  if (!first) return;
  const contract = plans.some((plan) => plan.kind === 'nearbyMinutes' || plan.symbol.includes('*'));
  const columns = outputColumns(first.kind, { trend: first.trend, contract });
  if (!columns) throw usageError('--columns: this output has no csv columns to pick (futopts --json)');
  pickColumns(options.columns, columns);
}
