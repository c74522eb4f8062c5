/**
 * The temporary files a killed sync left beside the files it was writing (`.name.xxxxxxxx.part`, see
 * sink/atomic-file.ts, and the `.kept` links of kept-files.ts): removed by the next sync, which holds the
 * lock, before it writes those files.
 */
import { existsSync } from 'node:fs';
import { readdir, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { provisionalMarker } from '../sink/provisional.js';

const PART = /^\.(.+)\.[0-9a-f]{8}\.(?:part|kept)$/;

/** Removes the stale temporary files of `paths`; returns how many went. */
export async function removeStaleParts(paths: readonly string[]): Promise<number> {
  const byDir = new Map<string, Set<string>>();
  for (const path of paths) {
    const names = byDir.get(dirname(path)) ?? new Set<string>();
    names.add(basename(path));
    byDir.set(dirname(path), names);
  }
  let removed = 0;
  for (const [dir, names] of byDir) {
    const entries = await readdir(dir).catch(() => [] as string[]);
    for (const entry of entries) {
      const target = PART.exec(entry)?.[1];
      if (target === undefined || !names.has(target)) continue;
      await rm(join(dir, entry), { force: true });
      removed++;
    }
  }
  return removed;
}

/**
 * Removes the provisional markers of `paths` whose file is not there (a write that failed after its
 * marker, on a full disk): a marker says something of a file, and none is left without one.
 */
export async function removeOrphanMarkers(paths: readonly string[]): Promise<void> {
  for (const path of paths)
    if (!existsSync(path)) await rm(provisionalMarker(path), { force: true }).catch(() => {});
}
