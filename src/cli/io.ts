import { fstatSync, writeSync } from 'node:fs';

/** The colours mdget uses on stderr; a chalk instance is one. */
export interface Colors {
  dim(text: string): string;
  red(text: string): string;
  bold(text: string): string;
  cyan(text: string): string;
  yellow(text: string): string;
}

/** The process's streams and terminal facts, in one object so tests and commands never reach for globals. */
export interface Io {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  stdin: NodeJS.ReadableStream;
  stdoutIsTTY: boolean;
  stderrIsTTY: boolean;
  env: Record<string, string | undefined>;
  cwd: string;
  /** Colour only on a terminal and never with NO_COLOR (docs/cli.md#guarantees). */
  color: Colors;
  /**
   * stdout's file descriptor where the process has one (not in tests that hand in streams): a download to
   * a pipe or a file writes it directly (writers/descriptor-writable.ts). Until `stdout` is first read,
   * the descriptor is as the parent left it: Node's stream makes a pipe non-blocking.
   */
  stdoutFd?: number;
  /**
   * Writes a short, complete text (help, version, a dry run's lines) to stdout or stderr at once, without
   * building that stream; returns the bytes left for the stream where it would block; a write error (EPIPE)
   * is thrown.
   */
  writeSync?(to: 'stdout' | 'stderr', text: string): Buffer;
}

const same = (text: string) => text;

/** Text unchanged: what `color` is when colour is off. */
export const NO_COLORS: Colors = { dim: same, red: same, bold: same, cyan: same, yellow: same };

/**
 * A terminal is a character device: a pipe or a file is known not to be one without building its stream.
 * Nor is Linux's /dev/null (major 1, the memory devices), where cron jobs send stderr: asking its stream
 * whether it is a TTY would load Node's stream modules.
 */
function isCharacterDevice(fd: number): boolean {
  try {
    const stat = fstatSync(fd);
    return stat.isCharacterDevice() && !(process.platform === 'linux' && stat.rdev >> 8 === 1);
  } catch {
    return false; // closed
  }
}

/**
 * The real process's Io. Chalk is loaded only when stderr is a terminal that takes colour, and each of the
 * three streams is made on first use: Node builds process.stdin, stdout and stderr lazily, loading its
 * stream, net or tty modules for them, and `--help` needs only stdout (bench/README.md#start-up).
 */
export async function systemIo(): Promise<Io> {
  const stderrIsTTY = isCharacterDevice(2) && Boolean(process.stderr.isTTY);
  const noColor = process.env.NO_COLOR !== undefined && process.env.NO_COLOR !== '';
  const color = stderrIsTTY && !noColor ? new (await import('chalk')).Chalk({ level: 1 }) : NO_COLORS;
  return {
    get stdout() {
      return process.stdout;
    },
    get stderr() {
      return process.stderr;
    },
    get stdin() {
      return process.stdin;
    },
    get stdoutIsTTY() {
      return isCharacterDevice(1) && Boolean(process.stdout.isTTY);
    },
    stderrIsTTY,
    env: process.env,
    cwd: process.cwd(),
    color,
    stdoutFd: 1,
    writeSync: (to, text) => writeAllSync(to === 'stdout' ? 1 : 2, text),
  };
}

/** fs.writeSync to `fd` until done; stops early where it would block, returning the rest. */
function writeAllSync(fd: number, text: string): Buffer {
  const bytes = Buffer.from(text);
  let written = 0;
  try {
    while (written < bytes.length) written += writeSync(fd, bytes, written);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') throw error;
  }
  return bytes.subarray(written);
}
