import { interruptedError, MdgetError } from '../model/errors.js';
import { redactUrl } from '../model/redact.js';
import { plannedOutputs } from '../plan/outputs.js';
import type { PlannedRequest } from '../plan/planned-request.js';
import { gzipped } from '../sink/gzip-sink.js';
import { isFinal } from '../sink/provisional.js';
import { directoryTargetError, makeDirectoriesFor, type TargetKind, targetKind } from '../sink/targets.js';
import { marketZone } from '../time/dates.js';
import { CutTracker } from './cut-tracker.js';
import {
  hasContractColumn,
  type OutputGroup,
  type OutputItem,
  type RunState,
  runOutput,
} from './output-run.js';
import type { BatchOptions, BatchResult, RequestResult, RunDeps } from './run-types.js';
import { RequestScheduler } from './scheduler.js';
import { readResumePoint, resumeItems } from './update.js';

/**
 * Runs the planned requests: outputs are checked for clobbering and their directories created before the
 * first request; requests for one output run in order and are concatenated, completed by further requests
 * where a response was cut; separate outputs run `concurrency` at a time. An output is committed only when
 * all its requests succeeded.
 */
export async function runBatch(
  plans: readonly PlannedRequest[],
  options: BatchOptions,
  deps: RunDeps,
): Promise<BatchResult> {
  const groups: OutputGroup[] = [...plannedOutputs(plans, options)].map(([target, list]) => ({
    target,
    items: list.map((plan) => ({
      plan,
      result: {
        url: redactUrl(plan.url),
        symbol: plan.symbol,
        ...(plan.start ? { start: plan.start } : {}),
        ...(plan.end ? { end: plan.end } : {}),
        status: 'not-run' as const,
        rows: 0,
        bytes: 0,
        durationMs: 0,
        output: target,
      },
    })),
  }));
  const pending: OutputGroup[] = [];
  const resumedAway: RequestResult[] = [];
  // Every target is looked at before anything is created or sent (issue 10): a refusal leaves no trace.
  const kinds = new Map<OutputGroup, TargetKind>();
  for (const group of groups) if (group.target !== '-') kinds.set(group, targetKind(group.target));
  for (const group of groups) {
    const kind = kinds.get(group);
    if (kind === 'directory') throw directoryTargetError(group.target);
    if (kind === 'special') {
      group.special = true; // a device, FIFO or /dev/stdout is written as it is, never replaced
      pending.push(group);
      continue;
    }
    if (kind === 'file' && options.update) {
      const before = group.items;
      if (!(await resumeGroup(group, options))) continue;
      resumedAway.push(...skippedResults(before, group.items));
      if (group.items.length === 0) {
        deps.onNote?.(`${group.target} is up to date (--update)`);
        continue;
      }
      pending.push(group);
      continue;
    }
    // A provisional file (its data reached past the cut-off) is fetched again (issue 8).
    if (kind === 'file' && options.skipExisting && isFinal(group.target)) {
      for (const item of group.items) item.result.status = 'skipped';
      deps.onNote?.(`skipped ${group.target}: it exists (--skip-existing)`);
      continue;
    }
    if (kind === 'file' && !options.force && !options.skipExisting) {
      throw new MdgetError(
        'MDGET_IO',
        `${group.target} exists: pass --force to overwrite or --skip-existing to keep it`,
      );
    }
    pending.push(group);
  }
  await makeDirectoriesFor(pending.filter((g) => kinds.get(g) === 'missing').map((g) => g.target));

  const cuts = new CutTracker(options.maxRows === undefined ? {} : { maxRows: options.maxRows });
  const plan = {
    requests: pending.reduce((sum, g) => sum + g.items.length, 0),
    outputs: pending.length,
    skipped: groups.length - pending.length,
  };
  deps.onPlan?.({ ...plan });
  const scheduler = new RequestScheduler({ ...deps, concurrency: options.concurrency });
  const run: RunState = {
    cuts,
    nextId: 0,
    stdoutClosed: false,
    commits: [],
    inFlight: new Set(),
    plan,
    scheduler,
  };
  const failures: MdgetError[] = [];
  const queue = [...pending];
  const worker = async () => {
    for (
      let group = queue.shift();
      group && !run.stdoutClosed && !deps.signal?.aborted;
      group = queue.shift()
    ) {
      const failure = await runOutput(group, options, deps, run);
      if (failure) failures.push(failure);
    }
  };
  const width = pending.some((g) => g.target === '-') ? 1 : Math.max(1, options.concurrency);
  await Promise.all(Array.from({ length: Math.min(width, pending.length) }, worker));
  for (const failure of await Promise.all(run.commits)) if (failure) failures.push(failure);

  const results = [...resumedAway, ...groups.flatMap((g) => g.items.map((i) => i.result))];
  const added = results.filter((r) => r.continuation);
  const result: BatchResult = {
    results,
    stdoutClosed: run.stdoutClosed,
    completion: {
      continuations: added.filter((r) => r.continuation?.reason === 'cut').length,
      probes: cuts.probes,
      probeHits: cuts.probeHits,
    },
  };
  const aborted =
    failures.find((f) => f.code === 'MDGET_ABORTED') ??
    (deps.signal?.aborted ? interruptedError() : undefined);
  if (aborted) result.failure = aborted;
  else if (failures.length === 1 && pending.length === 1) result.failure = failures[0];
  else if (failures.length > 0) {
    // 7 means "the rest were written" (cli.md): with nothing written the first failure speaks for all.
    const written = results.some((r) => r.status === 'ok' || r.status === 'empty');
    result.failure = written
      ? new MdgetError(
          'MDGET_PARTIAL',
          `${failures.length} of ${pending.length} outputs failed (first: ${failures[0]!.message})`,
        )
      : failures[0];
  }
  return result;
}

/**
 * --update: resumes an existing output at the key of its last rows (update.ts). Returns false when the
 * group holds no time series to resume; a file without a row is rewritten whole.
 */
async function resumeGroup(group: OutputGroup, options: BatchOptions): Promise<boolean> {
  const first = group.items[0]?.plan;
  if (!first?.series) return false;
  const resume = await readResumePoint(group.target, {
    format: options.format,
    gzip: gzipped(group.target, options.gzip),
    kind: first.kind,
    resolution: first.series.resolution,
    trend: first.trend,
    contract: hasContractColumn(group),
    ...(options.columns ? { columns: options.columns } : {}),
    sourceZone: options.sourceTimeZone ?? first.zone ?? marketZone(first.symbol),
  }).catch((error: unknown) => {
    throw new MdgetError('MDGET_IO', `--update cannot read ${group.target}: ${(error as Error).message}`);
  });
  if (!resume) return true;
  group.items = resumeItems(group.items, resume);
  group.keepBytes = resume.keepBytes;
  return true;
}

/** The results of requests an --update found nothing to fetch for, marked skipped for the report. */
function skippedResults(before: readonly OutputItem[], after: readonly OutputItem[]): RequestResult[] {
  const kept = new Set(after.map((i) => i.result.url));
  return before
    .filter((i) => !kept.has(i.result.url))
    .map((i) => ({ ...i.result, status: 'skipped' as const }));
}
