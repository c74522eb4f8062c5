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
  /** Colour only on a terminal and never with NO_COLOR (cli.md). */
  color: Colors;
}

const same = (text: string) => text;

/** Text unchanged: what `color` is when colour is off. */
export const NO_COLORS: Colors = { dim: same, red: same, bold: same, cyan: same, yellow: same };

/** The real process's Io. Chalk is loaded only when stderr is a terminal that takes colour (start-up). */
export async function systemIo(): Promise<Io> {
  const stderrIsTTY = Boolean(process.stderr.isTTY);
  const noColor = process.env.NO_COLOR !== undefined && process.env.NO_COLOR !== '';
  const color = stderrIsTTY && !noColor ? new (await import('chalk')).Chalk({ level: 1 }) : NO_COLORS;
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    stdin: process.stdin,
    stdoutIsTTY: Boolean(process.stdout.isTTY),
    stderrIsTTY,
    env: process.env,
    cwd: process.cwd(),
    color,
  };
}
