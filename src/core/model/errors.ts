/**
 * One error type for everything mdget expects to go wrong. Callers branch on `code`, never on the
 * message or on `instanceof` (a bundle can hold two copies of a class). The CLI maps codes to exit
 * statuses in one place (src/cli/exit-codes.ts).
 */
export type ErrorCode =
  | 'MDGET_USAGE' // bad flag, value, date or ambiguous exchange: nothing was sent
  | 'MDGET_CONFIG' // credentials or a base URL missing or malformed: nothing was sent
  | 'MDGET_SERVICE' // the service refused: in-band Error line, HTTP 4xx (not 429), metadata count mismatch
  | 'MDGET_HTTP' // server failure after retries: 5xx, 429, 3xx, HTML maintenance page
  | 'MDGET_NETWORK' // connection, timeout or truncated body after retries
  | 'MDGET_IO' // output exists without --force, cannot write, disk full
  | 'MDGET_PARTIAL' // some requests of a batch failed, the rest were written
  | 'MDGET_ABORTED' // interrupted (SIGINT)
  | 'MDGET_FINDINGS'; // verify found a file missing, changed or unknown, or a suspicious gap

/** Where an error came from, when a request did: its HTTP status, and its URL with credentials redacted. */
export interface MdgetErrorOptions extends ErrorOptions {
  status?: number;
  url?: string;
  /** The first line of a refusing response's body, redacted, when it had one. */
  detail?: string;
  /** The option a usage error is about. */
  option?: string;
}

/** The base error of mdget: a stable string `code`, a one-line message, an optional `cause`. */
export class MdgetError extends Error {
  override name = 'MdgetError';
  readonly code: ErrorCode;
  /** The HTTP status of the response that failed, when there was one. */
  readonly status?: number;
  /** The request's URL, credentials redacted. */
  readonly url?: string;
  /** The first line of a refusing response's body, redacted, when it had one. */
  readonly detail?: string;
  /** The option a usage error is about, as the library names it (`interval`), when one is. */
  readonly option?: string;
  constructor(code: ErrorCode, message: string, options?: MdgetErrorOptions) {
    super(message, options);
    this.code = code;
    if (options?.status !== undefined) this.status = options.status;
    if (options?.url !== undefined) this.url = options.url;
    if (options?.detail !== undefined) this.detail = options.detail;
    if (options?.option !== undefined) this.option = options.option;
  }
}

/** True when `error` is an MdgetError (checked by shape, so it also holds across bundle copies). */
export function isMdgetError(error: unknown): error is MdgetError {
  const code = error instanceof Error ? (error as { code?: unknown }).code : undefined;
  return typeof code === 'string' && code.startsWith('MDGET_');
}

/** A usage error, with the option it is about when there is one. */
export const usageError = (message: string, option?: string) =>
  new MdgetError('MDGET_USAGE', message, option === undefined ? {} : { option });
export const configError = (message: string) => new MdgetError('MDGET_CONFIG', message);

/** The one error of a run stopped by its abort signal (SIGINT: exit 130); `cause` is what the abort threw. */
export const interruptedError = (cause?: unknown) =>
  new MdgetError('MDGET_ABORTED', 'interrupted', cause === undefined ? {} : { cause });

/** What a file-system error means, in words: no message shows a bare errno. */
const REASONS: Record<string, string> = {
  ENOSPC: 'disk full',
  EDQUOT: 'disk quota exceeded',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EROFS: 'read-only file system',
  ENOENT: 'no such file or directory',
  ENOTDIR: 'a file is in the way where a directory should be',
  EEXIST: 'a file is in the way',
  EISDIR: 'is a directory',
  ENAMETOOLONG: 'name too long',
  EMFILE: 'too many open files',
  ENFILE: 'too many open files',
  ELOOP: 'too many symbolic links',
  EIO: 'input/output error',
};

/** The reason a file-system error gives, in words (its message when the code is not one of ours). */
export function reasonOf(error: unknown): string {
  const code = (error as { code?: unknown } | undefined)?.code;
  if (typeof code === 'string' && Object.hasOwn(REASONS, code)) return REASONS[code]!;
  return error instanceof Error ? error.message : String(error);
}

/** Converts a file-system error into MDGET_IO with a one-line message. */
export function ioError(error: unknown, what: string): MdgetError {
  return new MdgetError('MDGET_IO', `cannot write ${what}: ${reasonOf(error)}`, { cause: error });
}
