import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { isAbort } from '../http/network-errors.js';
import { interruptedError, isMdgetError, MdgetError, reasonOf, usageError } from '../model/errors.js';
import { readCapture } from './capture.js';
import type { InstrumentEntry } from './instrument-stream.js';
import {
  type CaptureRunOptions,
  checkTablesOptions,
  type OutputDeps,
  type ReferenceResult,
} from './options.js';
import { checkOutput, writeEntries } from './output.js';

/**
 * `mdget instruments --from-capture`: the same tables from captured streaming metadata. The whole capture is
 * checked first (SUCCESS, numberOfDefinitions: docs/service.md#streaming-metadata-and-captures); a bad one is
 * MDGET_SERVICE naming exchange, expected and actual counts, and nothing is written. A stream is spooled to a
 * temporary file, since the check reads the capture twice with flat memory; the file is removed afterwards.
 */
export async function runCapture(options: CaptureRunOptions, deps: OutputDeps): Promise<ReferenceResult> {
  checkTablesOptions(options, deps.names);
  if (typeof options.capture === 'string') await checkCaptureFile(options.capture);
  const target = await checkOutput(options, options.format === 'sqlite', deps.names);
  let spool: string | undefined;
  try {
    let path: string;
    if (typeof options.capture === 'string') {
      path = options.capture;
    } else {
      spool = await mkdtemp(join(tmpdir(), 'mdget-capture-'));
      path = join(spool, 'capture.ndjson');
      await spoolCapture(options.capture, path, deps.signal);
    }
    const source = path;
    const open = () => createReadStream(source);
    const entries = guardedCapture(readCapture(open, { onWarning: (m) => deps.onNote?.(m) }), source);
    // readCapture yields only once every check passed: take that first step before any output is opened,
    // so a bad capture leaves no file, no temporary file and no csv header on stdout.
    const first = await entries.next();
    const result = await writeEntries(options, target, resume(first, entries), deps);
    if (result.written === 0 && !result.stdoutClosed)
      deps.onNote?.('the capture holds no instrument definitions');
    return result;
  } finally {
    if (spool !== undefined) await rm(spool, { recursive: true, force: true });
  }
}

async function checkCaptureFile(path: string): Promise<void> {
  let isFile: boolean;
  try {
    isFile = (await stat(path)).isFile();
  } catch (error) {
    throw usageError(`--from-capture ${path}: cannot read it: ${reasonOf(error)}`);
  }
  if (!isFile) throw usageError(`--from-capture ${path}: not a file (give a file, or - for stdin)`);
}

/** Copies a capture read from a stream (stdin) to `path`, readable by this user only. */
async function spoolCapture(
  capture: NodeJS.ReadableStream,
  path: string,
  signal: AbortSignal | undefined,
): Promise<void> {
  try {
    await pipeline(capture, createWriteStream(path, { mode: 0o600 }), signal === undefined ? {} : { signal });
  } catch (error) {
    if (isAbort(error)) throw interruptedError(error);
    throw new MdgetError('MDGET_IO', `cannot spool the capture from stdin: ${reasonOf(error)}`, {
      cause: error,
    });
  }
}

async function* guardedCapture(
  entries: AsyncGenerator<InstrumentEntry>,
  path: string,
): AsyncGenerator<InstrumentEntry> {
  try {
    yield* entries;
  } catch (error) {
    if (isMdgetError(error)) throw error;
    throw new MdgetError('MDGET_IO', `cannot read the capture ${path}: ${reasonOf(error)}`, { cause: error });
  }
}

/** The first step of a generator and the rest of it, as one iterable that closes `rest` however it ends. */
async function* resume<T>(first: IteratorResult<T>, rest: AsyncGenerator<T>): AsyncGenerator<T> {
  try {
    if (first.done) return;
    yield first.value;
    yield* rest;
  } finally {
    await rest.return(undefined);
  }
}
