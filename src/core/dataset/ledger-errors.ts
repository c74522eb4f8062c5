/**
 * What a failure of the ledger's SQLite means, in one line that names the file and the way out: a damaged
 * ledger is moved aside and rebuilt by the next sync from the files on disk (docs/dataset.md#a-damaged-ledger).
 */
import { ioError, MdgetError } from '../model/errors.js';

/** The kinds of SQLite failure a user can act on; the rest are file-system errors as any other. */
function kindOf(error: unknown): 'damaged' | 'read-only' | 'full' | undefined {
  const code = String((error as { code?: unknown } | undefined)?.code ?? '');
  const text = `${code} ${error instanceof Error ? error.message : ''}`.toLowerCase();
  if (/sqlite_corrupt|sqlite_notadb|malformed|not a database|file is encrypted/.test(text)) return 'damaged';
  if (/sqlite_readonly|readonly|read-only/.test(text)) return 'read-only';
  if (/sqlite_full|database or disk is full/.test(text)) return 'full';
  return undefined;
}

/** A failure reading or writing the ledger at `path` as MDGET_IO (exit 6), one line. */
export function ledgerError(error: unknown, path: string): MdgetError {
  if (error instanceof MdgetError) return error;
  const reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
  const aside = `move it aside (mv ${path} ${path}.damaged): the next sync rebuilds it from the files on disk`;
  switch (kindOf(error)) {
    case 'damaged':
      return new MdgetError('MDGET_IO', `${path}: the ledger is damaged (${reason}): ${aside}`, {
        cause: error,
      });
    case 'read-only':
      return new MdgetError(
        'MDGET_IO',
        `cannot write ${path}: read-only (${reason}): make it writable, or ${aside}`,
        { cause: error },
      );
    case 'full':
      return ioError(Object.assign(new Error(reason), { code: 'ENOSPC' }), path);
    default:
      return ioError(error, path);
  }
}
