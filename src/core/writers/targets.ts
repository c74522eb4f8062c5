import { lstat, mkdir, open, readlink, realpath, stat } from 'node:fs/promises';
import { dirname, isAbsolute, resolve } from 'node:path';
import { ioError, MdgetError } from '../errors.js';
import { coalescingWriter, type Sink } from './atomic-file.js';

/**
 * What an output path is before anything is written (issue 10, cli.md -o): nothing yet, a regular file,
 * a directory (refused), or a special file (a device, a FIFO, a terminal, `/dev/stdout`, `/dev/fd/N` as
 * from `-o >(wc -l)`), which is written directly: never replaced by a rename, never refused as existing.
 */
export type TargetKind = 'missing' | 'file' | 'directory' | 'special';

/** The kind of thing at `path`: links followed, and a link to a file descriptor is that stream. */
export async function targetKind(path: string): Promise<TargetKind> {
  const info = await stat(path).catch(() => undefined);
  if (!info) return 'missing';
  if (info.isDirectory()) return 'directory';
  // `/dev/stdout` redirected to a file stats as that file: renaming over the link would replace the
  // system's /dev/stdout (as root) and lose the output. A stream named by a path is written as it is.
  if (!info.isFile() || (await namesStream(path))) return 'special';
  return 'file';
}

/** The file an atomic write replaces: a link's final target (the link stays), else the path itself. */
export async function writtenPath(path: string): Promise<string> {
  return (await lstat(path).catch(() => undefined))?.isSymbolicLink() ? realpath(path) : path;
}

const STREAM_LINK = /^\/(proc\/[^/]+|dev)\/fd\/\d+$/;

/** True for paths under /dev or /proc, and for links whose chain goes through a file descriptor. */
async function namesStream(path: string): Promise<boolean> {
  let at = resolve(path);
  for (let hop = 0; hop < 40; hop++) {
    if (at.startsWith('/dev/') || at.startsWith('/proc/') || STREAM_LINK.test(at)) return true;
    const link = await readlink(at).catch(() => undefined);
    if (link === undefined) return false;
    at = isAbsolute(link) ? link : resolve(dirname(at), link);
  }
  return true;
}

/**
 * Checks an output before any request: a directory is refused, and a new file's directory is created
 * (its failure, such as a file in the way, is refused too). Returns the kind found.
 */
export async function prepareTarget(path: string): Promise<TargetKind> {
  const kind = await targetKind(path);
  if (kind === 'directory') {
    throw new MdgetError('MDGET_IO', `-o ${path}: is a directory; give a file name inside it`);
  }
  if (kind === 'missing') {
    try {
      await makeDirectory(dirname(resolve(path)));
    } catch (error) {
      throw new MdgetError(
        'MDGET_IO',
        `-o ${path}: cannot create its directory: ${(error as { code?: string }).code ?? 'error'}`,
        { cause: error },
      );
    }
  }
  return kind;
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
