/**
 * The one place lines reach stderr: as today's text, or with `--log-format json` as one JSON object a line
 * (docs/cli.md#json-log-lines, docs/log-line.schema.json). Callers say the level and the fields they know;
 * every string is redacted here with the run's secrets, whatever the caller did.
 */
import type { ErrorCode } from '../core/model/errors.js';
import { LOG_FORMATS } from '../core/model/option-schema.js';
import { redactText } from '../core/model/redact.js';
import { type Io, NO_COLORS } from './io.js';

export type LogFormat = (typeof LOG_FORMATS)[number];
export type LogLevel = 'info' | 'warn' | 'error';

/** What a line is about, as the events that made it tell it; never parsed from the text. */
export interface LogFields {
  code?: ErrorCode;
  /** The run's exit status: on its last line only (main sets it). */
  exit?: number;
  /** A request's URL, credentials redacted. */
  url?: string;
  symbol?: string;
  series?: string;
  file?: string;
  rows?: number;
  bytes?: number;
}

/** The fields in the order a JSON line gives them. */
const FIELD_ORDER = ['code', 'exit', 'url', 'symbol', 'series', 'file', 'rows', 'bytes'] as const;

export interface Log {
  readonly format: LogFormat;
  info(line: string, fields?: LogFields): void;
  warn(line: string, fields?: LogFields): void;
  error(line: string, fields?: LogFields): void;
  /**
   * A line that may be the run's last (a summary, an error): as JSON it waits for the next line or for
   * end(), which gives it the exit status, so the last object of every run carries `exit`.
   */
  closing(level: LogLevel, line: string, fields?: LogFields): void;
  /** Ends the run's log: a waiting closing line is written with `exit`. */
  end(exit: number): void;
  /** The same log, its text lines written by `write` (a progress display prints them above its bars). */
  through(write: (line: string) => void): Log;
}

/** What a Log writes to: stderr, the instant of each line, the secrets known so far (a live array). */
export interface LogTarget {
  stderr: NodeJS.WritableStream;
  secrets: readonly string[];
  now?: () => Date;
}

/** A JSON log line: time, level, msg, then the fields present, each string redacted. */
function jsonLine(
  time: Date,
  level: LogLevel,
  line: string,
  fields: LogFields,
  secrets: readonly string[],
): string {
  const record: Record<string, unknown> = {
    time: time.toISOString(),
    level,
    msg: redactText(line, secrets),
  };
  for (const key of FIELD_ORDER) {
    const value = fields[key];
    if (value !== undefined) record[key] = typeof value === 'string' ? redactText(value, secrets) : value;
  }
  return `${JSON.stringify(record)}\n`;
}

/** The run's log in `format`; text lines go to stderr (or through a display) exactly as they always did. */
export function createLog(format: LogFormat, target: LogTarget): Log {
  const now = target.now ?? (() => new Date());
  let waiting: { level: LogLevel; line: string; fields: LogFields } | undefined;
  const emit = (level: LogLevel, line: string, fields: LogFields) =>
    target.stderr.write(jsonLine(now(), level, line, fields, target.secrets));
  const flush = () => {
    if (!waiting) return;
    const { level, line, fields } = waiting;
    waiting = undefined;
    emit(level, line, fields);
  };
  const make = (writeText: (line: string) => void): Log => {
    const write = (level: LogLevel, line: string, fields: LogFields = {}) => {
      if (format === 'text') return writeText(redactText(line, target.secrets));
      flush();
      emit(level, line, fields);
    };
    return {
      format,
      info: (line, fields) => write('info', line, fields),
      warn: (line, fields) => write('warn', line, fields),
      error: (line, fields) => write('error', line, fields),
      closing(level, line, fields = {}) {
        if (format === 'text') return writeText(redactText(line, target.secrets));
        flush();
        waiting = { level, line, fields };
      },
      end(exit) {
        if (!waiting) return;
        waiting.fields = { ...waiting.fields, exit };
        flush();
      },
      // JSON lines never go through a display: it draws no bars then, and would wrap them again
      through: (other) => make(format === 'text' ? other : writeText),
    };
  };
  return make((line) => target.stderr.write(`${line}\n`));
}

/**
 * The log format a run asks for: `--log-format` before the command's parser has run (its error lines
 * need the format too), else MDGET_LOG_FORMAT; a value the flag does not take is left to the parser.
 */
export function logFormatFrom(
  argv: readonly string[],
  env: Record<string, string | undefined>,
): LogFormat | { invalid: string } {
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--') break;
    const value =
      arg === '--log-format' ? argv[i + 1] : arg?.startsWith('--log-format=') ? arg.slice(13) : undefined;
    if (value !== undefined) return isLogFormat(value) ? value : 'text';
  }
  const fromEnv = env.MDGET_LOG_FORMAT;
  if (fromEnv === undefined || fromEnv === '') return 'text';
  return isLogFormat(fromEnv) ? fromEnv : { invalid: fromEnv };
}

const isLogFormat = (value: string): value is LogFormat => (LOG_FORMATS as readonly string[]).includes(value);

/**
 * The Io of a JSON run: stderr (and a direct write to it) turns each line of text written without a level
 * (commander's help, progress lines, a dry run's window lines) into an `info` object; no terminal, so no
 * bars and no colour.
 */
export async function jsonIo<T extends Io>(io: T, log: Log): Promise<T> {
  const { Writable } = await import('node:stream');
  let carry = '';
  const take = (chunk: unknown) => {
    const lines = (carry + String(chunk)).split('\n');
    carry = lines.pop() ?? '';
    for (const line of lines) log.info(line);
  };
  const stderr = new Writable({
    decodeStrings: false,
    write(chunk, _encoding, callback) {
      take(chunk);
      callback();
    },
    final(callback) {
      if (carry) log.info(carry);
      carry = '';
      callback();
    },
  });
  const { writeSync } = io;
  return Object.defineProperties(Object.defineProperties({}, Object.getOwnPropertyDescriptors(io)), {
    stderr: { enumerable: true, value: stderr },
    stderrIsTTY: { enumerable: true, value: false },
    color: { enumerable: true, value: NO_COLORS },
    writeSync: {
      enumerable: true,
      value: writeSync
        ? (to: 'stdout' | 'stderr', text: string) => {
            if (to === 'stdout') return writeSync(to, text);
            take(text);
            return Buffer.alloc(0);
          }
        : undefined,
    },
  }) as T;
}
