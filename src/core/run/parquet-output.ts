import { columnTypeOf } from '../model/column-types.js';
import { DEFAULT_PARQUET_COMPRESSION } from '../model/formats.js';
import { type OutputState, writtenColumns } from '../pipeline/output-state.js';
import type { RunSettings } from '../plan/job.js';
import type { Sink } from '../sink/atomic-file.js';
import { zoneNameOf } from '../time/time-zones.js';
import type { OutputGroup } from './run-state.js';

/** The key/value metadata entry naming the zone of the `time` column (docs/parquet.md). */
const TIME_ZONE_KEY = 'mdget.time_zone';

/**
 * The zone the times of an output are in: UTC or the --tz zone for instants; for the service's wall clock,
 * the zone of its requests, or `SYMBOL=zone` pairs when the symbols of one output speak different zones.
 */
function timeZoneOf(group: OutputGroup, settings: RunSettings): string {
  if (settings.timeZone !== undefined) return zoneNameOf(settings.timeZone);
  const zones = new Map(group.items.map(({ plan }) => [plan.symbol, plan.zone]));
  const distinct = new Set(zones.values());
  if (distinct.size <= 1) return [...distinct][0] ?? 'UTC';
  return [...zones].map(([symbol, zone]) => `${symbol}=${zone}`).join(',');
}

/**
 * The output's sink wrapped to write Parquet: the typed columns of its csv columns (--columns applied),
 * instants with --utc/--tz, the zone of its times in the metadata. The writer is loaded here, on the first Parquet
 * output only: nothing else pays for it.
 */
export async function parquetOutput(
  sink: Sink,
  group: OutputGroup,
  state: OutputState,
  settings: RunSettings,
): Promise<Sink> {
  const { parquetSink } = await import('../sink/parquet/parquet-sink.js');
  const names = writtenColumns(state) ?? [];
  return parquetSink(sink, {
    columns: names.map((name) => ({ name, type: columnTypeOf(name) })),
    utc: settings.timeZone !== undefined,
    compression: settings.compression ?? DEFAULT_PARQUET_COMPRESSION,
    // a zone says how to read times: an output of dates alone (eod, futopts) has none to name
    keyValues: names.includes('time') ? [{ key: TIME_ZONE_KEY, value: timeZoneOf(group, settings) }] : [],
    createdBy: 'mdget',
  });
}
