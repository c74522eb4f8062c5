import { type Config, requireConfig } from '../model/config.js';
import { interruptedError, MdgetError } from '../model/errors.js';
import { carriesContract } from '../model/record-shapes.js';
import { redactUrl } from '../model/redact.js';
import type { Job, RunSettings } from '../plan/job.js';
import { type NameOf, optionNames } from '../plan/names.js';
import { outputKey } from '../plan/outputs.js';
import { type PlannedRequest, urlOf, windowOf } from '../plan/planned-request.js';
import { recipeOf } from '../plan/recipe.js';
import type { OutputMemory } from '../sink/file-memory.js';
import { isFinal } from '../sink/provisional.js';
import { checkTarget, makeDirectoriesFor, type TargetKind, targetKind } from '../sink/targets.js';
import { CommitGate } from './commit-gate.js';
import { CutTracker } from './cut-tracker.js';
import { runOutput } from './output-run.js';
import { resumeRecorded } from './resume-recorded.js';
import type { OutputGroup, OutputItem, RunState } from './run-state.js';
import type { BatchResult, JobDeps, RequestResult } from './run-types.js';
import { RequestScheduler } from './scheduler.js';
import { type ResumeShape, readResumePoint, resumeItems } from './update.js';

/**
 * Runs a job (plan/resolve.ts). Every output is looked at before anything is created or sent: one in the
 * way is refused, one that exists is resumed (--update), skipped (--skip-existing) or replaced (--force);
 * then the directories of new outputs are made. Outputs run `concurrency` at a time, each writing its
 * requests in order, completed by further requests where a response was cut; the scheduler holds the
 * requests in flight to `concurrency` across them all. An output is committed only when all its requests
 * succeeded.
 */
export async function runJob(job: Job, deps: JobDeps): Promise<BatchResult> {
  const { settings } = job;
  const { config } = deps;
  // the configuration the requests are built on and signed with, checked before anything is touched
  requireConfig(config, job.needs);
  const names = deps.names ?? optionNames;
  const groups = groupsOf(job.requests, config);
  const pending: OutputGroup[] = [];
  const resumedAway: RequestResult[] = [];
  const kinds = new Map<OutputGroup, TargetKind>();
  // a time series written to a file is remembered with how it was made, for a later --update to check
  if (deps.memory)
    for (const group of groups)
      if (group.output.kind === 'file' && group.items[0]?.plan.series)
        group.recipe = recipeOf(
          job.command,
          group.items.map((item) => item.plan),
          settings,
        );
  const replace = settings.force || settings.skipExisting || settings.update;
  for (const group of groups)
    if (group.output.kind === 'file')
      kinds.set(group, checkTarget(group.output.path, replace, names, 'skipExisting'));
  for (const group of groups) {
    const kind = kinds.get(group);
    const path = group.output.kind === 'file' ? group.output.path : '';
    if (kind === 'special') {
      group.special = true; // a device, FIFO or /dev/stdout is written as it is, never replaced
      pending.push(group);
      continue;
    }
    if (kind === 'file' && settings.update) {
      const before = group.items;
      if (deps.memory && group.recipe) {
        const memory = await deps.memory.recall(path);
        await resumeRecorded(
          group,
          path,
          memory,
          group.recipe,
          shapeOf(group, settings),
          names,
          config,
        ).catch((error: unknown) => {
          throw error instanceof MdgetError ? error : readError(names('update'), path, error);
        });
      } else if (!(await resume(group, path, settings, names('update'), config))) continue;
      resumedAway.push(...skippedResults(before, group.items));
      if (group.items.length === 0) {
        deps.onNote?.(`${path} is up to date (${names('update')})`);
        continue;
      }
      pending.push(group);
      continue;
    }
    // A provisional file (its data reached past the cut-off) is fetched again.
    if (kind === 'file' && settings.skipExisting && isFinal(path)) {
      for (const item of group.items) item.result.status = 'skipped';
      continue;
    }
    pending.push(group);
  }
  const made = await makeDirectoriesFor(
    pending
      .filter((g) => kinds.get(g) === 'missing')
      .map((g) => (g.output.kind === 'file' ? g.output.path : '')),
    names('output'),
  );

  const cuts = new CutTracker(settings.maxRows === undefined ? {} : { maxRows: settings.maxRows });
  const plan = {
    requests: pending.reduce((sum, g) => sum + g.items.length, 0),
    outputs: pending.length,
    skipped: groups.length - pending.length,
  };
  deps.onPlan?.({ ...plan });
  const scheduler = new RequestScheduler({ ...deps, concurrency: settings.concurrency });
  const run: RunState = {
    config,
    cuts,
    nextId: 0,
    stdoutClosed: false,
    commits: [],
    commitGate: new CommitGate(),
    plan,
    scheduler,
    ...(deps.onCommitted ? { onCommitted: deps.onCommitted } : {}),
    ...(deps.memory ? { memory: deps.memory } : {}),
  };
  const failures: MdgetError[] = [];
  const queue = [...pending];
  const worker = async () => {
    for (
      let group = queue.shift();
      group && !run.stdoutClosed && !deps.signal?.aborted;
      group = queue.shift()
    ) {
      const failure = await runOutput(group, settings, deps, run);
      if (failure) failures.push(failure);
    }
  };
  await Promise.all(
    // One output a request slot: more open at once measured within noise (bench/README.md, "Batch against
    // the floor") and let the order requests leave in follow whichever file opened first.
    Array.from({ length: Math.min(settings.concurrency, pending.length) }, worker),
  );
  for (const failure of await Promise.all(run.commits)) if (failure) failures.push(failure);

  const results = [...resumedAway, ...groups.flatMap((g) => g.items.map((i) => i.result))];
  const written = results.some((r) => r.status === 'ok' || r.status === 'empty');
  const result: BatchResult = {
    results,
    stdoutClosed: run.stdoutClosed,
    counts: {
      ...scheduler.counts,
      continuations: results.filter((r) => r.continuation?.reason === 'cut').length,
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
    // Partial means "the rest were written": with nothing written the first failure speaks for all.
    result.failure = written
      ? new MdgetError(
          'MDGET_PARTIAL',
          `${failures.length} of ${pending.length} outputs failed (first: ${failures[0]!.message})`,
        )
      : failures[0];
  }
  // a failed run takes back the directories it made that are still empty
  if (result.failure) await made.removeEmpty();
  return result;
}

/**
 * The requests an --update would send (its --dry-run): each existing file checked against its memory and
 * resumed per symbol as runJob does; nothing is sent or written.
 */
export async function updatedJob(
  job: Job,
  memory: OutputMemory,
  names: NameOf,
  config: Config,
): Promise<Job> {
  const requests: PlannedRequest[] = [];
  for (const group of groupsOf(job.requests, config)) {
    const path = group.output.kind === 'file' ? group.output.path : undefined;
    if (path !== undefined && group.items[0]?.plan.series && targetKind(path) === 'file') {
      const recipe = recipeOf(
        job.command,
        group.items.map((item) => item.plan),
        job.settings,
      );
      const shape = shapeOf(group, job.settings);
      await resumeRecorded(group, path, await memory.recall(path), recipe, shape, names, config).catch(
        (error: unknown) => {
          throw error instanceof MdgetError ? error : readError(names('update'), path, error);
        },
      );
    }
    requests.push(...group.items.map((item) => item.plan));
  }
  return { ...job, requests };
}

/** The outputs of a job in the order of their first request, each with its requests in order. */
function groupsOf(requests: readonly PlannedRequest[], config: Config): OutputGroup[] {
  const groups = new Map<string, OutputGroup>();
  for (const plan of requests) {
    const key = outputKey(plan.output);
    let group = groups.get(key);
    if (!group) {
      group = { output: plan.output, items: [] };
      groups.set(key, group);
    }
    group.items.push({
      plan,
      result: {
        url: redactUrl(urlOf(plan, config)),
        symbol: plan.symbol,
        ...windowOf(plan),
        zone: plan.zone,
        status: 'not-run' as const,
        rows: 0,
        bytes: 0,
        durationMs: 0,
        ...(plan.output.kind === 'file' ? { output: plan.output.path } : {}),
      },
    });
  }
  return [...groups.values()];
}

/**
 * --update: resumes an existing output at the key of its last rows (update.ts). Returns false when the
 * group holds no time series to resume; a file without a row is rewritten whole.
 */
async function resume(
  group: OutputGroup,
  path: string,
  settings: RunSettings,
  update: string,
  config: Config,
): Promise<boolean> {
  if (!group.items[0]?.plan.series) return false;
  const point = await readResumePoint(path, shapeOf(group, settings)).catch((error: unknown) => {
    throw readError(update, path, error);
  });
  if (!point) return true;
  group.items = resumeItems(group.items, point, config);
  if (point.keepBytes !== undefined) group.keepBytes = point.keepBytes;
  if (point.keepRows !== undefined) group.keepRows = point.keepRows;
  return true;
}

/** How the rows of a group's file are read back (its first request is a time series). */
function shapeOf(group: OutputGroup, settings: RunSettings): ResumeShape {
  const first = group.items[0]!.plan;
  return {
    format: settings.format,
    gzip: settings.gzip,
    kind: first.kind,
    resolution: first.series!.resolution,
    trend: first.trend,
    contract: carriesContract(group.items.map((i) => i.plan)),
    ...(settings.columns ? { columns: settings.columns } : {}),
    sourceZone: first.zone,
  };
}

const readError = (update: string, path: string, error: unknown) =>
  new MdgetError('MDGET_IO', `${update} cannot read ${path}: ${(error as Error).message}`);

/** The results of requests an --update found nothing to fetch for, marked skipped for the report. */
function skippedResults(before: readonly OutputItem[], after: readonly OutputItem[]): RequestResult[] {
  const kept = new Set(after.map((i) => i.result.url));
  return before
    .filter((i) => !kept.has(i.result.url))
    .map((i) => ({ ...i.result, status: 'skipped' as const }));
}
