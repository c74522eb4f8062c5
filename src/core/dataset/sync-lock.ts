/**
 * The locks of a dataset's syncs (`.mdget/sync.lock`, and one a shard beside it), after restic's model
 * and safe against a reused process id: the holder is named by pid, process start time, boot id, PID
 * namespace and host (process-identity.ts), and refreshes the file's modification time while it runs
 * (the heartbeat). A lock whose holder is provably gone, or that is empty or unreadable, is taken over at
 * once; one whose heartbeat is older than LOCK_STALE_MS is taken over then. docs/dataset.md#the-lock is
 * the contract.
 */
import { randomUUID } from 'node:crypto';
import { link, mkdir, readdir, readFile, rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { interruptedError, ioError, MdgetError } from '../model/errors.js';
import type { Share } from './ledger.js';
import { livenessOf, type ProcessIdentity, selfIdentity } from './process-identity.js';

/** How often a running sync refreshes its lock. */
export const LOCK_HEARTBEAT_MS = 60_000;
/** A lock not refreshed for this long is stale whoever holds it: ten heartbeats missed. */
export const LOCK_STALE_MS = 10 * LOCK_HEARTBEAT_MS;

const POLL_MS = 200;

/** A held lock: released once the sync is over. */
export interface SyncLock {
  release(): Promise<void>;
}

interface Holder extends ProcessIdentity {
  since: string;
}

/**
 * Takes the lock of a sync of the dataset at `root`: `sync.lock` for the whole root, `sync.<i>-of-<n>.lock`
 * for a shard. A sync waits for every lock of another that would write its files: the whole root's for
 * all, a shard's for the whole root, the same shard and the shards of another count; the shards of one
 * count run side by side. Held: waited for up to `waitMs`, else MDGET_IO naming the holder.
 */
export async function lockSync(
  root: string,
  share: Share | undefined,
  options: { waitMs?: number; signal?: AbortSignal; onTakeOver?: (message: string) => void } = {},
): Promise<SyncLock> {
  const dir = join(root, '.mdget');
  const name = lockName(share);
  const path = join(dir, name);
  const self = selfIdentity();
  const mine = `${JSON.stringify({ ...self, since: new Date().toISOString() })}\n`;
  const deadline = Date.now() + (options.waitMs ?? 0);
  await mkdir(dir, { recursive: true }).catch((error: unknown) => {
    throw ioError(error, dir);
  });
  for (;;) {
    let blocker: string | undefined;
    if (await create(path, mine)) {
      const others = (await readdir(dir)).filter((n) => n !== name && conflicts(name, n));
      for (const other of others)
        if (await live(join(dir, other), self, options)) blocker ??= join(dir, other);
      if (blocker === undefined) return held(path, mine);
      await rm(path, { force: true });
    } else if (await live(path, self, options)) blocker = path;
    if (blocker === undefined) continue;
    const found = await readLock(blocker);
    if (found === undefined) continue; // released meanwhile: try again
    if (options.signal?.aborted) throw interruptedError();
    if (Date.now() >= deadline) throw heldError(parse(found.text), found.mtimeMs, self);
    // a little jitter: two syncs that started at once and stood back for each other do not meet again
    const pause = POLL_MS * (0.5 + Math.random());
    await sleep(pause, undefined, options.signal ? { signal: options.signal } : {}).catch(() => {});
  }
}

/** The lock file of a share. */
const lockName = (share: Share | undefined): string =>
  share && share.count > 1 ? `sync.${share.index}-of-${share.count}.lock` : 'sync.lock';

const SHARD_LOCK = /^sync\.(\d+)-of-(\d+)\.lock$/;

/** Whether the syncs holding locks `a` and `b` may write the same files. */
function conflicts(a: string, b: string): boolean {
  if (b !== 'sync.lock' && !SHARD_LOCK.test(b)) return false;
  const x = SHARD_LOCK.exec(a);
  const y = SHARD_LOCK.exec(b);
  if (!x || !y) return true;
  return x[2] !== y[2] || x[1] === y[1];
}

/** True while the lock at `path` is held; a stale one is taken over (and said so). */
async function live(
  path: string,
  self: ProcessIdentity,
  options: { onTakeOver?: (message: string) => void },
): Promise<boolean> {
  const found = await readLock(path);
  if (found === undefined) return false;
  const why = staleness(found.text, found.mtimeMs, self);
  if (why === undefined) return true;
  if (await takeOver(path, found.text)) options.onTakeOver?.(`took over a stale lock: ${why}`);
  return false;
}

/** Creates the lock with its content in one step (a link of a written file): it is never seen empty. */
async function create(path: string, content: string): Promise<boolean> {
  const temp = `${path}.${randomUUID().slice(0, 8)}.tmp`;
  try {
    await writeFile(temp, content, { flag: 'wx' });
    await link(temp, path);
    return true;
  } catch (error) {
    if ((error as { code?: string }).code === 'EEXIST') return false;
    throw ioError(error, path);
  } finally {
    await rm(temp, { force: true });
  }
}

/** The held lock: its heartbeat runs until it is released; a lock another sync took over is left alone. */
function held(path: string, mine: string): SyncLock {
  const beat = setInterval(() => {
    void ours(path, mine).then((yes) => (yes ? utimes(path, new Date(), new Date()) : undefined), noop);
  }, LOCK_HEARTBEAT_MS);
  beat.unref();
  return {
    release: async () => {
      clearInterval(beat);
      if (await ours(path, mine)) await rm(path, { force: true });
    },
  };
}

const noop = () => {};

async function ours(path: string, mine: string): Promise<boolean> {
  return (await readFile(path, 'utf8').catch(() => '')) === mine;
}

async function readLock(path: string): Promise<{ text: string; mtimeMs: number } | undefined> {
  try {
    const [text, info] = await Promise.all([readFile(path, 'utf8'), stat(path)]);
    return { text, mtimeMs: info.mtimeMs };
  } catch (error) {
    if ((error as { code?: string }).code === 'ENOENT') return undefined;
    // unreadable: stale like an empty one, which takeOver can still move aside
    return { text: '', mtimeMs: 0 };
  }
}

/** Why a lock is stale (a sentence), or undefined while its holder may still run. */
function staleness(text: string, mtimeMs: number, self: ProcessIdentity): string | undefined {
  const holder = parse(text);
  if (!holder) return 'it was empty or unreadable';
  const who = `process ${holder.pid} on ${holder.host}, since ${holder.since}`;
  if (livenessOf(holder, self) === 'gone') return `its holder (${who}) is gone`;
  if (Date.now() - mtimeMs > LOCK_STALE_MS)
    return `its holder (${who}) had not refreshed it for ${LOCK_STALE_MS / 60_000} minutes`;
  return undefined;
}

/**
 * Moves a stale lock aside and removes it; true when it did. Another sync may have taken it over between the read and
 * the move: a lock that is not the one judged stale is put back.
 */
async function takeOver(path: string, judged: string): Promise<boolean> {
  const aside = `${path}.${randomUUID().slice(0, 8)}.stale`;
  try {
    await rename(path, aside);
  } catch (error) {
    if ((error as { code?: string }).code === 'ENOENT') return false;
    throw ioError(error, path);
  }
  const moved = await readFile(aside, 'utf8').catch(() => '');
  const stale = moved === judged;
  if (!stale) await link(aside, path).catch(noop);
  await rm(aside, { force: true });
  return stale;
}

function parse(text: string): Holder | undefined {
  try {
    const value = JSON.parse(text) as Partial<Holder>;
    if (typeof value.pid !== 'number' || typeof value.host !== 'string') return undefined;
    return { ...value, pid: value.pid, host: value.host, since: String(value.since ?? '') };
  } catch {
    return undefined;
  }
}

function heldError(holder: Holder | undefined, mtimeMs: number, self: ProcessIdentity) {
  const where =
    holder === undefined
      ? ''
      : holder.host !== self.host
        ? ` on ${holder.host}`
        : holder.pidNamespace !== self.pidNamespace
          ? ' in another PID namespace'
          : '';
  const heard = Math.max(0, Math.round((Date.now() - mtimeMs) / 1000));
  const who = holder ? `process ${holder.pid}${where}, since ${holder.since}` : 'a lock being written';
  return new MdgetError(
    'MDGET_IO',
    `another sync of this dataset is running (${who}; refreshed ${heard} s ago): wait for it with --wait <duration>; a lock not refreshed for ${LOCK_STALE_MS / 60_000} minutes is taken over`,
  );
}
