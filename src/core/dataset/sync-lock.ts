import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { interruptedError, ioError, MdgetError } from '../model/errors.js';
import { ledgerDir, type Share } from './ledger.js';

/** A held lock: released once the sync is over. */
export interface SyncLock {
  release(): Promise<void>;
}

const POLL_MS = 200;

/**
 * Takes the lock of one sync of a dataset (one per share): a file created exclusively, holding the
 * process id and host. A lock whose process is gone from this host (a sync killed by SIGKILL) is taken
 * over. Held by a live process: waited for up to `waitMs`, else MDGET_IO naming that process.
 */
export async function lockSync(
  root: string,
  share: Share | undefined,
  options: { waitMs?: number; signal?: AbortSignal; now?: () => Date } = {},
): Promise<SyncLock> {
  const name = share && share.count > 1 ? `sync.${share.index}-of-${share.count}.lock` : 'sync.lock';
  const path = join(ledgerDir(root), name);
  const now = options.now ?? (() => new Date());
  const deadline = Date.now() + (options.waitMs ?? 0);
  const mine = JSON.stringify({ pid: process.pid, host: hostname(), since: now().toISOString() });
  await mkdir(ledgerDir(root), { recursive: true }).catch((error: unknown) => {
    throw ioError(error, ledgerDir(root));
  });
  for (let unread = 0; ; ) {
    try {
      await writeFile(path, `${mine}\n`, { flag: 'wx' });
      return { release: () => rm(path, { force: true }) };
    } catch (error) {
      if ((error as { code?: string }).code !== 'EEXIST') throw ioError(error, path);
    }
    const holder = await holderOf(path);
    // a lock being written this very moment reads empty: look again before naming no one
    if (!holder && unread++ < 5) {
      await sleep(20);
      continue;
    }
    if (holder && holder.host === hostname() && !isAlive(holder.pid)) {
      await rm(path, { force: true });
      continue;
    }
    if (options.signal?.aborted) throw interruptedError();
    if (Date.now() >= deadline) {
      const who = holder
        ? `process ${holder.pid}${holder.host === hostname() ? '' : ` on ${holder.host}`}, since ${holder.since}`
        : `see ${path}`;
      throw new MdgetError(
        'MDGET_IO',
        `another sync of this dataset is running (${who}): wait for it with --wait <duration>, or remove ${path} if it is gone`,
      );
    }
    await sleep(POLL_MS, undefined, options.signal ? { signal: options.signal } : {}).catch(() => {});
  }
}

async function holderOf(path: string): Promise<{ pid: number; host: string; since: string } | undefined> {
  try {
    const parsed = JSON.parse(await readFile(path, 'utf8')) as {
      pid?: unknown;
      host?: unknown;
      since?: unknown;
    };
    if (typeof parsed.pid !== 'number') return undefined;
    return { pid: parsed.pid, host: String(parsed.host ?? ''), since: String(parsed.since ?? '') };
  } catch {
    // being written by its holder this very moment, or removed: look again
    return undefined;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as { code?: string }).code === 'EPERM';
  }
}
