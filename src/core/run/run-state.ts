import type { OpenDeps } from '../http/open-body.js';
import type { Config } from '../model/config.js';
import type { MdgetError } from '../model/errors.js';
import type { OutputRef, PlannedRequest } from '../plan/planned-request.js';
import type { Recipe } from '../plan/recipe.js';
import type { OutputMemory } from '../sink/file-memory.js';
import type { CommitGate } from './commit-gate.js';
import type { CutTracker } from './cut-tracker.js';
import type { PlanEvent, RequestResult, RunDeps } from './run-types.js';
import type { RequestScheduler } from './scheduler.js';

/** The requests that write one output (a file, or the run's stream), in the order their bytes go out. */
export interface OutputGroup {
  output: OutputRef;
  items: OutputItem[];
  /** --update: bytes of the existing file kept before the new rows (update.ts). */
  keepBytes?: number;
  /** --update of a Parquet file: its first rows, read back and written again before the new ones. */
  keepRows?: number;
  /**
   * --update of a file with a memory (resume-recorded.ts): per symbol in the file's order, the ranges of
   * the old file (decompressed bytes, or Parquet rows) written before that symbol's new rows.
   */
  copies?: { symbol: string; ranges: [number, number][] }[];
  /** The copies begin with the old file's csv header. */
  headerKept?: boolean;
  /** How the output is made, kept with it once it is in place (sink/file-memory.ts). */
  recipe?: Recipe;
  /** Where each symbol's rows end in the file written (kept with the recipe). */
  ends?: number[];
  /** The target is a device, FIFO or the like: written directly (sink/targets.ts). */
  special?: boolean;
}

/** The file an output writes, or undefined for the run's stream. */
export const pathOf = (group: OutputGroup): string | undefined =>
  group.output.kind === 'file' ? group.output.path : undefined;

/** One request of an output and its result, as the report will list it. */
export interface OutputItem {
  plan: PlannedRequest;
  result: RequestResult;
}

/** What the outputs of one run share: the cap memory, ids for progress, whether stdout went away. */
export interface RunState {
  /** Where requests go and what signs them (plan/planned-request.ts urlOf). */
  config: Config;
  cuts: CutTracker;
  nextId: number;
  stdoutClosed: boolean;
  /** Commits of file outputs still running: each resolves to its failure, if any. */
  commits: Promise<MdgetError | undefined>[];
  /** Holds the outputs back while too many commits run. */
  commitGate: CommitGate;
  /** The plan's size, as told to onPlan. */
  plan: PlanEvent;
  /** Every request of the run goes through it: --concurrency, --rate, retries. */
  scheduler: RequestScheduler;
  onCommitted?: RunDeps['onCommitted'];
  /** Where file memories are kept; none: files are neither checked nor remembered (a dataset's ledger). */
  memory?: OutputMemory;
}

/** What opening a body of the run needs: its scheduler, secrets and request listener. */
export const openDeps = (deps: RunDeps, run: RunState): OpenDeps => ({
  opener: run.scheduler,
  ...(deps.secrets ? { secrets: deps.secrets } : {}),
  ...(deps.onRequest ? { onRequest: deps.onRequest } : {}),
});

const ids = new WeakMap<OutputItem, number>();

/** A request's id in progress events, given on first use. */
export function idOf(item: OutputItem, run: RunState): number {
  let id = ids.get(item);
  if (id === undefined) {
    id = run.nextId++;
    ids.set(item, id);
  }
  return id;
}
