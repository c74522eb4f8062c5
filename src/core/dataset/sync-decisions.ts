/**
 * What a sync does with each planned file, from its ledger row and the file on disk: nothing (complete),
 * record it without a request (adopt: a file in place whose row a crash lost), or fetch it, appended to
 * (resume) or whole (replace), with the reason `--dry-run` shows.
 */
import { statSync } from 'node:fs';
import { isFinal } from '../sink/provisional.js';
import type { LedgerRow, Share } from './ledger.js';
import type { DatasetOutput } from './series-plan.js';

/** Why a file is fetched: it has no file, its row is provisional, its bytes differ, or its window grew. */
export type FetchReason = 'missing' | 'provisional' | 'changed' | 'extended';

export type Decision =
  | { output: DatasetOutput; action: 'complete' }
  | { output: DatasetOutput; action: 'adopt' }
  | { output: DatasetOutput; action: 'fetch'; reason: FetchReason; mode: 'replace' | 'resume' };

export interface DecideOptions {
  /** Re-hash files whose size matches too (`--repair`): a changed byte is found as well. */
  hash?: (path: string) => Promise<string>;
}

/** Decides for every output; `rows` are the ledger's rows by key. */
export async function decide(
  outputs: readonly DatasetOutput[],
  rows: ReadonlyMap<string, LedgerRow>,
  options: DecideOptions = {},
): Promise<Decision[]> {
  const decisions: Decision[] = [];
  for (const output of outputs) decisions.push(await decideOne(output, rows.get(output.key), options));
  return decisions;
}

async function decideOne(
  output: DatasetOutput,
  row: LedgerRow | undefined,
  options: DecideOptions,
): Promise<Decision> {
  // synchronous: one stat a file, and a no-op sync of 100,000 files waits on nothing else
  const info = statSync(output.path, { throwIfNoEntry: false });
  const size = info?.isFile() ? info.size : undefined;
  const growing = output.series.growing;
  const fetch = (reason: FetchReason, mode: 'replace' | 'resume' = 'replace'): Decision => ({
    output,
    action: 'fetch',
    reason,
    mode,
  });
  if (size === undefined) return fetch('missing');
  if (!row) {
    // A file that grows is resumed from its own last rows; a file of one window in place and final was
    // committed by a sync that stopped before its row: recorded as it is.
    if (growing) return fetch('extended', 'resume');
    return isFinal(output.path) && !output.provisional ? { output, action: 'adopt' } : fetch('provisional');
  }
  if (size !== row.bytes) return fetch('changed');
  if (options.hash && (await options.hash(output.path)) !== row.sha256) return fetch('changed');
  if (
    growing &&
    output.window.start !== undefined &&
    row.windowStart !== undefined &&
    output.window.start < row.windowStart
  )
    return fetch('extended');
  if (row.provisional) return fetch('provisional', growing ? 'resume' : 'replace');
  if (growing && endsAfter(output.window.end, row.windowEnd)) return fetch('extended', 'resume');
  return { output, action: 'complete' };
}

/** A window end past the recorded one (no end: open, always later). */
const endsAfter = (planned: string | undefined, recorded: string | undefined): boolean =>
  recorded !== undefined && (planned === undefined || planned > recorded);

/**
 * The share of a shard: outputs by a hash of their key, so a file belongs to the same shard whatever else
 * the dataset holds (a position in the plan would move when a symbol is added).
 */
export function inShare(key: string, share: Share | undefined): boolean {
  if (!share || share.count <= 1) return true;
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) hash = Math.imul(hash ^ key.charCodeAt(i), 0x01000193) >>> 0;
  return hash % share.count === share.index - 1;
}
