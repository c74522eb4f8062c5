import { tmpdir } from 'node:os';
import { dirname } from 'node:path';
import { openBody } from '../http/open-body.js';
import { toMdgetError } from '../http/to-mdget-error.js';
import { MdgetError } from '../model/errors.js';
import { columnsOfOutput } from '../model/record-shapes.js';
import { closingBytes, newOutputState, type OutputState, writtenColumns } from '../pipeline/output-state.js';
import type { RunSettings } from '../plan/job.js';
import { optionNames } from '../plan/names.js';
import { describePlan, urlOf } from '../plan/planned-request.js';
import { pickColumns } from '../plan/rules.js';
import { type Sink, writeTo } from '../sink/atomic-file.js';
import { gzipSink } from '../sink/gzip-sink.js';
import { openSink } from '../sink/open-sink.js';
import { commitOutput, dropSink } from './commit.js';
import { checkListed, nextRequest } from './continuations.js';
import { fetchInto, progress } from './fetch-response.js';
import { OutputTally } from './kept-rows.js';
import { parquetOutput } from './parquet-output.js';
import { type OutputGroup, type OutputItem, openDeps, pathOf, type RunState } from './run-state.js';
import type { RunDeps } from './run-types.js';
import { Spools } from './spools.js';
import { copyGzipPrefix } from './update.js';
import { copyParquetRows } from './update-parquet.js';

export type { OutputGroup, OutputItem, RunState } from './run-state.js';

/**
 * Runs one output. A body cut short (MDGET_NETWORK) after the first bytes cannot be resumed in place, so a
 * file output starts over into a fresh temporary file while the failed request has tries left in the run
 * (the scheduler counts them); stdout cannot take bytes back.
 */
export async function runOutput(
  group: OutputGroup,
  options: RunSettings,
  deps: RunDeps,
  run: RunState,
): Promise<MdgetError | undefined> {
  const planned = group.items.length;
  for (let attempt = 1; ; attempt++) {
    const failure = await runOutputOnce(group, options, deps, run);
    const failed = group.items.find((item) => item.result.status === 'failed');
    const again =
      failure?.code === 'MDGET_NETWORK' &&
      group.output.kind === 'file' &&
      failed !== undefined &&
      run.scheduler.failedTry(urlOf(failed.plan, run.config)) &&
      !deps.signal?.aborted;
    if (!again) return failure;
    run.scheduler.retried({
      url: pathOf(group) ?? '',
      attempt,
      delayMs: 0,
      reason: `starting ${pathOf(group)} over: ${failure.message}`,
    });
    group.items.splice(planned); // continuations are found again
    for (const { result } of group.items)
      Object.assign(result, { status: 'not-run', rows: 0, bytes: 0, error: undefined });
  }
}

async function runOutputOnce(
  group: OutputGroup,
  settings: RunSettings,
  deps: RunDeps,
  run: RunState,
): Promise<MdgetError | undefined> {
  const path = pathOf(group);
  const { gzip } = settings;
  let sink: Sink;
  try {
    sink = await openSink(group.output, {
      stdout: deps.stdout,
      special: group.special ?? false,
      fsync: settings.fsync,
      // a gzip file cannot be cut in place: its kept rows are recompressed below (Parquet's are rewritten)
      ...(group.keepBytes === undefined || gzip ? {} : { keepBytes: group.keepBytes }),
    });
  } catch (error) {
    return toMdgetError(error);
  }
  if (gzip) {
    sink = gzipSink(sink);
    try {
      if (group.keepBytes && path) await copyGzipPrefix(path, group.keepBytes, sink.stream);
    } catch (error) {
      await sink.abort();
      const update = (deps.names ?? optionNames)('update');
      return toMdgetError(
        new MdgetError('MDGET_IO', `${update} cannot read ${path}: ${(error as Error).message}`),
      );
    }
  }
  const output = newOutputState(
    settings.format,
    settings.header,
    columnsOfOutput(group.items.map((i) => i.plan)),
  );
  const columns = output.columns;
  if (settings.columns && columns)
    output.pick = pickColumns(settings.columns, columns, deps.names ?? optionNames);
  // The kept bytes of an --update start with the header.
  if (group.keepBytes) output.headerWritten = true;
  if (settings.format === 'parquet') {
    try {
      sink = await parquetOutput(sink, group, output, settings);
      if (group.keepRows && path)
        await copyParquetRows(
          path,
          0,
          group.keepRows,
          sink.stream,
          writtenColumns(output) ?? [],
          settings.timeZone !== undefined,
        );
    } catch (error) {
      await sink.abort();
      return toMdgetError(error);
    }
  }
  if (group.headerKept) output.headerWritten = true;
  const tally = new OutputTally(group, path, {
    parquet: settings.format === 'parquet',
    gzip,
    columns: writtenColumns(output) ?? [],
    utc: settings.timeZone !== undefined,
  });
  // beside the output; a device's directory (/dev) is no place for them, nor is a stream's
  const spoolDir = settings.tempDir ?? (path === undefined || group.special ? tmpdir() : dirname(path));
  const spools = new Spools<OutputItem>(
    spoolDir,
    Math.min(settings.concurrency, 16) - 1,
    (item, signal) =>
      openBody(urlOf(item.plan, run.config), openDeps(deps, run), 'csv', { priority: 'ahead', signal }),
    (item, bytes, source) => progress(deps, run, item, path, source, bytes, 0, false),
    deps.signal,
  );
  try {
    return await writeOutput(group, sink, output, spools, settings, deps, run, tally);
  } finally {
    await spools.dispose();
  }
}

async function writeOutput(
  group: OutputGroup,
  sink: Sink,
  output: OutputState,
  spools: Spools<OutputItem>,
  options: RunSettings,
  deps: RunDeps,
  run: RunState,
  tally: OutputTally,
): Promise<MdgetError | undefined> {
  const { items } = group;
  for (let index = 0; index < items.length; index++) {
    const item = items[index]!;
    const { plan, result } = item;
    const started = Date.now();
    try {
      await tally.keptUpTo(plan.symbol, sink.stream);
      // this request asks for its slot before the read-aheads after it: the scheduler serves them in turn
      const body = spools.bodyOf(item) ?? openBody(urlOf(plan, run.config), openDeps(deps, run));
      body.catch(() => {}); // awaited by fetchInto; read-ahead may end the run first
      spools.readAhead(items, index);
      const transform = await fetchInto(item, body, sink, output, options, deps, run);
      await spools.done(item);
      if (plan.kind === 'dateRange') checkListed(plan, transform, run.config);
      result.rows = transform.rows;
      tally.wrote(plan.symbol, options.format === 'parquet' ? transform.rows : transform.bytesOut);
      result.status = transform.empty ? 'empty' : 'ok';
      if (transform.empty && !plan.continuation)
        deps.onNote?.(`no records for ${describePlan(plan)}`, {
          symbol: plan.symbol,
          ...(result.output === undefined ? {} : { file: result.output }),
        });
      const next = nextRequest(item, transform, run.cuts, run.config);
      if (next) items.splice(index + 1, 0, next);
    } catch (error) {
      result.durationMs = Date.now() - started;
      if (sink.closed) {
        run.stdoutClosed = true;
        result.status = 'ok';
        await sink.abort();
        return undefined;
      }
      await sink.abort(); // first: classifying may rethrow an unexpected error (a bug, exit 1)
      const failure = toMdgetError(error, urlOf(plan, run.config), deps.secrets);
      result.status = 'failed';
      result.error = { code: failure.code, message: failure.message };
      return failure;
    }
    result.durationMs = Date.now() - started;
  }
  try {
    await tally.keptUpTo(undefined, sink.stream);
    const closing = closingBytes(output);
    if (closing) await writeTo(sink.stream, closing);
    tally.wrote(items.at(-1)?.plan.symbol ?? '', Buffer.byteLength(closing));
  } catch (error) {
    return dropSink(error, sink, run);
  }
  if (group.recipe) group.ends = tally.endsOf(group.recipe.symbols);
  return commitOutput(
    group,
    sink,
    items.some((i) => i.plan.series?.provisional),
    run,
  );
}
