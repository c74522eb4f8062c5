import { existsSync } from 'node:fs';
import { unlink, writeFile } from 'node:fs/promises';

/**
 * A file whose data reached past the service's data cut-off (today's ticks, this week's bars) is written, but
 * marked provisional by a `<file>.provisional` file beside it, so a later --skip-existing run fetches it
 * again instead of keeping an unfinished day forever (docs/completeness.md#provisional-windows). A complete
 * rewrite removes the marker.
 */
export const provisionalMarker = (target: string): string => `${target}.provisional`;

/** Writes or removes the marker of `target` after it was committed. */
export async function markProvisional(target: string, provisional: boolean): Promise<void> {
  const marker = provisionalMarker(target);
  if (provisional)
    await writeFile(marker, 'written before the data cut-off: --skip-existing fetches it again\n');
  // unlink, not rm: one system call where most files never had a marker (rm stats first)
  else
    await unlink(marker).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') throw error;
    });
}

/** True when `target` exists and is final: --skip-existing may leave it alone (synchronous, as targetKind). */
export function isFinal(target: string): boolean {
  return existsSync(target) && !existsSync(provisionalMarker(target));
}
