import { readlinkSync, type Stats, statSync } from 'node:fs';
import { lstat, mkdir, open, realpath, rmdir, stat } from 'node:fs/promises';
import { dirname, isAbsolute, resolve } from 'node:path';
import { ioError, MdgetError, reasonOf } from '../model/errors.js';
import { coalescingWriter, type Sink } from './atomic-file.js';

/**
 * What an output path is before anything is written (docs/cli.md#outputs): nothing yet, a regular file,
 * a directory (refused), or a special file (a device, a FIFO, a terminal, `/dev/stdout`, `/dev/fd/N` as
 * from `-o >(wc -l)`), which is written directly: never replaced by a rename, never refused as existing.
 */
export type TargetKind = 'missing' | 'file' | 'directory' | 'special';

/**
 * The kind of thing at `path`: links followed, and a link to a file descriptor is that stream. Synchronous:
 * it runs before any request, when there is nothing to overlap, and an asynchronous look costs a
 * thread-pool round trip each (bench/README.md#writing-files).
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

/**
 * Looks at an output path before any request, the one check every output gets (downloads, reference files,
 * the report): a directory is refused, and an existing file unless `replace` (exit 6). `names` names the
 * options in the message; `keep` says how to keep the file instead, if there is a way.
 */
export function checkTarget(
  path: string,
  replace: boolean,
  names: (option: string) => string,
  keep?: string,
): TargetKind {
  const kind = targetKind(path);
  if (kind === 'directory')
    throw new MdgetError(
      'MDGET_IO',
      `${names('output')} ${path}: is a directory; give a file name inside it`,
    );
  if (kind === 'file' && !replace) {
    const how = keep ? ` or ${names(keep)} to keep it` : '';
    throw new MdgetError('MDGET_IO', `${path} exists: pass ${names('force')} to overwrite${how}`);
  }
  return kind;
}

/** The directories a run made, to take back those left empty when it fails. */
export interface MadeDirectories {
  removeEmpty(): Promise<void>;
}

/**
 * Creates the directories of new outputs, each directory once (a batch's outputs share a few); a failure,
 * such as a file in the way, is refused naming the first output that needed it (`name` names -o).
 */
export async function makeDirectoriesFor(paths: readonly string[], name: string): Promise<MadeDirectories> {
  const seen = new Set<string>();
  const created: string[] = [];
  for (const path of paths) {
    const dir = dirname(resolve(path));
    if (seen.has(dir)) continue;
    try {
      created.push(...(await makeDirectory(dir)));
    } catch (error) {
      // ENOENT once the parents were made: a place that cannot hold a directory (/proc)
      const code = (error as { code?: string }).code;
      const reason = code === 'ENOENT' ? 'no directory can be made there' : reasonOf(error);
      throw new MdgetError('MDGET_IO', `${name} ${path}: cannot create its directory: ${reason}`, {
        cause: error,
      });
    }
    seen.add(dir);
  }
  return {
    async removeEmpty() {
      // deepest first: a parent empties once its children are gone
      for (const dir of [...created].sort((a, b) => b.length - a.length)) await rmdir(dir).catch(() => {});
    },
  };
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
 * mkdir -p, one level at a time; returns the directories it made. Node's recursive mkdir never returns
 * where a parent cannot hold a directory and says ENOENT though it exists (/proc): `-o /proc/x/day.csv`
 * hung the run, Ctrl-C included.
 */
async function makeDirectory(dir: string): Promise<string[]> {
  const info = await stat(dir).catch(() => undefined);
  if (info?.isDirectory()) return [];
  const parent = dirname(dir);
  const made = info === undefined && parent !== dir ? await makeDirectory(parent) : [];
  try {
    await mkdir(dir); // a file in the way: EEXIST; a parent that cannot hold it (/proc): ENOENT
  } catch (error) {
    // made meanwhile by another run
    if ((error as NodeJS.ErrnoException).code === 'EEXIST' && (await stat(dir)).isDirectory()) return made;
    throw error;
  }
  return [...made, dir];
}
