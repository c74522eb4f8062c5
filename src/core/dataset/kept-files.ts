/**
 * Provisional files that had rows, kept aside while they are fetched again (a hard link beside each,
 * `.name.xxxxxxxx.kept`): an answer with no rows puts the file back as it was instead of replacing it
 * (docs/dataset.md#what-sync-checks). A killed sync's links are removed by the next, as its .part files.
 */
import { randomUUID } from 'node:crypto';
import { link, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { ioError } from '../model/errors.js';
import { markProvisional } from '../sink/provisional.js';

/** The files of one series' fetch kept aside, by path. */
export class KeptFiles {
  private readonly kept = new Map<string, { link: string; rows: number }>();

  /** Keeps `path` (holding `rows` rows) aside until it is restored or dropped. */
  async keep(path: string, rows: number): Promise<void> {
    const aside = join(dirname(path), `.${basename(path)}.${randomUUID().slice(0, 8)}.kept`);
    try {
      await link(path, aside);
    } catch (error) {
      throw ioError(error, aside);
    }
    this.kept.set(path, { link: aside, rows });
  }

  /** The rows the kept file held. */
  rowsOf(path: string): number {
    return this.kept.get(path)?.rows ?? 0;
  }

  /** Puts the kept file back over `path`, provisional; false when none was kept. */
  async restore(path: string): Promise<boolean> {
    const kept = this.kept.get(path);
    if (!kept) return false;
    this.kept.delete(path);
    await rename(kept.link, path);
    await markProvisional(path, true);
    return true;
  }

  /** Removes every link still kept: their files were replaced by answers with rows, or not at all. */
  async dropAll(): Promise<void> {
    for (const { link: aside } of this.kept.values()) await rm(aside, { force: true });
    this.kept.clear();
  }
}
