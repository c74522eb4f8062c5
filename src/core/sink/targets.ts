import { readlinkSync, type Stats, statSync } from 'node:fs';
import { lstat, mkdir, open, realpath, stat } from 'node:fs/promises';
import { dirname, isAbsolute, resolve } from 'node:path';
import { ioError, MdgetError } from '../model/errors.js';
import { coalescingWriter, type Sink } from './atomic-file.js';

/**
 * What an output path is before anything is written (issue 10, cli.md -o): nothing yet, a regular file,
 * a directory (refused), or a special file (a device, a FIFO, a terminal, `/dev/stdout`, `/dev/fd/N` as
 * from `-o >(wc -l)`), which is written directly: never replaced by a rename, never refused as existing.
 */
export type TargetKind = 'missing' | 'file' | 'directory' | 'special';

/**
 * The kind of thing at `path`: links followed, and a link to a file descriptor is that stream. Synchronous:
 * it runs before any request, when there is nothing to overlap, and an asynchronous look costs a
 * thread-pool round trip each (3,650 outputs took 0.7 s to look at one by one here, issue 9).
 */
export function targetKind(path: string): TargetKind {
  let info: Stats;
  try {
    info = statSync(path);
  } catch {
    return 'missing'; // ENOTDIR, EACCES too: creating its directory, or opening it, says why
  }
  if (info.isDirectory()) return 'directory';
  // `/dev/stdout` redirected to a file stats as that file: renaming over the link would replace the
  // system's /dev/stdout (as root) and lose the output. A stream named by a path is written as it is.
  if (!info.isFile() || namesStream(path)) return 'special';
  return 'file';
}

/** The file an atomic write replaces: a link's final target (the link stays), else the path itself. */
export async function writtenPath(path: string): Promise<string> {
  return (await lstat(path).catch(() => undefined))?.isSymbolicLink() ? realpath(path) : path;
}

const STREAM_LINK = /^\/(proc\/[^/]+|dev)\/fd\/\d+$/;

/** True for paths under /dev or /proc, and for links whose chain goes through a file descriptor. */
function namesStream(path: string): boolean {
  let at = resolve(path);
  for (let hop = 0; hop < 40; hop++) {
    if (at.startsWith('/dev/') || at.startsWith('/proc/') || STREAM_LINK.test(at)) return true;
    let link: string;
    try {
      link = readlinkSync(at);
    } catch {
      return false; // not a link
    }
    at = isAbsolute(link) ? link : resolve(dirname(at), link);
  }
  return true;
}

/** The refusal of an output that is a directory (exit 6), found before any request. */
export const directoryTargetError = (path: string): MdgetError =>
  new MdgetError('MDGET_IO', `-o ${path}: is a directory; give a file name inside it`);

/**
 * Creates the directories of new outputs, each directory once (a batch's outputs share a few); a failure,
 * such as a file in the way, is refused naming the first output that needed it.
 */
export async function makeDirectoriesFor(paths: readonly string[]): Promise<void> {
  const made = new Set<string>();
  for (const path of paths) {
    const dir = dirname(resolve(path));
    if (made.has(dir)) continue;
    try {
      await makeDirectory(dir);
    } catch (error) {
      throw new MdgetError(
        'MDGET_IO',
        `-o ${path}: cannot create its directory: ${(error as { code?: string }).code ?? 'error'}`,
        { cause: error },
      );
    }
    made.add(dir);
  }
}

/** A special file opened and written directly; commit and abort only close it (nothing to undo). */
export async function directSink(path: string): Promise<Sink> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(path, 'w');
  } catch (error) {
    throw ioError(error, path);
  }
  const stream = coalescingWriter(handle.fd, path);
  let failure: Error | undefined;
  stream.on('error', (error) => {
    failure ??= error;
  });
  let done = false;
  const close = async () => {
    if (done) return;
    done = true;
    await handle.close().catch(() => {});
  };
  return {
    stream,
    target: path,
    closed: false,
    async commit() {
      await new Promise<void>((resolve, reject) => {
        if (failure || stream.destroyed) return reject(failure ?? ioError(new Error('closed early'), path));
        stream.once('error', reject);
        stream.end(resolve);
      }).finally(close);
    },
    async abort() {
      stream.destroy();
      await close();
    },
  };
}

/**
 * mkdir -p, one level at a time. Node's recursive mkdir never returns where a parent cannot hold a
 * directory and says ENOENT though it exists (/proc): `-o /proc/x/day.csv` hung the run, Ctrl-C included.
 */
export async function makeDirectory(dir: string): Promise<void> {
  const info = await stat(dir).catch(() => undefined);
  if (info?.isDirectory()) return;
  const parent = dirname(dir);
  if (info === undefined && parent !== dir) await makeDirectory(parent);
  try {
    await mkdir(dir); // a file in the way: EEXIST; a parent that cannot hold it (/proc): ENOENT
  } catch (error) {
    // made meanwhile by another run
    if ((error as NodeJS.ErrnoException).code === 'EEXIST' && (await stat(dir)).isDirectory()) return;
    throw error;
  }
}
