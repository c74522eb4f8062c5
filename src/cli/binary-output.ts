import { usageError } from '../core/model/errors.js';
import type { Io } from './io.js';

/** Bytes that are not text: gzip, or a Parquet file. */
export type BinaryKind = 'gzip' | 'parquet';

const HOW_TO_READ: Record<BinaryKind, string> = { gzip: ' (| gunzip)', parquet: '' };

/**
 * Refuses, before any request, compressed or binary data bound for a terminal, where it would only
 * garble the screen; to a file or a pipe it goes as asked.
 */
export function refuseBinaryOnTerminal(
  kind: BinaryKind | undefined,
  output: string | undefined,
  io: Io,
): void {
  if (kind === undefined || output !== undefined || !io.stdoutIsTTY) return;
  const what = kind === 'gzip' ? 'compressed output' : 'Parquet output';
  throw usageError(
    `${what} would go to the terminal: write it to a file with -o, or pipe it${HOW_TO_READ[kind]}`,
  );
}
