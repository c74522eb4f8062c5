import { usageError } from '../core/model/errors.js';
import type { Io } from './io.js';

/**
 * Refuses, before any request, compressed or binary data (gzip, Parquet) bound for a terminal, where it
 * would only garble the screen; to a file or a pipe it goes as asked.
 */
export function refuseBinaryOnTerminal(binary: boolean, output: string | undefined, io: Io): void {
  if (binary && output === undefined && io.stdoutIsTTY)
    throw usageError(
      'compressed or binary output would go to the terminal: write it to a file with -o, or pipe it',
    );
}
