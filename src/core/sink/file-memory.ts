import { createHash, randomUUID } from 'node:crypto';
import { open, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { ioError, MdgetError, reasonOf } from '../model/errors.js';
import type { Recipe } from '../plan/recipe.js';

/**
 * What mdget remembers of a file it wrote, so that --update extends only what it can prove is its own
 * and made the same way (docs/cli.md#outputs).
 */
export interface FileMemory {
  version: 1;
  recipe: Recipe;
  /**
   * Where the rows of each symbol of the recipe end, counted from the file's start: decompressed bytes
   * for the line formats, rows for Parquet. A symbol's rows follow the previous one's end.
   */
  ends: number[];
  /** The file's size and SHA-256 as written: any later change to it shows. */
  bytes: number;
  sha256: string;
}

/** Where file memories are kept: beside each file, or (a dataset) in its ledger. */
export interface OutputMemory {
  /** The memory of the file at `path`; undefined when none was kept. */
  recall(path: string): Promise<FileMemory | undefined>;
  /** Keeps the memory of the file at `path`, once the file is in place. */
  remember(path: string, memory: FileMemory): Promise<void>;
}

/** The memory's file beside a data file: hidden, like the temporary files, so globs of the data skip it. */
const memoryPathOf = (path: string): string => join(dirname(path), `.${basename(path)}.mdget.json`);

/** File memories kept in a small JSON file beside each file, written atomically after it. */
export const sidecarMemory: OutputMemory = {
  async recall(path) {
    const at = memoryPathOf(path);
    let text: string;
    try {
      text = await readFile(at, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw new MdgetError('MDGET_IO', `cannot read ${at}: ${reasonOf(error)}`, { cause: error });
    }
    const memory = parseMemory(text);
    if (!memory)
      throw new MdgetError('MDGET_IO', `${at}: not a record mdget wrote; remove it and start over`);
    return memory;
  },
  async remember(path, memory) {
    const at = memoryPathOf(path);
    const temp = `${at}.${randomUUID().slice(0, 8)}.part`;
    try {
      await writeFile(temp, `${JSON.stringify(memory)}\n`, { flag: 'wx', mode: 0o644 });
      await rename(temp, at);
    } catch (error) {
      await rm(temp, { force: true }).catch(() => {});
      throw ioError(error, at);
    }
  },
};

function parseMemory(text: string): FileMemory | undefined {
  try {
    const value = JSON.parse(text) as Partial<FileMemory>;
    const ok =
      value.version === 1 &&
      typeof value.recipe === 'object' &&
      Array.isArray(value.recipe?.symbols) &&
      Array.isArray(value.ends) &&
      value.ends.length === value.recipe.symbols.length &&
      value.ends.every((end, i, all) => Number.isSafeInteger(end) && end >= (all[i - 1] ?? 0)) &&
      Number.isSafeInteger(value.bytes) &&
      typeof value.sha256 === 'string';
    return ok ? (value as FileMemory) : undefined;
  } catch {
    return undefined;
  }
}

/** The size and SHA-256 of a file's bytes. */
export async function fileDigest(path: string): Promise<{ bytes: number; sha256: string }> {
  const hash = createHash('sha256');
  // one buffer read into again and again: a stream's chunk each read would leave a file's size of garbage
  const buffer = Buffer.allocUnsafe(1 << 20);
  const file = await open(path, 'r');
  let bytes = 0;
  try {
    for (;;) {
      const { bytesRead } = await file.read(buffer, 0, buffer.length, null);
      if (bytesRead === 0) break;
      hash.update(buffer.subarray(0, bytesRead));
      bytes += bytesRead;
    }
  } finally {
    await file.close();
  }
  return { bytes, sha256: hash.digest('hex') };
}
