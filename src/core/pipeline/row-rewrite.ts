import {
  createTimestampConverter,
  type TimestampConverter,
  type TimestampTarget,
} from '../time/timestamp-converter.js';

/**
 * What the user asked to change in each row of csv, ndjson and json output: timestamps as
 * ISO 8601 with an offset (--utc, --tz), and the columns kept and their order (--columns). Raw output is
 * never rewritten. This is per-line JavaScript, so it runs only when asked.
 */
export interface RowRewrite {
  /** Target of the timestamp conversion, and the zone the service wrote them in. */
  timeZone?: { target: TimestampTarget; source: string; order: 'asc' | 'desc' };
  /** Indices into the output's columns, in the order to write them. */
  pick?: readonly number[];
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
