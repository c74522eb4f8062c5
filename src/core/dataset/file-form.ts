/**
 * The form of a series' files: the settings their bytes depend on (kind, format, columns, time zone,
 * interval, every other option of the command), as a canonical JSON text the ledger keeps with each row.
 * A file whose recorded form differs from the series' form now was made otherwise: sync never appends rows
 * of one form to a file of another, it writes the file whole (docs/dataset.md#what-sync-checks).
 */
import type { RunSettings } from '../plan/job.js';
import type { Series } from './dataset.js';

// What a file covers (its window and symbol) or how it is fetched (rows a response may hold) is not its
// form: a series whose end moved or whose symbols grew keeps its files.
const NOT_FORM = new Set(['symbols', 'start', 'end', 'date', 'output', 'maxRows']);

/** The form of the files `series` writes with `settings`: canonical JSON (keys sorted). */
export function formOf(series: Series, settings: RunSettings): string {
  const form: Record<string, unknown> = {
    kind: series.kind,
    format: settings.format,
    gzip: settings.gzip,
    header: settings.header,
    ...(settings.compression === undefined ? {} : { compression: settings.compression }),
    ...(settings.timeZone === undefined ? {} : { timeZone: settings.timeZone }),
    ...(settings.columns === undefined ? {} : { columns: settings.columns }),
  };
  for (const [key, value] of Object.entries(series.options))
    if (!NOT_FORM.has(key) && value !== undefined && !(key in form)) form[key] = value;
  return canonical(form);
}

/** The settings that differ between two forms, as `interval 5 → 1` (absent: `-`), for messages. */
export function formDifference(recorded: string, planned: string): string {
  const a = parse(recorded);
  const b = parse(planned);
  const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
  const shown = (value: unknown) => (value === undefined ? '-' : canonical(value));
  return keys
    .filter((key) => canonical(a[key] ?? null) !== canonical(b[key] ?? null))
    .map((key) => `${key} ${shown(a[key])} → ${shown(b[key])}`)
    .join(', ');
}

const canonical = (value: unknown): string =>
  JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v) && !(v instanceof Date)
      ? Object.fromEntries(
          Object.entries(v as Record<string, unknown>).sort(([x], [y]) => x.localeCompare(y)),
        )
      : v,
  );

function parse(form: string): Record<string, unknown> {
  try {
    return JSON.parse(form) as Record<string, unknown>;
  } catch {
    return {};
  }
}
