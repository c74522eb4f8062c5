import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { selfIdentity } from '../../src/core/dataset/process-identity.js';
import { LOCK_STALE_MS } from '../../src/core/dataset/sync-lock.js';
import { NO_PROBES } from '../helpers/cli-env.js';
import { BIN, nodePath, runMain, tempDir } from '../helpers/run-cli.js';
import { DEBUG_ENV, withEmulator } from '../helpers/with-emulator.js';

// The lock of a dataset's root (docs/dataset.md#the-lock): a holder provably gone, an empty lock and a
// reused pid are taken over at once; a live holder or one that cannot be checked (another PID namespace)
// holds until its heartbeat is older than the limit; a shard and a whole-root sync share one lock.
const DATASET = `root = "data"

[[series]]
name = "daily"
kind = "eod"
symbols = ["AAPL", "MSFT"]
start = "2025-03-03"
end = "2025-03-12"
path = "eod/{symbol}.csv"
`;
const NOW = '2025-03-13T18:00:00Z';

/** A dataset directory whose lock file holds `content` (an object as JSON, a string as it is). */
function lockedDataset(content: object | string): { dir: string; lock: string } {
  const dir = tempDir();
  writeFileSync(join(dir, 'mdget.toml'), DATASET);
  mkdirSync(join(dir, 'data/.mdget'), { recursive: true });
  const lock = join(dir, 'data/.mdget/sync.lock');
  writeFileSync(lock, typeof content === 'string' ? content : JSON.stringify(content));
  return { dir, lock };
}

/** Sets the lock's heartbeat (its modification time) `ms` into the past. */
function age(lock: string, ms: number): void {
  const then = new Date(Date.now() - ms);
  utimesSync(lock, then, then);
}

/** A process id no process has (a child that has exited). */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']);
  return Number(child.stdout.toString());
}

const me = () => ({ ...selfIdentity(), since: '2025-03-13T17:00:00.000Z' });

async function sync(dir: string, env: Record<string, string>, ...args: string[]) {
  return runMain(['sync', ...args], { cwd: dir, env: { ...env, ...NO_PROBES, MDGET_NOW: NOW } });
}

describe('the sync lock', () => {
  it('an empty lock, a dead pid and a reused pid (this pid, another start time) are taken over at once', async () => {
    await withEmulator({ now: new Date(NOW) }, async (emu) => {
      const cases = {
        empty: '',
        dead: { ...me(), pid: deadPid() },
        reused: { ...me(), startTime: '1' },
        'another boot': { ...me(), bootId: '00000000-0000-0000-0000-000000000000' },
      };
      for (const [name, content] of Object.entries(cases)) {
        const { dir, lock } = lockedDataset(content);
        const run = await sync(dir, emu.env);
        expect([name, run.code]).toEqual([name, 0]);
        expect(run.stderr).toMatch(
          name === 'empty'
            ? /took over a stale lock: it was empty or unreadable/
            : /took over a stale lock: its holder .* is gone/,
        );
        expect(existsSync(lock)).toBe(false);
        expect(existsSync(join(dir, 'data/eod/AAPL.csv'))).toBe(true);
      }
    });
  });

  it('a live holder (this very process) holds: whole-root and shard syncs exit 6; stale after the limit', async () => {
    await withEmulator({ now: new Date(NOW) }, async (emu) => {
      const { dir, lock } = lockedDataset(me());
      for (const args of [[], ['--shard', '1/2'], ['--shard', '2/2']]) {
        const run = await sync(dir, emu.env, ...args);
        expect(run.code).toBe(6);
        expect(run.stderr).toMatch(
          new RegExp(
            `^mdget: another sync of this dataset is running \\(process ${process.pid}, since .*taken over\\n$`,
          ),
        );
      }
      expect(emu.requests).toHaveLength(0);
      age(lock, LOCK_STALE_MS - 60_000);
      expect((await sync(dir, emu.env)).code).toBe(6);
      age(lock, LOCK_STALE_MS + 1_000);
      const run = await sync(dir, emu.env);
      expect(run.code).toBe(0);
      expect(run.stderr).toMatch(/took over a stale lock: its holder .* had not refreshed it for 10 minutes/);
      expect(existsSync(lock)).toBe(false);
    });
  });

  it('a live shard lock holds the whole root, the same shard and the shards of another count; not its siblings', async () => {
    await withEmulator({ now: new Date(NOW) }, async (emu) => {
      const { dir } = lockedDataset('');
      writeFileSync(join(dir, 'data/.mdget/sync.lock'), ''); // stale: taken over on the way
      writeFileSync(join(dir, 'data/.mdget/sync.1-of-2.lock'), JSON.stringify(me()));
      const codes: Record<string, number> = {};
      for (const args of [[], ['--shard', '1/2'], ['--shard', '1/3'], ['--shard', '2/2']])
        codes[args.join(' ') || 'whole'] = (await sync(dir, emu.env, '-q', ...args)).code;
      expect(codes).toEqual({ whole: 6, '--shard 1/2': 6, '--shard 1/3': 6, '--shard 2/2': 0 });
      expect(readdirSync(join(dir, 'data/.mdget')).filter((n) => n.includes('lock'))).toEqual([
        'sync.1-of-2.lock',
      ]);
    });
  });

  const unshare = spawnSync('unshare', ['--pid', '--fork', '--mount-proc', 'true']).status === 0;
  it.skipIf(!unshare)(
    'a sync killed in another PID namespace: its lock holds until its heartbeat is older than the limit',
    async () => {
      await withEmulator({ now: new Date(NOW), latency: 200 }, async (emu) => {
        const dir = tempDir();
        writeFileSync(join(dir, 'mdget.toml'), DATASET);
        const child = spawn(
          'unshare',
          [
            '--pid',
            '--fork',
            '--mount-proc',
            '--kill-child',
            process.execPath,
            BIN,
            'sync',
            '-q',
            '--concurrency',
            '1',
          ],
          {
            cwd: dir,
            env: { PATH: nodePath(), NO_COLOR: '1', ...DEBUG_ENV, ...emu.env, ...NO_PROBES, MDGET_NOW: NOW },
            stdio: 'ignore',
          },
        );
        const lock = join(dir, 'data/.mdget/sync.lock');
        for (let i = 0; i < 500 && !existsSync(lock); i++) await sleep(20);
        const holder = JSON.parse(readFileSync(lock, 'utf8'));
        child.kill('SIGKILL'); // --kill-child: the sync, the namespace's init, dies with unshare
        await new Promise((resolve) => child.once('close', resolve));
        expect(holder.pidNamespace).not.toBe(selfIdentity().pidNamespace);
        const held = await sync(dir, emu.env);
        expect(held.code).toBe(6);
        expect(held.stderr).toMatch(/process \d+ in another PID namespace/);
        age(lock, LOCK_STALE_MS + 1_000);
        emu.options.latency = 0;
        const run = await sync(dir, emu.env, '-q');
        expect([run.code, run.stderr]).toEqual([0, '']);
        expect(existsSync(lock)).toBe(false);
      });
    },
    30_000,
  );
});
