import { rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { MdgetError } from '../core/model/errors.js';
import { redactText } from '../core/model/redact.js';
import { tempPathFor } from '../core/sink/atomic-file.js';
import { makeDirectory } from '../core/sink/targets.js';

/** Refuses a --report path that cannot be written, before any request (exit 6). */
export async function checkReportPath(path: string): Promise<void> {
  const info = await stat(path).catch(() => undefined);
  if (info?.isDirectory()) throw new MdgetError('MDGET_IO', `cannot write --report ${path}: is a directory`);
  await makeDirectory(dirname(resolve(path))).catch((error: { code?: string }) => {
    throw new MdgetError('MDGET_IO', `cannot write --report ${path}: ${error.code ?? 'error'}`);
  });
}

/** Writes the --report file atomically: `{ command, requests }`, every secret redacted. */
export async function writeReport(
  path: string,
  command: string,
  requests: readonly object[],
  secrets: readonly string[],
): Promise<void> {
  const text = redactText(`${JSON.stringify({ command, requests }, null, 2)}\n`, secrets);
  const temp = tempPathFor(path);
  try {
    await writeFile(temp, text);
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true });
    throw new MdgetError(
      'MDGET_IO',
      `cannot write --report ${path}: ${(error as { code?: string }).code ?? 'error'}`,
    );
  }
}
