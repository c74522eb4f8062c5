import type { ErrorCode } from '../core/errors.js';

/** Exit statuses of cli.md; nothing else knows these numbers. */
export const EXIT = { ok: 0, internal: 1, usage: 2 } as const;

/** The exit status for an error code. No default: a new code without a case fails the typecheck. */
export function exitCodeFor(code: ErrorCode): number {
  switch (code) {
    case 'MDGET_USAGE':
      return 2;
    case 'MDGET_CONFIG':
      return 3;
    case 'MDGET_SERVICE':
      return 4;
    case 'MDGET_HTTP':
    case 'MDGET_NETWORK':
      return 5;
    case 'MDGET_IO':
      return 6;
    case 'MDGET_PARTIAL':
      return 7;
    case 'MDGET_ABORTED':
      return 130;
  }
}
