/**
 * The --report file: what a run was (version, command, arguments, times, exit status), its totals, and
 * one entry per request. Its shape is docs/report.schema.json; every secret is redacted.
 */
import { rename, rm, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { MdgetError, reasonOf } from '../core/model/errors.js';
import { redactText } from '../core/model/redact.js';
import { runTotals } from '../core/run/run-totals.js';
import type { BatchResult, RequestResult } from '../core/run/run-types.js';
import { tempPathFor } from '../core/sink/atomic-file.js';
import { checkTarget, makeDirectoriesFor } from '../core/sink/targets.js';
import { checkWritableDirectory } from '../core/sink/writable.js';
import type { RunContext } from './context.js';
import { flagNames } from './flag-names.js';

/** One request as a command reports it: a download's result, or a reference command's fetch. */
export type ReportInput = Pick<RequestResult, 'url' | 'status' | 'durationMs' | 'output' | 'error'> &
  Partial<RequestResult>;

/** Refuses a --report path that cannot be written, before any request (exit 6), and makes its directory. */
export async function checkReportPath(path: string): Promise<void> {
  // a report is replaced whatever is there, but a directory
  const kind = checkTarget(path, true, (option) => (option === 'output' ? '--report' : flagNames(option)));
  if (kind === 'missing') await makeDirectoriesFor([resolve(path)], '--report');
  await checkWritableDirectory(dirname(resolve(path)), `--report ${path}`);
}

/** The totals of a download: requests sent, of which continuations and retries; rows, bytes and files written. */
export function totalsOf(result: BatchResult): Record<string, number> {
  const { failed: _failed, ...totals } = runTotals(result);
  return totals;
}

/** Writes the --report file atomically. */
export async function writeReport(
  path: string,
  command: string,
  run: { entries: readonly ReportInput[]; totals: Record<string, number>; error?: unknown },
  ctx: RunContext,
): Promise<void> {
  const report = {
    mdget: ctx.version,
    command,
    arguments: ctx.argv,
    started: ctx.now.toISOString(),
    ended: new Date().toISOString(),
    exitCode: ctx.exitCodeOf(run.error),
    totals: run.totals,
    requests: run.entries.map((entry) => ({ ...entry, output: entry.output ?? '-' })),
  };
  const text = redactText(`${JSON.stringify(report, null, 2)}\n`, ctx.secrets);
  const temp = tempPathFor(path);
  try {
    await writeFile(temp, text);
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true });
    throw new MdgetError('MDGET_IO', `cannot write --report ${path}: ${reasonOf(error)}`);
  }
}
