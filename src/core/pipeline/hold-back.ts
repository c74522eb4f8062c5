import type { SeriesRequest } from '../plan/series.js';
import { formatKey } from '../plan/series.js';

/**
 * Whether a time-series response may have been cut by the server: `cut` when its rows reach a cap in
 * force, `probe` when they reach a new high with no cap known (run/cut-tracker.ts decides).
 */
export type CutVerdict = 'complete' | 'cut' | 'probe';

/** What the end of a response shows about its last key group (the rows of its last time key). */
export interface HeldGroup {
  /** Rows the service sent before the group, and in it. */
  before: number;
  rows: number;
  /** The group's key, and the key of the response's last row. */
  key: string | undefined;
  lastKey: string | undefined;
  /** The key of the last row written so far. */
  lastKeptKey: string | undefined;
  /** Rows the server sent again from before a continuation's start. */
  repeated: number;
}

/** What becomes of the held group: written, held for a continuation, or held for the same continuation again. */
export type HoldBack =
  | { kind: 'write' }
  | { kind: 'continue'; verdict: 'cut' | 'probe' }
  | { kind: 'stalled' }
  | { kind: 'one-key'; total: number };

/**
 * Decides what the last key group of a response becomes (docs/completeness.md). When the response reached
 * the limit in force (cut) or a new high (probe), the group may be partial: it is held for a continuation
 * that starts at its key. It is written instead when that key is past the window's end (nothing there to
 * fetch), and when a continuation added nothing past where it started (the window ends); a full response of
 * repeated rows means the server ignores where a continuation starts. Every row sharing one key cannot be
 * continued at all.
 */
export function holdBack(
  group: HeldGroup,
  series: SeriesRequest | undefined,
  verdictOf: ((rows: number) => CutVerdict) | undefined,
  continuationFrom: string | undefined,
): HoldBack {
  const total = group.before + group.rows;
  const verdict = verdictOf?.(total) ?? 'complete';
  if (verdict === 'complete') return { kind: 'write' };
  const ascending = series?.order !== 'desc';
  const endKey =
    series?.window.end && series.filterEnd ? formatKey(series.window.end, series.resolution) : undefined;
  if (group.key !== undefined && ascending && endKey !== undefined && group.key >= endKey)
    return { kind: 'write' };
  if (continuationFrom !== undefined) {
    const beyond = (key: string | undefined) =>
      key !== undefined && (ascending ? key > continuationFrom : key < continuationFrom);
    if (!beyond(group.lastKeptKey) && !beyond(group.lastKey))
      return verdict === 'cut' && group.repeated > 0 ? { kind: 'stalled' } : { kind: 'write' };
  }
  if (group.rows < total && group.key !== undefined) return { kind: 'continue', verdict };
  return verdict === 'cut' ? { kind: 'one-key', total } : { kind: 'write' };
}
