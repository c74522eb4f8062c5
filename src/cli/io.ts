import { Chalk, type ChalkInstance } from 'chalk';

/** The process's streams and terminal facts, in one object so tests and commands never reach for globals. */
export interface Io {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  stdin: NodeJS.ReadableStream;
  stdoutIsTTY: boolean;
  stderrIsTTY: boolean;
  env: Record<string, string | undefined>;
  cwd: string;
  /** Colour only on a terminal and never with NO_COLOR (cli.md). */
  color: ChalkInstance;
}

/** The real process's Io. */
export function systemIo(): Io {
  const stderrIsTTY = Boolean(process.stderr.isTTY);
  const noColor = process.env.NO_COLOR !== undefined && process.env.NO_COLOR !== '';
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    stdin: process.stdin,
    stdoutIsTTY: Boolean(process.stdout.isTTY),
    stderrIsTTY,
    env: process.env,
    cwd: process.cwd(),
    color: new Chalk({ level: stderrIsTTY && !noColor ? 1 : 0 }),
  };
}
