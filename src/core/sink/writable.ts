import { open, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { MdgetError, reasonOf } from '../model/errors.js';

/**
 * Throws MDGET_IO (`<label>: cannot write there: <reason>`) when no file can be made in `dir`; `label`
 * names the option and the path the user gave. Mode
 * bits do not tell (root, read-only mounts, ACLs), so it makes and removes a file, before any request:
 * a spool or report that fails only after the download has run costs the user the whole run.
 */
export async function checkWritableDirectory(dir: string, label: string): Promise<void> {
  const probe = join(dir, `.mdget-probe-${crypto.randomUUID().slice(0, 8)}`);
  try {
    await (await open(probe, 'wx', 0o600)).close();
  } catch (error) {
    throw new MdgetError('MDGET_IO', `${label}: cannot write there: ${reasonOf(error)}`, {
      cause: error,
    });
  }
  await rm(probe, { force: true });
}
