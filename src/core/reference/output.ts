import type { Writable } from 'node:stream';
import { isMdgetError, MdgetError, usageError } from '../model/errors.js';
import type { Sink } from '../sink/atomic-file.js';
import { openSink } from '../sink/open-sink.js';
import { directoryTargetError, makeDirectoriesFor, targetKind, writtenPath } from '../sink/targets.js';
import type { InstrumentEntry } from './instrument-stream.js';
import type { OutputDeps, ReferenceResult, TablesOptions } from './options.js';
import { writeTables } from './table-writers.js';

/** An output checked before any request: `-`, a file written by rename, or a special file written directly. */
export interface CheckedOutput {
  output: string;
  /** A device, FIFO or stream named by a path (writers/targets.ts): never replaced, never refused as existing. */
  special: boolean;
}

/**
 * Checks `-o` before any request, as a download does (issue 10): a directory is refused, an existing file
 * unless `force` (exit 6), a new file's directory is created; a special file is written directly, which a
 * SQLite database, built beside its target and renamed, cannot be (exit 2).
 */
export async function checkOutput(
  options: { output: string; force: boolean },
  database = false,
): Promise<CheckedOutput> {
  const { output, force } = options;
  if (output === '-') return { output, special: false };
  const kind = targetKind(output);
  if (kind === 'special') {
    if (database) {
      throw usageError(
        `-o ${output}: --format sqlite needs a regular file (a database is built beside it and renamed), not a device, FIFO or stream`,
      );
    }
    return { output, special: true };
  }
  if (kind === 'file' && !force)
    throw new MdgetError('MDGET_IO', `${output} exists: pass --force to overwrite it`);
  if (kind === 'directory') throw directoryTargetError(output);
  if (kind === 'missing') await makeDirectoriesFor([output]);
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
    // Loaded here: importing the library must not load a native addon (STYLE §3).
    const { writeSqlite } = await import('./sqlite-writer.js');
    const counts = await writeSqlite(entries, await writtenPath(target.output), {
      onWarning: (m) => deps.onNote?.(m),
    });
    return { written: counts.instruments, output: options.output, stdoutClosed: false, sqlite: counts };
  }
  const format = options.format;
  const table = options.table;
  const result = await writeOutput(target, deps, (out) =>
    writeTables(format, entries, out, table === undefined ? {} : { table }),
  );
  return { ...result, output: options.output };
}
