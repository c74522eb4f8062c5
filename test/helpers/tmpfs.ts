import { execFileSync, spawnSync } from 'node:child_process';
import { tempDir } from './run-cli.js';

/** Mounts a small tmpfs at `dir`, a disk that fills on demand; false where mounting is refused (not root). */
export function mounted(dir: string, size: string): boolean {
  return spawnSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir]).status === 0;
}

/** Whether this machine lets the tests mount a tmpfs; the tests that need one are skipped otherwise. */
export const canMount = (() => {
  const probe = tempDir();
  if (!mounted(probe, '64k')) return false;
  execFileSync('umount', [probe]);
  return true;
})();
