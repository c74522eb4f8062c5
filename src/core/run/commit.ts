import { toMdgetError } from '../http/to-mdget-error.js';
import { ioError, isMdgetError, type MdgetError } from '../model/errors.js';
import type { Sink } from '../sink/atomic-file.js';
import { type FileMemory, fileDigest } from '../sink/file-memory.js';
import { markProvisional } from '../sink/provisional.js';
import { type OutputGroup, pathOf, type RunState } from './run-state.js';

/**
 * Makes an output final: sync, close, rename, then the provisional marker of a file (not of a special
 * file, written as it is). A file's commit overlaps the next output's download (the run awaits them all,
 * run.commits); the stream's is awaited here. Resolves to the output's failure, if any.
 */
export async function commitOutput(
  group: OutputGroup,
  sink: Sink,
  provisional: boolean,
  run: RunState,
): Promise<MdgetError | undefined> {
  const path = pathOf(group);
  const commit = finalize(group.special ? undefined : group, sink, provisional, run);
  if (path === undefined) return commit;
  const tracked = commit.then((failure) => failure && failCommitted(group, failure));
  run.commits.push(tracked);
  run.commitGate.add(tracked);
  await run.commitGate.room();
  return undefined;
}

async function finalize(
  group: OutputGroup | undefined,
  sink: Sink,
  provisional: boolean,
  run: RunState,
): Promise<MdgetError | undefined> {
  const path = group && pathOf(group);
  try {
    // a provisional file's marker goes first: a stop between the rename and the marker would leave an
    // unfinished day looking final (a marker beside an older file only has it fetched again)
    if (path !== undefined && provisional) await markProvisional(path, true);
    await sink.commit();
    if (path !== undefined && !provisional) await markProvisional(path, false);
  } catch (error) {
    // a file-system error of the marker (a full disk) is an output error like the file's own
    return dropSink(path !== undefined && isSystemError(error) ? ioError(error, path) : error, sink, run);
  }
  if (path === undefined || !group) return undefined;
  try {
    const memory = await remember(group, path, sink, run);
    await run.onCommitted?.({
      path,
      results: group.items.map((item) => item.result),
      provisional,
      appended: group.keepBytes !== undefined || group.copies !== undefined,
      ...(memory ? { memory } : {}),
    });
    return undefined;
  } catch (error) {
    return toMdgetError(error);
  }
}

/**
 * Keeps how a file in place was made, with its size and hash (sink/file-memory.ts). After the rename: a
 * run stopped between the two leaves an old memory, which no longer matches the file, so the next
 * --update refuses it rather than trusting it.
 */
async function remember(
  group: OutputGroup,
  path: string,
  sink: Sink,
  run: RunState,
): Promise<FileMemory | undefined> {
  if (!run.memory || !group.recipe || !group.ends) return undefined;
  const { bytes, sha256 } = sink.written?.() ?? (await fileDigest(path));
  const memory: FileMemory = { version: 1, recipe: group.recipe, ends: group.ends, bytes, sha256 };
  await run.memory.remember(path, memory);
  return memory;
}

/** After a failed write or commit: a closed stdout ends the run quietly; anything else drops the sink. */
export async function dropSink(error: unknown, sink: Sink, run: RunState): Promise<MdgetError | undefined> {
  if (sink.closed) {
    run.stdoutClosed = true;
    return undefined;
  }
  await sink.abort();
  return toMdgetError(error);
}

/** An output whose commit failed: its requests are failed in the report, and the failure returned. */
function failCommitted(group: OutputGroup, failure: MdgetError): MdgetError {
  for (const { result } of group.items) {
    result.status = 'failed';
    result.error = { code: failure.code, message: failure.message };
  }
  return failure;
}

/** An error of the file system (ENOSPC, EACCES…), not one of mdget's. */
const isSystemError = (error: unknown): boolean =>
  !isMdgetError(error) && /^E[A-Z]+$/.test(String((error as { code?: unknown } | undefined)?.code ?? ''));
