/**
 * What a sync does with each planned file, from its ledger row and the file on disk: nothing (complete),
 * record it without a request (adopt: a file of one window in place whose row was lost), or fetch it,
 * appended to (resume) or whole (replace), with the reason `--dry-run` shows. A file is extended or kept
 * only once it is checked to be what its row recorded (docs/dataset.md#what-sync-checks).
 */
import { statSync } from 'node:fs';
import { isFinal } from '../sink/provisional.js';
import { formDifference } from './file-form.js';
import type { LedgerRow, Share } from './ledger.js';
import type { DatasetOutput } from './series-plan.js';

/**
 * Why a file is fetched: no file; its row is provisional; its bytes differ from its row; it was made with
 * other settings; its window grew; or it is a growing file no row vouches for.
 */
export type FetchReason = 'missing' | 'provisional' | 'changed' | 'settings' | 'extended' | 'unrecorded';

export type Decision =
  | {
      output: DatasetOutput;
      action: 'complete' /** the file's time moved, its bytes did not */;
      mtimeMs?: number;
    }
  | { output: DatasetOutput; action: 'adopt' }
  | {
      output: DatasetOutput;
      action: 'fetch';
      reason: FetchReason;
      mode: 'replace' | 'resume';
      /** What was found, for the note a sync gives of a file it writes whole again. */
      detail?: string;
      /** The rows a provisional file held: an answer with none does not replace it (sync-series.ts). */
      hadRows?: number;
    };

export interface DecideOptions {
  /** The SHA-256 of a file's bytes. */
  hash: (path: string) => Promise<string>;
  /** The form (file-form.ts) the series' files are written in now. */
  form: string;
  /** Hash every file, not only those to extend or whose time moved (`--repair`). */
  repair?: boolean;
}

/** Decides for every output; `rows` are the ledger's rows by key. */
export async function decide(
  outputs: readonly DatasetOutput[],
  rows: ReadonlyMap<string, LedgerRow>,
  options: DecideOptions,
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
  const growing = output.series.growing;
  // events and futures options have no time key to resume from: their files are written whole
  const resumable = growing && output.requests.every((r) => r.series !== undefined);
  const fetch = (reason: FetchReason, mode: 'replace' | 'resume' = 'replace', detail?: string): Decision => ({
    output,
    action: 'fetch',
    reason,
    mode,
    ...(detail === undefined ? {} : { detail }),
  });
  if (!info?.isFile()) return fetch('missing');
  if (!row) {
    // Nothing vouches for the rows of a growing file: it is written whole. A file of one window in place
    // and final was committed by a sync that stopped before its row: hashed and recorded as it is.
    if (growing) return fetch('unrecorded', 'replace', 'no ledger row: written whole');
    return isFinal(output.path) && !output.provisional ? { output, action: 'adopt' } : fetch('provisional');
  }
  if (info.size !== row.bytes)
    return fetch('changed', 'replace', `${info.size} bytes, the ledger recorded ${row.bytes}`);
  const later = growing && endsAfter(output.window.end, row.windowEnd);
  const earlier =
    growing &&
    output.window.start !== undefined &&
    row.windowStart !== undefined &&
    output.window.start < row.windowStart;
  // what happens to the file unless a check below says otherwise
  const plan: Decision = earlier
    ? fetch('extended')
    : row.provisional
      ? fetch('provisional', resumable ? 'resume' : 'replace')
      : later
        ? fetch('extended', resumable ? 'resume' : 'replace')
        : { output, action: 'complete' };
  const extending = plan.action === 'fetch' && plan.mode === 'resume';
  // a dataset holds one form: a file made otherwise is written again, whether it grows or not
  if (row.form !== undefined && row.form !== options.form)
    return fetch(
      'settings',
      'replace',
      `made with other settings (${formDifference(row.form, options.form)}): written whole`,
    );
  if (extending && row.form === undefined)
    return fetch('settings', 'replace', 'its row does not say how it was made: written whole');
  const kept = plan.action === 'complete' || extending;
  const moved = info.mtimeMs !== row.mtimeMs;
  if (kept && (extending || moved || options.repair)) {
    if ((await options.hash(output.path)) !== row.sha256)
      return fetch('changed', 'replace', 'same size, another SHA-256 than its ledger row: written whole');
  }
  if (plan.action === 'complete' && moved) return { output, action: 'complete', mtimeMs: info.mtimeMs };
  if (plan.action === 'fetch' && plan.reason === 'provisional' && plan.mode === 'replace' && row.rows)
    return { ...plan, hadRows: row.rows };
  return plan;
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
