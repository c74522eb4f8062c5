import type { Writable } from 'node:stream';
import { isMdgetError, usageError } from '../model/errors.js';
import { type NameOf, optionNames } from '../plan/names.js';
import type { OutputRef } from '../plan/planned-request.js';
import type { Sink } from '../sink/atomic-file.js';
import { openSink } from '../sink/open-sink.js';
import { checkTarget, makeDirectoriesFor, writtenPath } from '../sink/targets.js';
import type { InstrumentEntry } from './instrument-stream.js';
import type { OutputDeps, ReferenceResult, TablesOptions } from './options.js';
import { writeTables } from './table-writers.js';

/** An output checked before any request: the stream, a file written by rename, or a special file. */
export interface CheckedOutput {
  output: OutputRef;
  /** A device, FIFO or stream named by a path (writers/targets.ts): never replaced, never refused as existing. */
  special: boolean;
}

/**
 * Checks `-o` before any request, as a download does (docs/cli.md#outputs): a directory is refused, an
 * existing file unless `force` (exit 6), a new file's directory is created; a special file is written
 * directly, which a SQLite database, built beside its target and renamed, cannot be (exit 2).
 */
export async function checkOutput(
  options: { output?: string; force: boolean },
  database = false,
  names: NameOf = optionNames,
): Promise<CheckedOutput> {
  const { output: path, force } = options;
  if (path === undefined) return { output: { kind: 'stream' }, special: false };
  const output: OutputRef = { kind: 'file', path };
  const kind = checkTarget(path, force, names);
  if (kind === 'special') {
    if (database) {
      throw usageError(
        `${names('output')} ${path}: ${names('format')} sqlite needs a regular file (a database is built beside it and renamed), not a device, FIFO or stream`,
      );
    }
    return { output, special: true };
  }
  if (kind === 'missing') await makeDirectoriesFor([path], names('output'));
  return { output, special: false };
}

/** Opens the sink, runs `write` into it, commits; on failure drops it. A closed stdout ends quietly. */
export async function writeOutput(
  target: CheckedOutput,
  deps: OutputDeps,
  write: (out: Writable) => Promise<number>,
): Promise<{ written: number; stdoutClosed: boolean }> {
  const sink: Sink = await openSink(target.output, { stdout: deps.stdout, special: target.special });
  // The writers see a destroyed stream only as "closed": keep the reason (disk full, EPIPE) it failed with.
  let streamError: unknown;
  sink.stream.on('error', (error) => {
    streamError ??= error;
  });
  try {
    const written = await write(sink.stream);
    await sink.commit();
    return { written, stdoutClosed: sink.closed };
  } catch (error) {
    await sink.abort();
    if (sink.closed) return { written: 0, stdoutClosed: true };
    throw isMdgetError(streamError) ? streamError : error;
  }
}

/** Writes the profile tables of `entries` to a checked output in the format asked for. */
export async function writeEntries(
  options: TablesOptions,
  target: CheckedOutput,
  entries: AsyncIterable<InstrumentEntry>,
  deps: OutputDeps,
): Promise<ReferenceResult> {
  if (options.format === 'sqlite') {
    // Loaded here: importing the library must not load a native addon.
    const { writeSqlite } = await import('./sqlite-writer.js');
    // a database is a file (checkTablesOptions refused a stream)
    const path = target.output.kind === 'file' ? target.output.path : '';
    const counts = await writeSqlite(entries, await writtenPath(path), {
      onWarning: (m) => deps.onNote?.(m),
    });
    return { written: counts.instruments, output: path, stdoutClosed: false, sqlite: counts };
  }
  const { format, table, compression } = options;
  const result = await writeOutput(target, deps, async (out) => {
    if (format !== 'parquet') return writeTables(format, entries, out, table === undefined ? {} : { table });
    const { writeParquetTable } = await import('./parquet-table.js');
    return writeParquetTable(entries, out, table, compression);
  });
  return { ...result, ...outputOf(options) };
}

/** A result's output: the file written, absent for the stream. */
export const outputOf = (options: { output?: string }): { output?: string } =>
  options.output === undefined ? {} : { output: options.output };
